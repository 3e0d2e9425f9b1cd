//! The PostgreSQL implementation of [`crate::ConfigStore`]: the configuration is an ordinary
//! object of the reserved configuration class, written and read through the objects code.

use crate::Result;
use crate::api::ConfigStore;
use crate::flow::objects::write_object;
use crate::flow::owner::{self, OwnerRows};
use crate::model::document::SaveOutcome;
use crate::model::locale::Locale;
use crate::model::mcp_config::{MCP_CONFIG_CLASS, MCP_CONFIG_DOCUMENT, McpConfig};
use crate::model::rules::FieldRules;
use crate::model::wiki::WikiId;
use crate::plan::config::{
    class_touch, config_read, config_touch, config_values, missing_fields, or_fail_closed,
    reference_in,
};
use crate::plan::wiki::unknown_wiki;
use crate::postgres::PostgresStore;
use crate::postgres::convert::RowExt;
use crate::postgres::documents::{default_row_id, wiki_exists};
use crate::postgres::objects::{load_class, read_values, upsert_field};
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::reference::DocumentReference;
use crate::stored::{attributes_json, corrupt, object_number};

impl ConfigStore for PostgresStore {
    fn mcp_config(&self, wiki: &WikiId) -> McpConfig {
        or_fail_closed(wiki, self.snapshot(|conn| read_config(conn, wiki)))
    }

    fn set_mcp_config(
        &self,
        wiki: &WikiId,
        config: &McpConfig,
        author: &str,
    ) -> Result<SaveOutcome> {
        let values = config_values(config)?;
        let class_document = reference_in(wiki, MCP_CONFIG_CLASS)?;
        let document = reference_in(wiki, MCP_CONFIG_DOCUMENT)?;
        let touch = config_touch(&document, author);
        touch.validate(&self.config().limits)?;
        let locale = self.config().default_locale.clone();
        self.write(|tx| {
            let defined = ensure_config_class(tx, &class_document, author, &locale)?;
            // Locked before the object is looked up, so two first configurations of a wiki
            // cannot each add an object.
            let document_id = tx.lock_owner(&document)?;
            let number = match document_id {
                Some(document_id) => config_object_number(tx, document_id)?,
                None => None,
            };
            let outcome = write_object(tx, &touch, &class_document, number, &values, &locale)?;
            if !defined && matches!(outcome.document, SaveOutcome::Unchanged { .. }) {
                tx.nothing_changed();
            }
            Ok(outcome.document)
        })
    }
}

/// Defines (or completes) the configuration class in this wiki, as one save of its hidden
/// class document, when a field is missing. Whether it saved anything.
fn ensure_config_class(
    tx: &mut WriteTx<'_>,
    class_document: &DocumentReference,
    author: &str,
    locale: &Locale,
) -> Result<bool> {
    tx.lock_owner(class_document)?;
    let missing = missing_fields(load_class(tx, class_document, false)?.as_ref());
    if missing.is_empty() {
        return Ok(false);
    }
    let (document_id, _) = owner::touch(tx, &class_touch(class_document, author), locale)?;
    for (name, field_type) in missing {
        upsert_field(
            tx,
            document_id,
            name,
            field_type.name(),
            None,
            &attributes_json(&field_type, &FieldRules::default())?,
        )?;
    }
    Ok(true)
}

/// The number of the configuration object on the document, if there is one (the lowest).
fn config_object_number(conn: &mut Conn, document_id: i64) -> Result<Option<u32>> {
    conn.query_one(
        "SELECT min(number) FROM objects WHERE document_id = $1 AND class = $2",
        &[&document_id, &MCP_CONFIG_CLASS],
    )?
    .col::<Option<i64>>(0)?
    .map(object_number)
    .transpose()
}

/// Reads the configuration; an `Err` means "unreadable" and the caller fails closed.
fn read_config(conn: &mut Conn, wiki: &WikiId) -> Result<McpConfig> {
    if !wiki_exists(conn, wiki.as_str())? {
        return Err(unknown_wiki(wiki));
    }
    let document = reference_in(wiki, MCP_CONFIG_DOCUMENT)?;
    let Some(document_id) = default_row_id(conn, &document)? else {
        return config_read(None);
    };
    let object_id: Option<i64> = conn
        .query_opt(
            "SELECT id FROM objects WHERE document_id = $1 AND class = $2 ORDER BY number LIMIT 1",
            &[&document_id, &MCP_CONFIG_CLASS],
        )?
        .map(|row| row.col(0))
        .transpose()?;
    let Some(object_id) = object_id else {
        return config_read(None);
    };
    let class = load_class(conn, &reference_in(wiki, MCP_CONFIG_CLASS)?, false)?
        .ok_or_else(|| corrupt("configuration object without its class"))?;
    config_read(Some(&read_values(conn, object_id, Some(&class))?))
}
