//! The SQLite implementation of [`crate::ConfigStore`]: the configuration is an ordinary object
//! of the reserved configuration class, written and read through the objects code.

use std::collections::BTreeMap;

use rusqlite::{Connection, OptionalExtension, params};

use crate::api::ConfigStore;
use crate::attachments::is_unsafe_text_char;
use crate::error::{Entity, InvalidInput};
use crate::model::class::{ClassDefinition, FieldType};
use crate::model::document::{Expected, SaveOutcome};
use crate::model::mcp_config::{MCP_CONFIG_CLASS, MCP_CONFIG_DOCUMENT, McpConfig, SpaceFilterMode};
use crate::model::object::FieldValue;
use crate::model::wiki::WikiId;
use crate::reference::DocumentReference;
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::{DbResultExt, corrupt};
use crate::sqlite::documents::default_row_id;
use crate::sqlite::objects::{load_class, read_values, write_object_in};
use crate::sqlite::owner::Touch;
use crate::sqlite::write::WriteTx;
use crate::{Result, StoreError};

/// The configuration class's fields, in order: (name, type).
fn config_fields() -> Vec<(&'static str, FieldType)> {
    let list = FieldType::StaticList {
        values: vec!["none".into(), "whitelist".into(), "blacklist".into()],
        multiselect: false,
    };
    vec![
        ("server_name", FieldType::String),
        ("description", FieldType::TextArea),
        ("enabled", FieldType::Boolean),
        ("enabled_tools", FieldType::TextArea),
        ("allow_rendered", FieldType::Boolean),
        ("space_filter_mode", list),
        ("space_filter_spaces", FieldType::TextArea),
        ("space_filter_documents", FieldType::TextArea),
        ("guest_access", FieldType::Boolean),
        ("reach_enabled_wikis", FieldType::TextArea),
        ("reach_initialized", FieldType::Boolean),
    ]
}

/// The longest server name and description, in characters.
const MAX_NAME: usize = 255;
const MAX_DESCRIPTION: usize = 10_000;

impl ConfigStore for SqliteStore {
    fn mcp_config(&self, wiki: &WikiId) -> McpConfig {
        match self.read(|conn| read_config(conn, wiki)) {
            Ok(config) => config,
            Err(error) => {
                tracing::warn!(wiki = %wiki, error = %error, "MCP configuration unreadable; failing closed");
                McpConfig::fail_closed()
            }
        }
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
        let touch = Touch {
            reference: &document,
            author,
            comment: "Updated MCP configuration",
            major: false,
            expected: Expected::Any,
            title: None,
            create: true,
            hidden_on_create: true,
        };
        touch.validate(&self.config().limits)?;
        let locale = self.config().default_locale.clone();
        self.write(|tx| {
            let defined = ensure_config_class(tx, &class_document, author, &locale)?;
            let number = config_object_number(tx, &document)?;
            let outcome = write_object_in(tx, &touch, &class_document, number, &values, &locale)?;
            if !defined && matches!(outcome.document, SaveOutcome::Unchanged { .. }) {
                tx.nothing_changed();
            }
            Ok(outcome.document)
        })
    }
}

fn reference_in(wiki: &WikiId, local: &str) -> Result<DocumentReference> {
    Ok(DocumentReference::parse(local, wiki)?)
}

