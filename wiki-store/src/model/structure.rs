//! What a revision recorded of its document's structured part (objects and attachments), and
//! how two such records differ.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::version::Version;

/// The objects and attachments of a document just after one of its revisions was saved, as the
/// revision recorded them. Kept as JSON beside the revision (the `structure` column).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Structure {
    /// Every object, ordered by class then number.
    pub objects: Vec<ObjectState>,
    /// Every attachment's current version, ordered by name.
    pub attachments: Vec<AttachmentState>,
}

/// One object as a revision recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectState {
    /// The class (wiki-local name of the class document).
    pub class: String,
    /// The object number.
    pub number: u32,
    /// Each set field's value as text (lists joined with `|`, dates in RFC 3339).
    pub values: BTreeMap<String, String>,
    /// Each set Password field's fingerprint: a digest of the sealed value, enough to tell that
    /// it changed and never enough to show what it is.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub secrets: BTreeMap<String, String>,
}

/// One attachment as a revision recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachmentState {
    /// The file name.
    pub name: String,
    /// The attachment's own version.
    #[serde(with = "version_text")]
    pub version: Version,
    /// The size in bytes.
    pub size: u64,
}

/// How two revisions' structured parts compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StructureComparison {
    /// The row is a translation: objects and attachments belong to the default row.
    NotApplicable,
    /// These revisions (of the two compared) were saved before revisions recorded objects and
    /// attachments: nothing can be said about those.
    Unrecorded(Vec<Version>),
    /// Both sides were recorded; the changes, empty when the structured parts are the same.
    Compared(Vec<StructureChange>),
}

/// One change to the structured part between two revisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StructureChange {
    /// An object that only the newer revision has.
    ObjectAdded {
        /// Its class.
        class: String,
        /// Its number.
        number: u32,
        /// Its values (Password fields listed with no value).
        values: Vec<FieldChange>,
    },
    /// An object that only the older revision has.
    ObjectRemoved {
        /// Its class.
        class: String,
        /// Its number.
        number: u32,
    },
    /// An object both have, with different values.
    ObjectChanged {
        /// Its class.
        class: String,
        /// Its number.
        number: u32,
        /// The fields that differ.
        fields: Vec<FieldChange>,
    },
    /// An attachment that only the newer revision has.
    AttachmentAdded {
        /// Its name.
        name: String,
        /// Its size in bytes.
        size: u64,
        /// Its version.
        version: Version,
    },
    /// An attachment both have, at different versions.
    AttachmentReplaced {
        /// Its name.
        name: String,
        /// The older version and size.
        old: (Version, u64),
        /// The newer version and size.
        new: (Version, u64),
    },
    /// An attachment that only the older revision has.
    AttachmentRemoved {
        /// Its name.
        name: String,
        /// Its size in bytes, then.
        size: u64,
        /// Its version, then.
        version: Version,
    },
}

/// One field of an object that differs between two revisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldChange {
    /// The field name.
    pub field: String,
    /// What changed.
    pub change: ValueChange,
}

/// What happened to a field's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueChange {
    /// A readable value changed (`None`: not set on that side).
    Value {
        /// The older value.
        old: Option<String>,
        /// The newer value.
        new: Option<String>,
    },
    /// A Password value was set, changed or cleared; what it is never appears.
    Secret,
}

/// A [`Version`] kept as its `major.minor` text.
mod version_text {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    use crate::model::version::Version;

    pub(super) fn serialize<S: Serializer>(version: &Version, to: S) -> Result<S::Ok, S::Error> {
        to.collect_str(version)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(from: D) -> Result<Version, D::Error> {
        let text = String::deserialize(from)?;
        text.parse()
            .map_err(|_| D::Error::custom("invalid attachment version"))
    }
}
