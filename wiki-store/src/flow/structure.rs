//! What a revision records of its document's objects and attachments
//! ([`crate::structure`]), read over [`StructureRows`] as the writing transaction sees them.

use crate::Result;
use crate::flow::objects::{ClassCache, ObjectReads, StoredObject};
use crate::model::attachment::AttachmentInfo;
use crate::model::structure::Structure;
use crate::model::wiki::WikiId;
use crate::structure::{attachment_states, object_state};

/// What recording a revision's structure reads (inside the write that saved the revision).
pub(crate) trait StructureRows: ObjectReads {
    /// The objects of the default row `document_id` with their stored values, in one read,
    /// ordered by class, number and field.
    fn objects_with_values(&mut self, document_id: i64) -> Result<Vec<StoredObject>>;

    /// The current version of each attachment of the default row `document_id`, by name.
    fn current_attachments(&mut self, document_id: i64) -> Result<Vec<AttachmentInfo>>;
}

/// The objects (values read through their class; Password values as fingerprints) and
/// attachments of the default row `document_id` of `wiki`, as they stand now.
pub(crate) fn current<R: StructureRows>(
    rows: &mut R,
    wiki: &WikiId,
    document_id: i64,
) -> Result<Structure> {
    let mut classes = ClassCache::default();
    let objects = rows
        .objects_with_values(document_id)?
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