/// Defines (or completes) the configuration class in this wiki, as one save of its hidden
/// class document, when a field is missing. Whether it saved anything.
fn ensure_config_class(
    tx: &mut WriteTx<'_>,
    class_document: &DocumentReference,
    author: &str,
    locale: &crate::model::locale::Locale,
) -> Result<bool> {
    let existing = load_class(tx, class_document)?;
    let missing: Vec<(&str, FieldType)> = config_fields()
        .into_iter()
        .filter(|(name, _)| {
            existing
                .as_ref()
                .and_then(|class| class.field(name))
                .is_none()
        })
        .collect();
    if missing.is_empty() {
        return Ok(false);
    }
    let touch = Touch {
        reference: class_document,
        author,
        comment: "Defined the MCP configuration class",
        major: false,
        expected: Expected::Any,
        title: None,
        create: true,
        hidden_on_create: true,
    };
    let touched = touch.apply(tx, locale)?;
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
        let attributes =
            serde_json::to_string(&field_type.attributes()).map_err(StoreError::backend)?;
        upsert
            .execute(params![touched.id, name, field_type.name(), attributes])
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
        return Err(StoreError::not_found(Entity::Wiki, wiki));
    }
    let document = reference_in(wiki, MCP_CONFIG_DOCUMENT)?;
    let Some(document_id) = default_row_id(conn, &document)? else {
        return Ok(McpConfig::default());
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
        return Ok(McpConfig::default());
    };
    let class: ClassDefinition = load_class(conn, &reference_in(wiki, MCP_CONFIG_CLASS)?)?
        .ok_or_else(|| corrupt("configuration object without its class"))?;
    let values = read_values(conn, object_id, Some(&class))?;
    config_from_values(&values)
}

/// Builds the configuration from stored values: an unset value takes its default, a value of
/// the wrong kind makes the whole read fail (and the caller fail closed).
fn config_from_values(values: &BTreeMap<String, FieldValue>) -> Result<McpConfig> {
    let defaults = McpConfig::default();
    let text = |name: &str| -> Result<Option<String>> {
        match values.get(name) {
            None => Ok(None),
            Some(FieldValue::Text(text)) => Ok(Some(text.clone()).filter(|t| !t.is_empty())),
            Some(_) => Err(corrupt("configuration text value")),
        }
    };
    let flag = |name: &str, default: bool| -> Result<bool> {
        match values.get(name) {
            None => Ok(default),
            Some(FieldValue::Boolean(flag)) => Ok(*flag),
            Some(_) => Err(corrupt("configuration boolean value")),
        }
    };
    let lines = |name: &str| -> Result<Vec<String>> {
        Ok(text(name)?.map(|t| split_lines(&t)).unwrap_or_default())
    };
    let space_filter_mode = match values.get("space_filter_mode") {
        None => SpaceFilterMode::None,
        Some(FieldValue::List(chosen)) => match chosen.as_slice() {
            [mode] => mode
                .parse()
                .map_err(|_| corrupt("configuration space filter mode"))?,
            _ => return Err(corrupt("configuration space filter mode")),
        },
        Some(_) => return Err(corrupt("configuration space filter mode")),
    };
    Ok(McpConfig {
        server_name: text("server_name")?,
        description: text("description")?,
        enabled: flag("enabled", defaults.enabled)?,
        enabled_tools: lines("enabled_tools")?,
        allow_rendered: flag("allow_rendered", defaults.allow_rendered)?,
        space_filter_mode,
        space_filter_spaces: lines("space_filter_spaces")?,
        space_filter_documents: lines("space_filter_documents")?,
        guest_access: flag("guest_access", defaults.guest_access)?,
        reach_enabled_wikis: lines("reach_enabled_wikis")?,
        reach_initialized: flag("reach_initialized", defaults.reach_initialized)?,
    })
}

