//! The SQLite implementation of [`crate::ConfigStore`].

use crate::api::ConfigStore;
use crate::sqlite::SqliteStore;

impl ConfigStore for SqliteStore {}
