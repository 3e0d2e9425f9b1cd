//! The SQLite implementation of [`crate::ConfigStore`]: the configuration is an ordinary object
//! of the reserved configuration class, written and read through the objects code.

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::api::ConfigStore;
use crate::flow::objects::write_object;
use crate::flow::owner;
use crate::model::class::ClassDefinition;
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
use crate::reference::DocumentReference;
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::documents::default_row_id;
use crate::sqlite::objects::{load_class, read_values};
use crate::sqlite::write::WriteTx;
use crate::stored::{attributes_json, corrupt};

impl ConfigStore for SqliteStore {
    fn mcp_config(&self, wiki: &WikiId) -> McpConfig {
        or_fail_closed(wiki, self.read(|conn| read_config(conn, wiki)))
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
            let number = config_object_number(tx, &document)?;
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
    let missing = missing_fields(load_class(tx, class_document)?.as_ref());
    if missing.is_empty() {
        return Ok(false);
    }
    let (document_id, _) = owner::touch(tx, &class_touch(class_document, author), locale)?;
    let mut upsert = tx
        .prepare_cached(
            "INSERT INTO class_fields (document_id, name, position, field_type, pretty_name, attributes, disabled) \
             VALUES (?1, ?2, (SELECT coalesce(max(position), -1) + 1 FROM class_fields WHERE document_id = ?1), \
             ?3, NULL, ?4, 0) \
             ON CONFLICT (document_id, name) DO UPDATE SET field_type = excluded.field_type, \
             attributes = excluded.attributes, disabled = 0",
        )
        .db()?;
    for (name, field_type) in missing {
        upsert
            .execute(params![
                document_id,
                name,
                field_type.name(),
                attributes_json(&field_type, &FieldRules::default())?
            ])
            .db()?;
    }
    Ok(true)
}

/// The number of the configuration object on the document, if there is one (the lowest).
fn config_object_number(conn: &Connection, document: &DocumentReference) -> Result<Option<u32>> {
    let Some(document_id) = default_row_id(conn, document)? else {
        return Ok(None);
    };
    let number: Option<i64> = conn
        .prepare_cached("SELECT min(number) FROM objects WHERE document_id = ?1 AND class = ?2")
        .db()?
        .query_row(params![document_id, MCP_CONFIG_CLASS], |row| row.get(0))
        .db()?;
    number
        .map(|n| u32::try_from(n).map_err(|_| corrupt("configuration object number")))
        .transpose()
}

/// Reads the configuration; an `Err` means "unreadable" and the caller fails closed.
fn read_config(conn: &Connection, wiki: &WikiId) -> Result<McpConfig> {
    let wiki_exists = conn
        .prepare_cached("SELECT 1 FROM wikis WHERE id = ?1")
        .db()?
        .query_row([wiki.as_str()], |_| Ok(()))
        .optional()
        .db()?
        .is_some();
    if !wiki_exists {
        return Err(unknown_wiki(wiki));
    }
    let document = reference_in(wiki, MCP_CONFIG_DOCUMENT)?;
    let Some(document_id) = default_row_id(conn, &document)? else {
        return config_read(None);
    };
    let object_id: Option<i64> = conn
        .prepare_cached(
            "SELECT id FROM objects WHERE document_id = ?1 AND class = ?2 ORDER BY number LIMIT 1",
        )
        .db()?
        .query_row(params![document_id, MCP_CONFIG_CLASS], |row| row.get(0))
        .optional()
        .db()?;
    let Some(object_id) = object_id else {
        return config_read(None);
    };
    let class: ClassDefinition = load_class(conn, &reference_in(wiki, MCP_CONFIG_CLASS)?)?
        .ok_or_else(|| corrupt("configuration object without its class"))?;
    config_read(Some(&read_values(conn, object_id, Some(&class))?))
}
