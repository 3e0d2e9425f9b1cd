//! Collections: what `search_collections` searches. Every wiki has a default collection, the
//! whole wiki, named by the wiki's id; an administrator defines more (`wiki-mcp collections
//! create`), each a list of spaces of one wiki (nested spaces included).
//!
//! Definitions live in the farm, as JSON in the hidden document [`COLLECTIONS_DOCUMENT`] of
//! their wiki, so every process serving the farm sees the same ones, on every backend, with
//! history; a change is one compare-and-set save, so two admins cannot lose each other's edit.
//! A collection only narrows a search: results are still only rows the caller may view.

use serde::{Deserialize, Serialize};
use wiki_tool_sdk::prelude::StoreReader;
use wiki_tool_sdk::store::model::document::{Document, DocumentSave, Expected};
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::{DocumentReference, SpacePath};
use wiki_tool_sdk::store::{Store, StoreError};

/// The hidden document of a wiki that holds its collection definitions.
pub const COLLECTIONS_DOCUMENT: &str = "MCP.SemanticCollections";

/// The longest collection id.
const MAX_ID: usize = 64;

/// The most spaces a collection names.
const MAX_SPACES: usize = 100;

/// One defined collection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Collection {
    /// Its id: 1 to 64 characters of `a-z`, `0-9`, `_` and `-`, starting with a letter or digit.
    pub id: String,
    /// The spaces it covers (each with its nested spaces), as `Space.Sub`.
    pub spaces: Vec<String>,
}

