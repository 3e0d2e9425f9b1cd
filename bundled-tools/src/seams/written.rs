//! What every write tool returns, structured ([`Written`]): the page it changed, what became of
//! it and its version before and after, so an agent can chain its next write (`base_version`)
//! without parsing the text. Only a write that went through the door builds one, so it never
//! describes a page the caller may not view.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::document::SaveOutcome;

/// A write tool's structured result.
#[mcp_output]
pub(crate) struct Written {
    /// The document written (`wiki:Space.Page`).
    pub(crate) reference: String,
    /// The translation written, or null for the document's default row.
    pub(crate) locale: Option<String>,
    /// What became of the document: `created`, `updated`, `unchanged` (nothing was saved),
    /// `deleted` (moved to the recycle bin) or `restored` (back from it).
    pub(crate) change: Change,
    /// The document's version after the write, to pass as the next `base_version`; for a
    /// deleted document, the version it was deleted at.
    pub(crate) version: String,
    /// Its version before the write, for an update; null otherwise.
    pub(crate) previous_version: Option<String>,
    /// The attachment written or deleted, by file name; null for other writes.
    pub(crate) attachment: Option<String>,
    /// The object written or deleted (its class and number); null for other writes.
    pub(crate) object: Option<WrittenObject>,
}

/// What became of the document a write touched.
#[mcp_output]
#[serde(rename_all = "snake_case")]
pub(crate) enum Change {
    /// It did not exist; it does now, at version 1.1.
    Created,
    /// It has a new version.
    Updated,
    /// It already held what was asked: nothing was saved.
    Unchanged,
    /// It was moved to the recycle bin.
    Deleted,
    /// It (or the attachment) came back from the recycle bin.
    Restored,
}

/// An object a write touched.
#[mcp_output]
pub(crate) struct WrittenObject {
    /// Its class, e.g. `Tasks.TaskClass`.
    pub(crate) class: String,
    /// Its number on the page.
    pub(crate) number: u32,
}

impl Written {
    /// The result of a save through `target` that ended in `outcome`.
    pub(crate) fn saved(target: &WriteTarget, outcome: &SaveOutcome) -> Self {
        let (change, version, previous) = match *outcome {
            SaveOutcome::Created { version } => (Change::Created, version, None),
            SaveOutcome::Updated { previous, version } => {
                (Change::Updated, version, Some(previous))
            }
            SaveOutcome::Unchanged { version } => (Change::Unchanged, version, None),
        };
        Self::new(target, change, version, previous)
    }

    /// The result of a write through `target` that saved nothing (`version` stays).
    pub(crate) fn unchanged(target: &WriteTarget, version: Version) -> Self {
        Self::new(target, Change::Unchanged, version, None)
    }

    /// The result of deleting `target`'s document, which was at `version`.
    pub(crate) fn deleted(target: &WriteTarget, version: Version) -> Self {
        Self::new(target, Change::Deleted, version, None)
    }

    /// The result of restoring `target`'s document (or one of its attachments), which is now
    /// at `version`.
    pub(crate) fn restored(target: &WriteTarget, version: Version) -> Self {
        Self::new(target, Change::Restored, version, None)
    }

    /// The same result, naming the attachment it wrote or deleted.
    pub(crate) fn attachment(mut self, name: &str) -> Self {
        self.attachment = Some(name.to_owned());
        self
    }

    /// The same result, naming the object it wrote or deleted.
    pub(crate) fn object(mut self, class: &str, number: u32) -> Self {
        self.object = Some(WrittenObject {
            class: class.to_owned(),
            number,
        });
        self
    }

    fn new(
        target: &WriteTarget,
        change: Change,
        version: Version,
        previous: Option<Version>,
    ) -> Self {
        Self {
            reference: target.reference().to_string(),
            locale: target.locale().map(ToString::to_string),
            change,
            version: version.to_string(),
            previous_version: previous.map(|version| version.to_string()),
            attachment: None,
            object: None,
        }
    }
}
