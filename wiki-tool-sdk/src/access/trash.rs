//! The recycle-bin door: what the bin holds of the pages the caller may view.
//!
//! A deleted page keeps its reference, and rights are decided on references, so the bin is
//! authorized like any row: the reach gate, the space filter, then view ([`Doors::row_visible`]).
//! An entry of a page the caller may not view is never shown, counted or hinted at, so a tool
//! answers for such a page exactly as for one that never existed. Every read is bounded: a
//! page's own entries are read a few at a time, and a listing examines at most
//! [`EXAMINED_CEILING`] entries, whose count it then gives as "at least".

use std::collections::HashMap;

use mcp_runtime::prelude::{ScanSignals, ToolError};
use wiki_store::model::trash::{TrashEntry, TrashId, TrashQuery};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::{DocumentReference, SpacePath};

use super::{AuthorizedReference, Doors, store_failure};

/// How many of one page's entries are read to find its last deletion: a page only gains
/// entries while it exists, so the newest entry of a missing page is its deletion, and the
/// few after it cover a restore racing the read.
const PAGE_ENTRIES: usize = 8;

/// The most bin entries a listing examines (authorizing each) before it stops counting.
pub const EXAMINED_CEILING: usize = 5000;

/// How many entries a listing reads per store call.
const BATCH: usize = 500;

/// One page of the bin entries a caller may view ([`Doors::trash`]).
#[derive(Debug, Clone)]
pub struct TrashPage {
    /// The entries of the page, newest first.
    pub entries: Vec<TrashEntry>,
    /// How many entries the caller may view, counted over at most [`EXAMINED_CEILING`].
    pub total: usize,
    /// Whether the count stopped at the ceiling (there may be more).
    pub truncated: bool,
}

impl Doors {
    /// The last deletion of the whole document `authorized` names, when it is in the bin (its
    /// attachments' own deletions aside): what a reading tool says instead of "no such
    /// document". `authorized` passed the document door, so the caller may view the page.
    pub async fn deleted_document(
        &self,
        authorized: &AuthorizedReference,
    ) -> Result<Option<TrashEntry>, ToolError> {
        let mut found = self
            .bin_entries_of(vec![authorized.reference().clone()])
            .await?;
        Ok(found
            .remove(authorized.reference())
            .and_then(|entries| entries.into_iter().find(|e| e.attachment.is_none())))
    }

    /// The newest bin entries (a few, newest first: the page's own deletions and its
    /// attachments') of each page in `references` that the caller may view and the bin holds
    /// something of: what became of a page's link targets. A page the caller may not view is
    /// left out, as if nothing of it had ever been deleted.
    pub async fn bin_entries_of(
        &self,
        references: Vec<DocumentReference>,
    ) -> Result<HashMap<DocumentReference, Vec<TrashEntry>>, ToolError> {
        let visible: Vec<DocumentReference> = references
            .into_iter()
            .filter(|reference| self.row_visible(reference))
            .collect();
        if visible.is_empty() {
            return Ok(HashMap::new());
        }
        self.with_store(move |store| {
            let mut found = HashMap::new();
            for reference in visible {
                let entries =
                    store.trash_entries(&TrashQuery::document(&reference, PAGE_ENTRIES))?;
                if !entries.is_empty() {
                    found.insert(reference, entries);
                }
            }
            Ok(found)
        })
        .await?
        .map_err(|error| store_failure("read the recycle bin", &error))
    }

    /// Bin entry `id` of the document `authorized` names (the document's own deletion or one
    /// of its attachments'), or `None` when the bin holds no such entry of that page.
    pub async fn trash_entry(
        &self,
        authorized: &AuthorizedReference,
        id: TrashId,
    ) -> Result<Option<TrashEntry>, ToolError> {
        let Some(after) = id.0.checked_add(1) else {
            return Ok(None);
        };
        let query = TrashQuery::document(authorized.reference(), 1).before(TrashId(after));
        let entries = self
            .with_store(move |store| store.trash_entries(&query))
            .await?
            .map_err(|error| store_failure("read the recycle bin", &error))?;
        Ok(entries.into_iter().find(|entry| entry.id == id))
    }

    /// One page (`offset`, `limit`) of the bin entries of `wiki` the caller may view, newest
    /// first, only those of pages in `space` or below it when given. Reach is checked first;
    /// each entry read goes through [`Doors::row_visible`] before it is counted, a step of
    /// `scan` each (progress, and the end of the scan once the call is cancelled).
    pub async fn trash(
        &self,
        wiki: WikiId,
        space: Option<SpacePath>,
        offset: usize,
        limit: usize,
        mut scan: ScanSignals,
    ) -> Result<TrashPage, ToolError> {
        self.check_reach(&wiki)?;
        let doors = self.clone();
        self.with_store(move |store| {
            let mut page = TrashPage {
                entries: Vec::new(),
                total: 0,
                truncated: false,
            };
            let mut examined = 0usize;
            let mut before: Option<TrashId> = None;
            loop {
                let mut query = TrashQuery::wiki(wiki.clone(), BATCH);
                if let Some(id) = before {
                    query = query.before(id);
                }
                let batch = store.trash_entries(&query)?;
                let mut exhausted_or_stopped = batch.len() < BATCH;
                for entry in batch {
                    before = Some(entry.id);
                    if examined == EXAMINED_CEILING {
                        page.truncated = true;
                        break;
                    }
                    examined += 1;
                    if !scan.step() {
                        // Cancelled: the call is answered without this scan.
                        exhausted_or_stopped = true;
                        break;
                    }
                    let in_space = space
                        .as_ref()
                        .is_none_or(|space| space.contains(entry.reference.space()));
                    if !(in_space && doors.row_visible(&entry.reference)) {
                        continue;
                    }
                    if page.total >= offset && page.entries.len() < limit {
                        page.entries.push(entry);
                    }
                    page.total += 1;
                }
                if exhausted_or_stopped || page.truncated {
                    break;
                }
            }
            scan.finish();
            Ok(page)
        })
        .await?
        .map_err(|error| store_failure("read the recycle bin", &error))
    }
}
