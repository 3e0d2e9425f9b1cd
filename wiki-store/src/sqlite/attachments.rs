//! The SQLite implementation of [`crate::AttachmentStore`].

use crate::api::AttachmentStore;
use crate::sqlite::SqliteStore;

impl AttachmentStore for SqliteStore {}
