//! The SQLite implementation of [`crate::TokenStore`].

use crate::api::TokenStore;
use crate::sqlite::SqliteStore;

impl TokenStore for SqliteStore {}
