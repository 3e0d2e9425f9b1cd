//! Structured data: classes defined by documents, and objects of those classes on documents.

/// Structured data: classes defined by documents, and objects of those classes on documents.
pub trait ObjectStore {}
