//! The SQLite implementation of [`crate::UserStore`].

use crate::api::UserStore;
use crate::sqlite::SqliteStore;

impl UserStore for SqliteStore {}
