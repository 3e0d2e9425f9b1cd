//! The recycle bin: deleted documents (with translations and attachments) and attachments, restorable.

/// The recycle bin: deleted documents (with translations and attachments) and attachments, restorable.
pub trait TrashStore {}
