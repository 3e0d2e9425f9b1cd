//! What a revision records of its document's objects and attachments
//! ([`crate::structure`]), read as the writing transaction sees them.

use crate::Result;
use crate::flow::attachments::AttachmentReads;
use crate::flow::objects::{ClassCache, ObjectReads};
use crate::model::structure::Structure;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::structure::{attachment_states, object_state};

/// The objects (values read through their class; Password values as fingerprints) and
/// attachments of the default row `document_id` of `wiki`, as they stand now.
pub(crate) fn current<R: ObjectReads + AttachmentReads>(
    rows: &mut R,
    wiki: &WikiId,
    document_id: i64,
) -> Result<Structure> {
    let mut classes = ClassCache::default();
    let objects = rows
        .stored_objects(document_id)?
        .into_iter()
        .map(|(class, number, values)| {
            let definition = classes.get(wiki, &class, |class| rows.load_class(class))?;
            Ok(object_state(class, number, definition, values))
        })
        .collect::<Result<Vec<_>>>()?;
    let attachments = attachment_states(rows.current_attachments(document_id)?);
    Ok(Structure {
        objects,
        attachments,
    })
}

/// A saved revision of a default row: its wiki, the row's id and the revision's version.
pub(crate) type Revised = (WikiId, i64, Version);

/// The revisions of default rows a write transaction saved whose structure is not recorded
/// yet: each is recorded once final, just before the commit, or just before the same
/// transaction writes that row's next revision (the owner's touch inserts a revision before
/// the objects and attachments it is about change).
#[derive(Debug, Default)]
pub(crate) struct Unrecorded(Vec<Revised>);

impl Unrecorded {
    /// Default row `document_id` of `wiki` got revision `version`.
    pub(crate) fn revised(&mut self, wiki: WikiId, document_id: i64, version: Version) {
        self.0.push((wiki, document_id, version));
    }

    /// Default row `document_id` is about to get a new revision: the revisions of it to record
    /// now, as they stand.
    pub(crate) fn settle(&mut self, document_id: i64) -> Vec<Revised> {
        let (settled, rest) = std::mem::take(&mut self.0)
            .into_iter()
            .partition(|(_, id, _)| *id == document_id);
        self.0 = rest;
        settled
    }

    /// The transaction is about to commit: every revision left to record.
    pub(crate) fn take(&mut self) -> Vec<Revised> {
        std::mem::take(&mut self.0)
    }
}
