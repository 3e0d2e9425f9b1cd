//! What each shown link target is now: existing, missing or in the recycle bin, so checking a
//! page's links is one call instead of one read per target.
//!
//! Only targets the caller may view are looked up (the row door: reach, space filter, view); any
//! other reads as missing, exactly like a page that does not exist, so the marks say nothing of
//! pages the caller may not see. Only the targets of the page of the list being shown are
//! checked, so the work is bounded by `limit`.

use std::collections::{HashMap, HashSet};

use wiki_tool_sdk::access::{Doors, store_failure};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::trash::TrashEntry;

use super::output::Status;

/// The status of each of `documents`, and of each of `attachments` (document, file name), in
/// order.
pub(super) async fn check(
    doors: &Doors,
    documents: &[DocumentReference],
    attachments: &[(DocumentReference, String)],
) -> Result<(Vec<Status>, Vec<Status>), ToolError> {
    let pages: HashSet<DocumentReference> = documents
        .iter()
        .chain(attachments.iter().map(|(document, _)| document))
        .filter(|reference| doors.row_visible(reference))
        .cloned()
        .collect();
    let visible_attachments: Vec<(DocumentReference, String)> = attachments
        .iter()
        .filter(|(document, _)| pages.contains(document))
        .cloned()
        .collect();
    let lookup: Vec<DocumentReference> = pages.iter().cloned().collect();
    let (existing, files) = doors
        .blocking(move |store| {
            let mut existing = HashSet::new();
            for reference in lookup {
                if store.document_locales(&reference)?.is_some() {
                    existing.insert(reference);
                }
            }
            let mut files = HashSet::new();
            for (document, name) in visible_attachments {
                if existing.contains(&document) && store.attachment(&document, &name)?.is_some() {
                    files.insert((document, name));
                }
            }
            Ok::<_, StoreError>((existing, files))
        })
        .await?
        .map_err(|error| store_failure("check the link targets", &error))?;
    // The bin is asked only about what is not there.
    let absent: Vec<DocumentReference> = pages
        .iter()
        .filter(|reference| !existing.contains(*reference))
        .chain(
            attachments
                .iter()
                .filter(|(document, name)| {
                    existing.contains(document)
                        && !files.contains(&(document.clone(), name.clone()))
                })
                .map(|(document, _)| document),
        )
        .cloned()
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let bin = doors.bin_entries_of(absent).await?;
    let document_status = |reference: &DocumentReference| {
        if existing.contains(reference) {
            Status::Exists
        } else if last_deletion(&bin, reference).is_some() {
            Status::Deleted
        } else {
            Status::Missing
        }
    };
    let documents = documents.iter().map(document_status).collect();
    let attachments = attachments
        .iter()
        .map(|(document, name)| match document_status(document) {
            Status::Exists if files.contains(&(document.clone(), name.clone())) => Status::Exists,
            Status::Exists => {
                let deleted = bin.get(document).is_some_and(|entries| {
                    entries
                        .iter()
                        .any(|entry| entry.attachment.as_deref() == Some(name.as_str()))
                });
                if deleted {
                    Status::Deleted
                } else {
                    Status::Missing
                }
            }
            other => other,
        })
        .collect();
    Ok((documents, attachments))
}

/// The last deletion of the whole page `reference` among the entries read.
pub(super) fn last_deletion<'a>(
    bin: &'a HashMap<DocumentReference, Vec<TrashEntry>>,
    reference: &DocumentReference,
) -> Option<&'a TrashEntry> {
    bin.get(reference)?
        .iter()
        .find(|entry| entry.attachment.is_none())
}
