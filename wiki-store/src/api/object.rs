//! Structured data: classes defined by documents, and objects of those classes on documents.

use crate::Result;
use crate::model::class::ClassDefinition;
use crate::model::document::SaveOutcome;
use crate::model::object::{
    ClassChange, ClassUsage, ObjectDelete, ObjectPage, ObjectRecord, ObjectWrite,
    ObjectWriteOutcome,
};
use crate::model::wiki::WikiId;
use crate::objects::query::ObjectQuery;
use crate::reference::DocumentReference;

/// Structured data: classes defined by documents, and objects of those classes on documents.
///
/// Class, object and field writes save the owning document (a new version, with the writer as
/// author and the comment in its history) under the same compare-and-set as a content save, in
/// one transaction. Everything is checked (class, fields, values) before anything is written.
/// A write that would change nothing (an object update to the values it holds, a modification
/// leaving a field as it is) writes nothing, emits no event and reports the document
/// [`SaveOutcome::Unchanged`]; a stale compare-and-set is still refused.
/// The MCP configuration class ([`crate::model::mcp_config::MCP_CONFIG_CLASS`]) is reserved:
/// these calls refuse it, only [`crate::ConfigStore`] writes it.
pub trait ObjectStore {
    /// The class defined by `class_document`, disabled (removed) fields included; `None` if the
    /// document defines no field.
    fn class(&self, class_document: &DocumentReference) -> Result<Option<ClassDefinition>>;

    /// Adds, modifies or removes (hides, reversibly) a field. The first addition creates the class
    /// document if needed.
    fn change_class(&self, change: &ClassChange) -> Result<SaveOutcome>;

    /// Classes with at least one object in `wiki`, with their object counts, by name (at most
    /// [`crate::objects::query::SCAN_CEILING`] classes).
    fn class_usage(&self, wiki: &WikiId) -> Result<Vec<ClassUsage>>;

    /// Every object on a document, by class then number, with the values of enabled fields
    /// (Password values masked; no values when the class no longer exists).
    fn objects(&self, reference: &DocumentReference) -> Result<Vec<ObjectRecord>>;

    /// Creates an object (next number of its class on the document) or updates one; creates the
    /// document (empty) if it does not exist.
    fn write_object(&self, write: &ObjectWrite) -> Result<ObjectWriteOutcome>;

    /// Writes several objects in one transaction, all or nothing (generators, imports).
    fn write_objects(&self, writes: &[ObjectWrite]) -> Result<Vec<ObjectWriteOutcome>>;

    /// Deletes one object (a minor version of its document); other objects keep their numbers.
    fn delete_object(&self, delete: &ObjectDelete) -> Result<SaveOutcome>;

    /// Objects of a class in `wiki` matching `query`, in its order. Each candidate's document goes
    /// through `authorize` BEFORE it is counted or paged, so `total` and the page only ever
    /// reflect documents the caller may see (a database count would leak the rest). At most
    /// [`crate::objects::query::SCAN_CEILING`] candidates are examined (`truncated` past it).
    /// `authorize` must not call the store (use a rights snapshot): it runs while a read
    /// connection is held.
    fn query_objects(
        &self,
        wiki: &WikiId,
        query: &ObjectQuery,
        offset: usize,
        limit: usize,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<ObjectPage>;
}
