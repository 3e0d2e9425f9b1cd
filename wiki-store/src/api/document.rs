//! Documents, translations and their history.

/// Reading and saving documents (every save a new version), their translations and history.
pub trait DocumentStore {}
