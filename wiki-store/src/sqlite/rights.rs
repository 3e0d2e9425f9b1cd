//! The SQLite implementation of [`crate::RightsStore`].

use crate::api::RightsStore;
use crate::sqlite::SqliteStore;

impl RightsStore for SqliteStore {}
