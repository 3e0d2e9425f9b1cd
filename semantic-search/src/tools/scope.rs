//! Which collections a caller may query, and what a list of them covers.
//!
//! The endpoint's wiki offers its default collection (named by the wiki id) and its defined
//! ones (by their ids); with cross-wiki reach, every other wiki the caller may view offers its
//! default (`dev`) and its defined ones prefixed with the wiki (`dev:guides`). A wiki is
//! offered only when the caller may view it, a defined collection only when the caller may view
//! one of its spaces. Selected collections of one wiki merge into one scope: the whole wiki when
//! its default is among them, else the union of their spaces.

use std::collections::BTreeMap;

use wiki_tool_sdk::prelude::*;

use crate::collections::{self, Collection};

/// One collection the caller may query.
#[derive(Debug, Clone)]
pub(crate) struct Offered {
    /// The id to print and to pass back.
    pub(crate) id: String,
    /// Its wiki.
    pub(crate) wiki: WikiId,
    /// Its spaces; `None` for a default collection.
    pub(crate) spaces: Option<Vec<SpacePath>>,
}

/// What a search covers in one wiki: `None` for all of it, else these spaces.
pub(crate) type Scope = BTreeMap<WikiId, Option<Vec<SpacePath>>>;

/// The collections the caller of `ctx` may query, the endpoint's wiki first.
pub(crate) async fn offered(ctx: &ToolContext) -> Result<Vec<Offered>, ToolError> {
    let doors = ctx.doors()?;
    let here = doors.wiki().clone();
    let reach = doors.reach();
    let viewable: Vec<WikiId> = {
        let doors = doors.clone();
        ctx.store_call("list the collections", move |store| {
            let mut wikis = vec![here.clone()];
            if reach {
                let mut others: Vec<WikiId> = store
                    .list_wikis()?
                    .into_iter()
                    .map(|wiki| wiki.id)
                    .filter(|id| *id != here)
                    .collect();
                others.sort();
                wikis.extend(others);
            }
            Ok(wikis
                .into_iter()
                .filter(|wiki| doors.can_view_wiki(wiki))
                .collect())
        })
        .await?
    };
    let here = doors.wiki().clone();
    let doors = doors.clone();
    let defined: Vec<(WikiId, Vec<Collection>)> = ctx
        .store_call("list the collections", move |store| {
            let mut all = Vec::with_capacity(viewable.len());
            for wiki in viewable {
                // A wiki whose definitions do not parse still offers its default collection.
                let mut collections =
                    collections::defined_in(store, &wiki).unwrap_or_else(|error| {
                        tracing::warn!(wiki = %wiki, %error, "collection definitions unreadable");
                        Vec::new()
                    });
                // A collection is named only to a caller who may view one of its spaces: its
                // id and its existence say what those spaces are about.
                collections.retain(|collection| {
                    collection
                        .space_paths()
                        .iter()
                        .any(|space| doors.can_view_space(&wiki, space))
                });
                all.push((wiki, collections));
            }
            Ok(all)
        })
        .await?;
    let mut offered = Vec::new();
    for (wiki, collections) in defined {
        offered.push(Offered {
            id: wiki.to_string(),
            wiki: wiki.clone(),
            spaces: None,
        });
        for collection in collections {
            let id = if wiki == here {
                collection.id.clone()
            } else {
                format!("{wiki}:{}", collection.id)
            };
            offered.push(Offered {
                id,
                wiki: wiki.clone(),
                spaces: Some(collection.space_paths()),
            });
        }
    }
    Ok(offered)
}

/// The scope of the `requested` collections (all offered ones when `None`), or the error that
/// names an unknown id and lists the known ones.
pub(crate) fn scope(offered: &[Offered], requested: Option<&[String]>) -> Result<Scope, ToolError> {
    let chosen: Vec<&Offered> = match requested {
        None => offered.iter().collect(),
        Some([]) => offered.iter().collect(),
        Some(ids) => {
            let mut chosen = Vec::with_capacity(ids.len());
            for id in ids {
                let found = offered.iter().find(|o| o.id == *id).ok_or_else(|| {
                    let known: Vec<&str> = offered.iter().map(|o| o.id.as_str()).collect();
                    ToolError::new(format!(
                        "Error: no collection \"{}\" you may query. Collections: {}. Call \
                         list_collections to see them.",
                        wiki_tool_sdk::untrusted::fragment(id),
                        known.join(", ")
                    ))
                })?;
                chosen.push(found);
            }
            chosen
        }
    };
    let mut scope = Scope::new();
    for offered in chosen {
        let entry = scope
            .entry(offered.wiki.clone())
            .or_insert_with(|| Some(Vec::new()));
        match (&offered.spaces, entry.as_mut()) {
            (None, _) => *entry = None,
            (Some(spaces), Some(union)) => union.extend(spaces.iter().cloned()),
            (Some(_), None) => {}
        }
    }
    Ok(scope)
}
