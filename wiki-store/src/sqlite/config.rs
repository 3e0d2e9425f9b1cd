//! The SQLite implementation of [`crate::ConfigStore`]: the statements behind
//! [`crate::flow::config`].

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::api::ConfigStore;
use crate::flow::config::{self, ConfigReads, ConfigRows};
use crate::model::class::ClassDefinition;
use crate::model::document::SaveOutcome;
use crate::model::mcp_config::McpConfig;
use crate::model::object::FieldValue;
use crate::model::wiki::WikiId;
use crate::plan::config::or_fail_closed;
use crate::reference::DocumentReference;
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::documents::{default_row_id, wiki_exists};
use crate::sqlite::objects::read_values;
use crate::sqlite::write::WriteTx;
use crate::stored::corrupt;

impl ConfigStore for SqliteStore {
    fn mcp_config(&self, wiki: &WikiId) -> McpConfig {
        or_fail_closed(wiki, self.read(|mut conn| config::read(&mut conn, wiki)))
    }

    fn set_mcp_config(
        &self,
        wiki: &WikiId,
        config: &McpConfig,
        author: &str,
    ) -> Result<SaveOutcome> {
        let values = config::validate_set(wiki, config, author, &self.config().limits)?;
        let locale = &self.config().default_locale;
        self.write(|tx| config::set(tx, wiki, &values, author, locale))
    }
}

impl ConfigRows for WriteTx<'_> {
    fn first_object_number(&mut self, document_id: i64, class: &str) -> Result<Option<u32>> {
        let number: Option<i64> = self
            .prepare_cached("SELECT min(number) FROM objects WHERE document_id = ?1 AND class = ?2")
            .db()?
            .query_row(params![document_id, class], |row| row.get(0))
            .db()?;
        number
            .map(|n| u32::try_from(n).map_err(|_| corrupt("configuration object number")))
            .transpose()
    }
}

impl ConfigReads for &Connection {
    fn wiki_exists(&mut self, wiki: &WikiId) -> Result<bool> {
        wiki_exists(self, wiki)
    }

    fn default_row_id(&mut self, reference: &DocumentReference) -> Result<Option<i64>> {
        default_row_id(self, reference)
    }

    fn first_object_id(&mut self, document_id: i64, class: &str) -> Result<Option<i64>> {
        self.prepare_cached(
            "SELECT id FROM objects WHERE document_id = ?1 AND class = ?2 ORDER BY number LIMIT 1",
        )
        .db()?
        .query_row(params![document_id, class], |row| row.get(0))
        .optional()
        .db()
    }

    fn object_values(
        &mut self,
        object_id: i64,
        class: &ClassDefinition,
    ) -> Result<BTreeMap<String, FieldValue>> {
        read_values(self, object_id, Some(class))
    }
}
