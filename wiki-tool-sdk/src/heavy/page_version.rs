//! [`PageVersion`]: the key of work done on one version of a document row, such as its rendering.

use time::OffsetDateTime;
use wiki_store::model::document::Document;
use wiki_store::model::locale::Locale;
use wiki_store::model::version::Version;
use wiki_store::reference::DocumentReference;

/// One version of one document row (wiki-qualified reference, translation, version, and when it
/// was saved): what it contains is fixed by these. The version alone is not enough: a page
/// deleted and created again starts at its first version with other content, and is saved at
/// another instant.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PageVersion {
    reference: DocumentReference,
    locale: Option<Locale>,
    version: Version,
    updated: OffsetDateTime,
}

impl PageVersion {
    /// The version `document` was read at.
    pub fn of(document: &Document) -> Self {
        Self {
            reference: document.reference.clone(),
            locale: document.locale.clone(),
            version: document.version,
            updated: document.updated,
        }
    }
}
