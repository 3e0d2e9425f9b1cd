//! The MCP configuration as an object: the reserved class's fields, the checks a configuration
//! passes before it is stored, and reading it back from the object's values.
//!
//! A backend sets a configuration by checking it ([`config_values`], before the transaction),
//! completing the configuration class when a field is missing ([`missing_fields`]: one save of
//! its hidden class document, [`class_touch`]), then writing the values as an ordinary object
//! update of the lowest-numbered configuration object on the hidden configuration document
//! ([`config_touch`]; created with the document when there is none). It reads one by decoding
//! the values of that object with [`config_from_values`]: any value of the wrong kind fails the
//! whole read, and the caller fails closed.

use std::collections::BTreeMap;

use crate::Result;
use crate::StoreError;
use crate::attachments::is_unsafe_text_char;
use crate::error::InvalidInput;
use crate::model::class::{ClassDefinition, FieldType};
use crate::model::document::Expected;
use crate::model::mcp_config::{McpConfig, SpaceFilterMode};
use crate::model::object::FieldValue;
use crate::model::wiki::WikiId;
use crate::plan::owner::Touch;
use crate::reference::DocumentReference;
use crate::stored::corrupt;

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
        ("confirm_writes", FieldType::Boolean),
        ("links", FieldType::Boolean),
    ]
}

/// The longest server name and description, in characters.
const MAX_NAME: usize = 255;
const MAX_DESCRIPTION: usize = 10_000;

/// The fields of the configuration class that `existing` (the class as stored, if any) lacks
/// or has disabled, in order; empty when the class is complete.
pub(crate) fn missing_fields(existing: Option<&ClassDefinition>) -> Vec<(&'static str, FieldType)> {
    config_fields()
        .into_iter()
        .filter(|(name, _)| existing.and_then(|class| class.field(name)).is_none())
        .collect()
}

/// A document of the configuration (its hidden document or its class document) in `wiki`.
pub(crate) fn reference_in(wiki: &WikiId, local: &str) -> Result<DocumentReference> {
    Ok(DocumentReference::parse(local, wiki)?)
}

/// How saving a configuration touches the hidden configuration document.
pub(crate) fn config_touch<'a>(document: &'a DocumentReference, author: &'a str) -> Touch<'a> {
    hidden_touch(document, author, "Updated MCP configuration")
}

/// How completing the configuration class touches its hidden class document.
pub(crate) fn class_touch<'a>(class_document: &'a DocumentReference, author: &'a str) -> Touch<'a> {
    hidden_touch(
        class_document,
        author,
        "Defined the MCP configuration class",
    )
}

fn hidden_touch<'a>(
    reference: &'a DocumentReference,
    author: &'a str,
    comment: &'a str,
) -> Touch<'a> {
    Touch {
        reference,
        author,
        comment,
        major: false,
        expected: Expected::Any,
        title: None,
        create: true,
        hidden_on_create: true,
    }
}

/// The configuration a read found: `None` when the wiki has no configuration object yet (its
/// hidden document or the object is missing), which means [`McpConfig::default`]; else the
/// object's values, decoded by [`config_from_values`].
pub(crate) fn config_read(values: Option<&BTreeMap<String, FieldValue>>) -> Result<McpConfig> {
    values.map_or_else(|| Ok(McpConfig::default()), config_from_values)
}

/// What a read of the configuration answers: the configuration, or, when it could not be read
/// at all (a storage failure, a corrupt value, an unknown wiki), [`McpConfig::fail_closed`],
/// logged at WARN. Never an error: an endpoint whose configuration is unreadable exposes nothing.
pub(crate) fn or_fail_closed(wiki: &WikiId, read: Result<McpConfig>) -> McpConfig {
    match read {
        Ok(config) => config,
        Err(error) => {
            tracing::warn!(wiki = %wiki, error = %error, "MCP configuration unreadable; failing closed");
            McpConfig::fail_closed()
        }
    }
}

/// Builds the configuration from stored values: an unset value takes its default, a value of
/// the wrong kind makes the whole read fail (and the caller fail closed).
pub(crate) fn config_from_values(values: &BTreeMap<String, FieldValue>) -> Result<McpConfig> {
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
        confirm_writes: flag("confirm_writes", defaults.confirm_writes)?,
        links: flag("links", defaults.links)?,
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
pub(crate) fn config_values(config: &McpConfig) -> Result<BTreeMap<String, String>> {
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
        ("confirm_writes".to_owned(), boolean(config.confirm_writes)),
        ("links".to_owned(), boolean(config.links)),
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
            guest_access: true,
            confirm_writes: true,
            links: true,
            reach_enabled_wikis: vec!["main".into(), "dev".into()],
            reach_initialized: true,
        };
        let values = config_values(&config).unwrap();
        let stored: BTreeMap<String, FieldValue> = values
            .into_iter()
            .map(|(name, text)| {
                let value = match name.as_str() {
                    "enabled" | "allow_rendered" | "guest_access" | "reach_initialized"
                    | "confirm_writes" | "links" => FieldValue::Boolean(text == "true"),
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
