//! The SQLite implementation of [`crate::TrashStore`].

use crate::api::TrashStore;
use crate::sqlite::SqliteStore;

impl TrashStore for SqliteStore {}
