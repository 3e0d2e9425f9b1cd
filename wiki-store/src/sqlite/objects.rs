//! The SQLite implementation of [`crate::ObjectStore`].

use crate::api::ObjectStore;
use crate::sqlite::SqliteStore;

impl ObjectStore for SqliteStore {}