fn split_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Checks a configuration and turns it into the object's text values.
fn config_values(config: &McpConfig) -> Result<BTreeMap<String, String>> {
    let refuse = |what: &'static str, reason: &str| -> StoreError {
        InvalidInput::Name {
            what,
            reason: reason.to_owned(),
        }
        .into()
    };
    if config.space_filter_mode == SpaceFilterMode::DenyAll {
        return Err(InvalidInput::Keyword {
            what: "space filter mode",
            expected: "none, whitelist, blacklist",
        }
        .into());
    }
    let server_name = config.server_name.clone().unwrap_or_default();
    if server_name.chars().count() > MAX_NAME || server_name.chars().any(is_unsafe_text_char) {
        return Err(refuse(
            "server name",
            "at most 255 characters, without control characters",
        ));
    }
    let description = config.description.clone().unwrap_or_default();
    if description.chars().count() > MAX_DESCRIPTION
        || description
            .chars()
            .any(|c| is_unsafe_text_char(c) && c != '\n' && c != '\t')
    {
        return Err(refuse(
            "server description",
            "at most 10000 characters, without control characters",
        ));
    }
    for tool in &config.enabled_tools {
        let valid = !tool.is_empty()
            && tool.len() <= 64
            && tool
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !valid {
            return Err(refuse("tool id", "tool ids match [a-zA-Z0-9_-]{1,64}"));
        }
    }
    for entry in config
        .space_filter_spaces
        .iter()
        .chain(&config.space_filter_documents)
    {
        if entry.trim().is_empty() || entry.chars().any(is_unsafe_text_char) || entry.len() > 1024 {
            return Err(refuse(
                "space filter entry",
                "a non-empty reference without control characters",
            ));
        }
    }
    for wiki in &config.reach_enabled_wikis {
        WikiId::new(wiki)?;
    }
    let boolean = |flag: bool| flag.to_string();
    Ok(BTreeMap::from([
        ("server_name".to_owned(), server_name),
        ("description".to_owned(), description),
        ("enabled".to_owned(), boolean(config.enabled)),
        ("enabled_tools".to_owned(), config.enabled_tools.join("\n")),
        ("allow_rendered".to_owned(), boolean(config.allow_rendered)),
        (
            "space_filter_mode".to_owned(),
            config.space_filter_mode.as_str().to_owned(),
        ),
        (
            "space_filter_spaces".to_owned(),
            config.space_filter_spaces.join("\n"),
        ),
        (
            "space_filter_documents".to_owned(),
            config.space_filter_documents.join("\n"),
        ),
        ("guest_access".to_owned(), boolean(config.guest_access)),
        (
            "reach_enabled_wikis".to_owned(),
            config.reach_enabled_wikis.join("\n"),
        ),
        (
            "reach_initialized".to_owned(),
            boolean(config.reach_initialized),
        ),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configuration_survives_its_object_values() {
        let config = McpConfig {
            server_name: Some("Docs".into()),
            description: Some("Two\nlines".into()),
            enabled: false,
            enabled_tools: vec!["get_document".into(), "man".into()],
            allow_rendered: false,
            space_filter_mode: SpaceFilterMode::Whitelist,
            space_filter_spaces: vec!["Sandbox".into(), "dev:Help.Sub".into()],
            space_filter_documents: vec!["Main.WebHome".into()],
            guest_access: false,
            reach_enabled_wikis: vec!["main".into(), "dev".into()],
            reach_initialized: true,
        };
        let values = config_values(&config).unwrap();
        let stored: BTreeMap<String, FieldValue> = values
            .into_iter()
            .map(|(name, text)| {
                let value = match name.as_str() {
                    "enabled" | "allow_rendered" | "guest_access" | "reach_initialized" => {
                        FieldValue::Boolean(text == "true")
                    }
                    "space_filter_mode" => FieldValue::List(vec![text]),
                    _ => FieldValue::Text(text),
                };
                (name, value)
            })
            .collect();
        assert_eq!(config_from_values(&stored).unwrap(), config);
        assert_eq!(
            config_from_values(&BTreeMap::new()).unwrap(),
            McpConfig::default()
        );
    }

    #[test]
    fn bad_configurations_are_refused() {
        let bad = [
            McpConfig {
                enabled_tools: vec!["bad tool".into()],
                ..McpConfig::default()
            },
            McpConfig {
                space_filter_spaces: vec!["a\nb".into()],
                ..McpConfig::default()
            },
            McpConfig {
                reach_enabled_wikis: vec!["Not A Wiki".into()],
                ..McpConfig::default()
            },
            McpConfig {
                space_filter_mode: SpaceFilterMode::DenyAll,
                ..McpConfig::default()
            },
            McpConfig {
                server_name: Some("a\u{202E}b".into()),
                ..McpConfig::default()
            },
        ];
        for config in bad {
            assert!(config_values(&config).is_err(), "{config:?}");
        }
    }
}