impl Collection {
    /// The parsed spaces (a definition that no longer parses covers nothing).
    pub fn space_paths(&self) -> Vec<SpacePath> {
        self.spaces
            .iter()
            .filter_map(|space| SpacePath::parse(space).ok())
            .collect()
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Stored {
    collections: Vec<Collection>,
}

/// Why a collection change was refused (an admin command prints it).
#[derive(Debug, thiserror::Error)]
pub enum CollectionError {
    /// The id breaks the naming rule.
    #[error(
        "a collection id is 1 to 64 characters of a-z, 0-9, '_' and '-', starting with a letter or digit"
    )]
    BadId,
    /// The id is the wiki's own, the default collection's.
    #[error("\"{0}\" is the wiki's default collection (the whole wiki); choose another id")]
    DefaultId(String),
    /// No space, too many, or one that does not parse.
    #[error("{0}")]
    BadSpaces(String),
    /// A space holds no page (a typo, most likely).
    #[error("wiki {wiki} has no space \"{space}\" (no page in it); its top-level spaces: {known}")]
    UnknownSpace {
        /// The wiki.
        wiki: WikiId,
        /// The space as given.
        space: String,
        /// The wiki's top-level spaces, comma-separated.
        known: String,
    },
    /// The id is taken.
    #[error("collection \"{0}\" exists already; delete it first to redefine it")]
    Exists(String),
    /// No such collection.
    #[error("no collection \"{0}\" in this wiki; `wiki-mcp collections list --wiki W` lists them")]
    Missing(String),
    /// The stored definitions do not parse.
    #[error(
        "the collection definitions in {COLLECTIONS_DOCUMENT} do not parse ({0}); fix or delete that document"
    )]
    Corrupt(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn document(wiki: &WikiId) -> Result<DocumentReference, StoreError> {
    DocumentReference::parse(COLLECTIONS_DOCUMENT, wiki)
        .map_err(|_| StoreError::backend(std::io::Error::other("collections document name")))
}

/// The collections defined in `wiki`, sorted by id.
pub fn defined(store: &dyn Store, wiki: &WikiId) -> Result<Vec<Collection>, CollectionError> {
    Ok(read(store, wiki)?.0.collections)
}

/// The collections defined in `wiki`, read through a tool's [`StoreReader`].
pub fn defined_in(
    reader: &StoreReader<'_>,
    wiki: &WikiId,
) -> Result<Vec<Collection>, CollectionError> {
    Ok(parse(reader.document(&document(wiki)?, None)?)?
        .0
        .collections)
}

fn read(store: &dyn Store, wiki: &WikiId) -> Result<(Stored, Expected), CollectionError> {
    parse(store.document(&document(wiki)?, None)?)
}

/// The stored definitions (sorted by id) and the version a change must expect.
fn parse(row: Option<Document>) -> Result<(Stored, Expected), CollectionError> {
    match row {
        None => Ok((Stored::default(), Expected::Absent)),
        Some(doc) => {
            let mut stored: Stored = serde_json::from_str(&doc.content)
                .map_err(|error| CollectionError::Corrupt(error.to_string()))?;
            stored.collections.sort_by(|a, b| a.id.cmp(&b.id));
            Ok((stored, Expected::Version(doc.version)))
        }
    }
}

fn write(
    store: &dyn Store,
    wiki: &WikiId,
    stored: &Stored,
    expected: Expected,
    author: &str,
    comment: &str,
) -> Result<(), CollectionError> {
    let content = serde_json::to_string_pretty(stored)
        .map_err(|error| CollectionError::Corrupt(error.to_string()))?;
    store.save_document(
        &DocumentSave::new(document(wiki)?, content, author)
            .title("Semantic search collections")
            .hidden(true)
            .comment(comment)
            .expected(expected),
    )?;
    Ok(())
}

/// Defines collection `id` of `wiki` over `spaces`, each of which must hold a page.
pub fn create(
    store: &dyn Store,
    wiki: &WikiId,
    id: &str,
    spaces: &[String],
    author: &str,
) -> Result<Collection, CollectionError> {
    check_id(id)?;
    if id == wiki.as_str() {
        return Err(CollectionError::DefaultId(id.to_owned()));
    }
    if spaces.is_empty() || spaces.len() > MAX_SPACES {
        return Err(CollectionError::BadSpaces(format!(
            "a collection names 1 to {MAX_SPACES} spaces (--space S)"
        )));
    }
    let mut parsed = Vec::with_capacity(spaces.len());
    for space in spaces {
        let path = SpacePath::parse(space).map_err(|_| {
            CollectionError::BadSpaces(format!(
                "\"{space}\" is not a space (write it as Space or Space.Sub)"
            ))
        })?;
        if store.pages(wiki, Some(&path), true, 0, 1)?.is_empty() {
            let known: Vec<String> = store
                .top_level_spaces(wiki, true)?
                .into_iter()
                .map(|summary| summary.space.to_string())
                .collect();
            return Err(CollectionError::UnknownSpace {
                wiki: wiki.clone(),
                space: space.clone(),
                known: if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                },
            });
        }
        parsed.push(path.to_string());
    }
    parsed.sort();
    parsed.dedup();
    let (mut stored, expected) = read(store, wiki)?;
    if stored.collections.iter().any(|c| c.id == id) {
        return Err(CollectionError::Exists(id.to_owned()));
    }
    let collection = Collection {
        id: id.to_owned(),
        spaces: parsed,
    };
    stored.collections.push(collection.clone());
    stored.collections.sort_by(|a, b| a.id.cmp(&b.id));
    write(
        store,
        wiki,
        &stored,
        expected,
        author,
        &format!("Defined collection {id}"),
    )?;
    Ok(collection)
}

/// Deletes collection `id` of `wiki`.
pub fn delete(
    store: &dyn Store,
    wiki: &WikiId,
    id: &str,
    author: &str,
) -> Result<(), CollectionError> {
    let (mut stored, expected) = read(store, wiki)?;
    let before = stored.collections.len();
    stored.collections.retain(|c| c.id != id);
    if stored.collections.len() == before {
        return Err(CollectionError::Missing(id.to_owned()));
    }
    write(
        store,
        wiki,
        &stored,
        expected,
        author,
        &format!("Deleted collection {id}"),
    )
}

fn check_id(id: &str) -> Result<(), CollectionError> {
    let valid = !id.is_empty()
        && id.len() <= MAX_ID
        && id
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
    if valid {
        Ok(())
    } else {
        Err(CollectionError::BadId)
    }
}

/// Whether a row of `reference` is in a collection covering `spaces` (`None`: the whole wiki).
pub fn covers(spaces: Option<&[SpacePath]>, reference: &DocumentReference) -> bool {
    spaces.is_none_or(|spaces| spaces.iter().any(|space| space.contains(reference.space())))
}
