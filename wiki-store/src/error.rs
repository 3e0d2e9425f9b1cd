//! The one error type of the crate.
//!
//! Messages are for logs and operators (lowercase, no final period, as in std). Agent-facing wording
//! belongs to the tools, which match on the variants; [`StoreError::Backend`] in particular carries
//! the database's own error as its source and must never be shown to an agent.

use crate::model::locale::LocaleError;
use crate::model::version::Version;
use crate::reference::ReferenceError;

/// Everything a store operation can refuse or fail with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The addressed entity does not exist.
    #[error("{entity} not found: {key}")]
    NotFound {
        /// What kind of thing was looked up.
        entity: Entity,
        /// The key it was looked up by, as the caller gave it.
        key: String,
    },
    /// The entity already exists and the operation creates one.
    #[error("{entity} already exists: {key}")]
    AlreadyExists {
        /// What kind of thing already exists.
        entity: Entity,
        /// Its key.
        key: String,
    },
    /// A compare-and-set on a version failed: someone else saved first. `None` means "absent".
    #[error("version conflict: expected {}, found {}", show(.expected), show(.actual))]
    VersionConflict {
        /// The version the caller based its change on (`None`: it expected no such row).
        expected: Option<Version>,
        /// The version actually stored (`None`: there is no such row).
        actual: Option<Version>,
    },
    /// A reference could not be parsed.
    #[error("invalid reference")]
    InvalidReference(#[from] ReferenceError),
    /// A locale could not be parsed or is not storable.
    #[error("invalid locale")]
    InvalidLocale(#[from] LocaleError),
    /// Input refused by validation, before anything was written.
    #[error("invalid input: {0}")]
    Invalid(#[from] InvalidInput),
    /// A value exceeds a configured size limit; nothing was written.
    #[error("{field} too large: {actual} exceeds the limit of {limit}")]
    TooLarge {
        /// Which value is too large.
        field: Field,
        /// The configured limit (characters for text, bytes for binary data).
        limit: usize,
        /// The size that was offered.
        actual: usize,
    },
    /// The database was written by a newer version of this program; it is left untouched.
    #[error("database schema version {found} is newer than the supported {supported}")]
    SchemaTooNew {
        /// The schema version found in the file.
        found: u32,
        /// The newest schema version this build knows.
        supported: u32,
    },
    /// A file or directory could not be read (imports).
    #[error("cannot read {}", .path.display())]
    Io {
        /// The file or directory.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The database cannot be reached right now: the server is down or restarting, the
    /// connection broke, or no pooled connection came free in time. Transient: nothing was
    /// written (or, for a connection lost while committing, the write may or may not have
    /// landed, as after any network failure), and the same call may succeed later. A server
    /// answers 503 while it lasts. The source is for logs only.
    #[error("the database is unavailable")]
    Unavailable(#[source] Box<dyn std::error::Error + Send + Sync + 'static>),
    /// A write kept colliding with concurrent writers (serialization failures, deadlocks, a
    /// creation racing another) and was given up after the store's bounded retries; nothing was
    /// written. Retrying the whole operation later is safe.
    #[error(
        "the write was given up after {attempts} attempts: concurrent writers kept conflicting"
    )]
    ConcurrentSave {
        /// How many times the write was attempted.
        attempts: u32,
    },
    /// The operation was stopped by its caller ([`crate::interrupt::Interrupter::interrupt`]:
    /// the request it served was cancelled or timed out). Nothing of a write was committed.
    #[error("the operation was interrupted by its caller")]
    Interrupted,
    /// The storage backend failed. The source is for logs only, never for agents.
    #[error("storage backend failed")]
    Backend(#[source] Box<dyn std::error::Error + Send + Sync + 'static>),
}

fn show(version: &Option<Version>) -> String {
    match version {
        Some(v) => v.to_string(),
        None => "no document".to_owned(),
    }
}

/// The kinds of entity a [`StoreError::NotFound`] or [`StoreError::AlreadyExists`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Entity {
    /// A wiki of the farm.
    Wiki,
    /// A document (any locale row).
    Document,
    /// A translation row of a document.
    Translation,
    /// A revision of a document row.
    Revision,
    /// A user.
    User,
    /// A group.
    Group,
    /// An API token.
    Token,
    /// An attachment.
    Attachment,
    /// A class (structured data).
    Class,
    /// An object (structured data).
    Object,
    /// A recycle bin entry.
    TrashEntry,
    /// A rights rule.
    Right,
    /// A group membership.
    Membership,
    /// A class field.
    Field,
    /// The link of an identity at an issuer to a user.
    IdentityLink,
}

impl std::fmt::Display for Entity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Entity::Wiki => "wiki",
            Entity::Document => "document",
            Entity::Translation => "translation",
            Entity::Revision => "revision",
            Entity::User => "user",
            Entity::Group => "group",
            Entity::Token => "token",
            Entity::Attachment => "attachment",
            Entity::Class => "class",
            Entity::Object => "object",
            Entity::TrashEntry => "recycle bin entry",
            Entity::Right => "rights rule",
            Entity::Membership => "group membership",
            Entity::Field => "class field",
            Entity::IdentityLink => "identity link",
        })
    }
}

/// The values a [`StoreError::TooLarge`] can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// Document content.
    Content,
    /// Document title.
    Title,
    /// Version comment.
    Comment,
    /// Author or user name.
    Author,
    /// Wiki pretty name.
    PrettyName,
    /// Attachment bytes.
    Attachment,
    /// An object field value.
    FieldValue,
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Field::Content => "content",
            Field::Title => "title",
            Field::Comment => "comment",
            Field::Author => "author",
            Field::PrettyName => "pretty name",
            Field::Attachment => "attachment",
            Field::FieldValue => "field value",
        })
    }
}

