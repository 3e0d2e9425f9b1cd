//! Attachments of documents: versioned bytes with a sniffed and a declared mime type.

/// Attachments of documents: versioned bytes with a sniffed and a declared mime type.
pub trait AttachmentStore {}
