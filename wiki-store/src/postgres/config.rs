//! The PostgreSQL implementation of [`crate::ConfigStore`]: the statements behind
//! [`crate::flow::config`].

use std::collections::BTreeMap;

use crate::Result;
use crate::api::ConfigStore;
use crate::flow::config::{self, ConfigReads, ConfigRows};
use crate::model::class::ClassDefinition;
use crate::model::document::SaveOutcome;
use crate::model::mcp_config::McpConfig;
use crate::model::object::FieldValue;
use crate::model::wiki::WikiId;
use crate::plan::config::or_fail_closed;
use crate::postgres::PostgresStore;
use crate::postgres::convert::RowExt;
use crate::postgres::documents::{default_row_id, wiki_exists};
use crate::postgres::objects::read_values;
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::reference::DocumentReference;
use crate::stored::object_number;

impl ConfigStore for PostgresStore {
    fn mcp_config(&self, wiki: &WikiId) -> McpConfig {
        or_fail_closed(wiki, self.snapshot(|conn| config::read(conn, wiki)))
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
        self.query_one(
            "SELECT min(number) FROM objects WHERE document_id = $1 AND class = $2",
            &[&document_id, &class],
        )?
        .col::<Option<i64>>(0)?
        .map(object_number)
        .transpose()
    }
}

impl ConfigReads for Conn {
    fn wiki_exists(&mut self, wiki: &WikiId) -> Result<bool> {
        wiki_exists(self, wiki.as_str())
    }

    fn default_row_id(&mut self, reference: &DocumentReference) -> Result<Option<i64>> {
        default_row_id(self, reference)
    }

    fn first_object_id(&mut self, document_id: i64, class: &str) -> Result<Option<i64>> {
        self.query_opt(
            "SELECT id FROM objects WHERE document_id = $1 AND class = $2 ORDER BY number LIMIT 1",
            &[&document_id, &class],
        )?
        .map(|row| row.col(0))
        .transpose()
    }

    fn object_values(
        &mut self,
        object_id: i64,
        class: &ClassDefinition,
    ) -> Result<BTreeMap<String, FieldValue>> {
        read_values(self, object_id, Some(class))
    }
}