/// Input refused by validation. Each variant is safe to describe to the caller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidInput {
    /// A wiki id does not follow the grammar `[a-z0-9][a-z0-9_-]{0,63}`.
    #[error("invalid wiki id")]
    WikiId,
    /// The main wiki cannot be deleted.
    #[error("the main wiki cannot be deleted")]
    DeleteMainWiki,
    /// A translation can only be added to a document whose default row exists.
    #[error("a translation needs an existing default document")]
    TranslationWithoutDefault,
    /// A text value contains a NUL character, which no backend stores faithfully.
    #[error("{0} contains a NUL character")]
    NulCharacter(Field),
    /// An author or user name is empty.
    #[error("author is empty")]
    EmptyAuthor,
    /// A syntax id is empty or not of the form `name/version`.
    #[error("invalid syntax id")]
    SyntaxId,
    /// A paging or range argument is out of range.
    #[error("invalid range")]
    Range,
    /// A keyword (right, effect, filter operator, field type, space filter mode) is not one of
    /// the accepted ones.
    #[error("{what} must be one of: {expected}")]
    Keyword {
        /// What the keyword names.
        what: &'static str,
        /// The accepted keywords, comma-separated.
        expected: &'static str,
    },
    /// A name (user, group, attachment, class field) breaks its grammar.
    #[error("invalid {what}: {reason}")]
    Name {
        /// What kind of name.
        what: &'static str,
        /// Which rule it breaks.
        reason: String,
    },
    /// The guest user is built in: it cannot be created, deleted or given a token.
    #[error("the guest user is built in")]
    GuestIsBuiltIn,
    /// A class field type does not take this attribute.
    #[error("{field_type} fields do not take the attribute {attribute}")]
    FieldAttribute {
        /// The field type.
        field_type: String,
        /// The refused attribute.
        attribute: String,
        /// The attributes the type accepts (possibly none).
        accepted: &'static [&'static str],
    },
    /// A class field attribute has a malformed value.
    #[error("the attribute {attribute} expects {expected}")]
    AttributeValue {
        /// The attribute.
        attribute: &'static str,
        /// What it accepts.
        expected: &'static str,
    },
    /// A class has no enabled field of this name.
    #[error("class {class} has no field {field}")]
    UnknownField {
        /// The class.
        class: String,
        /// The unknown field.
        field: String,
        /// The enabled fields, in order.
        known: Vec<String>,
    },
    /// A value does not fit its field's type.
    #[error("field {field} expects {expected}")]
    FieldValue {
        /// The field.
        field: String,
        /// What it accepts.
        expected: String,
    },
    /// A value breaks its field's validation rule (a [`crate::model::rules::Validation`]).
    #[error("field {field} does not match its validation pattern")]
    FieldRule {
        /// The field.
        field: String,
        /// The pattern it must match.
        regexp: String,
        /// The class author's explanation, if any.
        message: Option<String>,
    },
    /// An object query is malformed (filter syntax, operator on the wrong type, too many filters).
    #[error("invalid object query: {reason}")]
    Query {
        /// What is wrong.
        reason: String,
    },
    /// The document holds the MCP configuration or its class: deleting it would reset or disable a
    /// wiki's endpoint, so the recycle bin refuses it (set the configuration instead).
    #[error("the document {document} is reserved")]
    ReservedDocument {
        /// The document's local reference.
        document: String,
    },
    /// The class is reserved to the store (the MCP configuration): generic object writes refuse it.
    #[error("the class {class} is reserved")]
    ReservedClass {
        /// The class.
        class: String,
    },
    /// A database URL does not parse or names an unsupported setting.
    #[error("invalid database URL: {reason}")]
    DatabaseUrl {
        /// What is wrong with it (never the password).
        reason: String,
    },
    /// A farm secret's name or proposed value breaks its rules.
    #[error("invalid farm secret: {reason}")]
    FarmSecret {
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// A vector index's name or a row's entries break their rules.
    #[error("invalid vector index entry: {reason}")]
    VectorIndex {
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// An identity's issuer or subject, or an adoption's lifetime, breaks its rules.
    #[error("invalid identity: {reason}")]
    Identity {
        /// Which rule it breaks.
        reason: &'static str,
    },
    /// A token's scope breaks its rules (an empty tool or wiki list, an expiry in the past).
    #[error("invalid token scope: {reason}")]
    TokenScope {
        /// Which rule it breaks.
        reason: String,
    },
    /// A lease's name, holder or time to live breaks its rules.
    #[error("invalid lease: {reason}")]
    Lease {
        /// Which rule it breaks.
        reason: &'static str,
    },
}

impl StoreError {
    /// Wraps a backend failure, keeping it as the source for logs.
    pub fn backend(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        StoreError::Backend(Box::new(error))
    }

    /// Wraps the reason the database cannot be reached, keeping it as the source for logs.
    pub fn unavailable(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        StoreError::Unavailable(Box::new(error))
    }

    /// Whether the failure is transient (the database unreachable, or a write given up to
    /// concurrent writers): the same call may succeed later, and a server answers 503.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            StoreError::Unavailable(_) | StoreError::ConcurrentSave { .. }
        )
    }

    /// A [`StoreError::NotFound`] for `entity` looked up by `key`.
    pub fn not_found(entity: Entity, key: impl std::fmt::Display) -> Self {
        StoreError::NotFound {
            entity,
            key: key.to_string(),
        }
    }
}
