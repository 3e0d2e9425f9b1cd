//! How the store's values are laid out in a database, shared by every backend.
//!
//! Both schemas keep the same columns for the same things (a reference is `wiki`, `space`,
//! `name` text columns; an instant is milliseconds since the Unix epoch; a default row has the
//! locale `""`; a rights subject is a `user`/`group` kind and a name), so a farm copies from one
//! backend to the other value for value, and every rule that reads a stored value back judges it
//! alike: a value that no longer parses is corruption, reported, never trusted.

use time::OffsetDateTime;

use crate::Result;
use crate::StoreError;
use crate::model::class::{ClassDefinition, FieldDefinition, FieldType};
use crate::model::document::Document;
use crate::model::locale::Locale;
use crate::model::rights::{RightRule, RightScope, Subject};
use crate::model::rules::FieldRules;
use crate::model::token::TokenScope;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::plan::document::RowView;
use crate::reference::{DocumentReference, SpacePath};

/// The current state of one stored document row, as both backends read it.
#[derive(Debug, Clone)]
pub(crate) struct StoredRow {
    pub(crate) id: i64,
    /// `""` for the default row.
    pub(crate) locale: String,
    pub(crate) language: String,
    pub(crate) title: String,
    pub(crate) content: String,
    pub(crate) syntax: String,
    pub(crate) hidden: bool,
    pub(crate) creator: String,
    pub(crate) author: String,
    pub(crate) created_ms: i64,
    pub(crate) updated_ms: i64,
    pub(crate) version: Version,
}

impl StoredRow {
    /// The row as the write rules see it.
    pub(crate) fn view(&self) -> RowView<'_> {
        RowView {
            language: &self.language,
            title: &self.title,
            content: &self.content,
            syntax: &self.syntax,
            hidden: self.hidden,
            version: self.version,
        }
    }

    /// The document this row shows, given its document's default language and translations.
    pub(crate) fn into_document(
        self,
        reference: &DocumentReference,
        default_locale: Locale,
        translations: Vec<Locale>,
    ) -> Result<Document> {
        Ok(Document {
            reference: reference.clone(),
            locale: row_locale(&self.locale)?,
            default_locale,
            title: self.title,
            content: self.content,
            syntax: self.syntax,
            hidden: self.hidden,
            author: self.author,
            creator: self.creator,
            created: from_ms(self.created_ms),
            updated: from_ms(self.updated_ms),
            version: self.version,
            translations,
        })
    }
}

/// The stored locale of a document's default row (a translation row stores its locale).
pub(crate) const DEFAULT_ROW: &str = "";

/// A stored value that does not read back as what was written: the database was altered or
/// damaged. The message names what, for logs; agents see only a generic failure.
pub(crate) fn corrupt(what: &'static str) -> StoreError {
    StoreError::backend(std::io::Error::new(std::io::ErrorKind::InvalidData, what))
}

/// Milliseconds since the Unix epoch, the stored form of instants.
pub(crate) fn to_ms(instant: OffsetDateTime) -> i64 {
    i64::try_from(instant.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// The instant of a stored millisecond value.
pub(crate) fn from_ms(ms: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// A count, offset or size as a signed 64-bit column or bound value (saturating: nothing the
/// store holds comes near `i64::MAX`).
pub(crate) fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Parses a locale read back from the database.
pub(crate) fn locale(value: &str) -> Result<Locale> {
    Locale::parse(value).map_err(|_| corrupt("stored locale does not parse"))
}

/// The row a stored locale column names: `None` for the default row.
pub(crate) fn row_locale(value: &str) -> Result<Option<Locale>> {
    if value == DEFAULT_ROW {
        Ok(None)
    } else {
        locale(value).map(Some)
    }
}

/// The stored locale column of a row: [`DEFAULT_ROW`] for `None`.
pub(crate) fn row_key(locale: Option<&Locale>) -> &str {
    locale.map_or(DEFAULT_ROW, Locale::as_str)
}

/// Parses a wiki id read back from the database.
pub(crate) fn wiki(value: &str) -> Result<WikiId> {
    WikiId::new(value).map_err(|_| corrupt("stored wiki id does not parse"))
}

/// Parses a space read back from the database.
pub(crate) fn space(value: &str) -> Result<SpacePath> {
    SpacePath::parse(value).map_err(|_| corrupt("stored space does not parse"))
}

/// The stored `(wiki, space, name)` columns of a reference: the one encoding both schemas key
/// documents by, which [`reference()`] reads back.
pub(crate) fn reference_columns(reference: &DocumentReference) -> (&str, String, &str) {
    (
        reference.wiki().as_str(),
        reference.space().to_string(),
        reference.name(),
    )
}

/// Rebuilds a reference from its stored `wiki`, `space` and `name` columns.
pub(crate) fn reference(
    wiki_id: &str,
    space_path: &str,
    name: String,
) -> Result<DocumentReference> {
    DocumentReference::new(wiki(wiki_id)?, space(space_path)?, name)
        .map_err(|_| corrupt("stored page name does not parse"))
}

/// A page of a known wiki and space, from its stored name.
pub(crate) fn page(
    wiki_id: &WikiId,
    space_path: &SpacePath,
    name: String,
) -> Result<DocumentReference> {
    DocumentReference::new(wiki_id.clone(), space_path.clone(), name)
        .map_err(|_| corrupt("stored page name does not parse"))
}

/// An object number read back (numbers are non-negative and below `u32::MAX`).
pub(crate) fn object_number(stored: i64) -> Result<u32> {
    u32::try_from(stored).map_err(|_| corrupt("object number"))
}

/// The stored `(kind, name)` of a rights subject or group member.
pub(crate) fn subject_parts(subject: &Subject) -> (&'static str, &str) {
    match subject {
        Subject::User(name) => ("user", name),
        Subject::Group(name) => ("group", name),
    }
}

/// The subject of a stored `(kind, name)`.
pub(crate) fn subject_of(kind: &str, name: String) -> Subject {
    if kind == "group" {
        Subject::Group(name)
    } else {
        Subject::User(name)
    }
}

/// The stored `(wiki, space, page)` of a rights scope: empty strings mark the wiki and space
/// levels.
pub(crate) fn scope_columns(scope: &RightScope) -> (&str, String, &str) {
    match scope {
        RightScope::Wiki(wiki) => (wiki.as_str(), String::new(), ""),
        RightScope::Space { wiki, space } => (wiki.as_str(), space.to_string(), ""),
        RightScope::Page(reference) => reference_columns(reference),
    }
}

/// A rights rule as its columns hold it, decoded by [`StoredRule::decode`].
pub(crate) struct StoredRule {
    pub(crate) wiki: String,
    pub(crate) space: String,
    pub(crate) page: String,
    pub(crate) subject_kind: String,
    pub(crate) subject: String,
    pub(crate) right: String,
    pub(crate) effect: String,
}

impl StoredRule {
    /// The rule these columns hold.
    pub(crate) fn decode(self) -> Result<RightRule> {
        let wiki = wiki(&self.wiki)?;
        let scope = match (self.space.as_str(), self.page.as_str()) {
            ("", _) => RightScope::Wiki(wiki),
            (space_path, "") => RightScope::Space {
                wiki,
                space: space(space_path)?,
            },
            (space_path, name) => {
                RightScope::Page(page(&wiki, &space(space_path)?, name.to_owned())?)
            }
        };
        Ok(RightRule {
            scope,
            subject: subject_of(&self.subject_kind, self.subject),
            right: self
                .right
                .parse()
                .map_err(|_| corrupt("rights row right"))?,
            effect: self
                .effect
                .parse()
                .map_err(|_| corrupt("rights row effect"))?,
        })
    }
}

/// The stored attributes of a field: one JSON object of its type's attributes
/// ([`FieldType::attributes`]) and its rules' ([`FieldRules::attributes`]).
pub(crate) fn attributes_json(field_type: &FieldType, rules: &FieldRules) -> Result<String> {
    let mut attributes = field_type.attributes();
    attributes.extend(rules.attributes());
    serde_json::to_string(&attributes).map_err(StoreError::backend)
}

/// The class `class_document` defines with its stored `fields`: none when it defines no field.
pub(crate) fn class_definition(
    class_document: &DocumentReference,
    fields: Vec<FieldDefinition>,
) -> Option<ClassDefinition> {
    (!fields.is_empty()).then(|| ClassDefinition {
        name: class_document.local(),
        fields,
    })
}

/// A class field from its stored columns.
pub(crate) fn field_definition(
    name: String,
    type_name: &str,
    pretty_name: Option<String>,
    attributes: &str,
    disabled: bool,
) -> Result<FieldDefinition> {
    let attributes: std::collections::BTreeMap<String, String> =
        serde_json::from_str(attributes).map_err(|_| corrupt("class field attributes"))?;
    let field_type =
        FieldType::from_parts(type_name, &attributes).map_err(|_| corrupt("class field type"))?;
    Ok(FieldDefinition {
        name,
        pretty_name,
        field_type,
        rules: FieldRules::from_attributes(&attributes),
        disabled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rights::{Effect, Right};

    #[test]
    fn milliseconds_round_trip() {
        let ms = 1_764_000_000_123;
        assert_eq!(to_ms(from_ms(ms)), ms);
    }

    #[test]
    fn default_rows_store_the_empty_locale() {
        assert_eq!(row_key(None), DEFAULT_ROW);
        assert_eq!(row_locale(DEFAULT_ROW).ok(), Some(None));
        let fr = Locale::parse("fr").ok();
        assert_eq!(row_key(fr.as_ref()), "fr");
        assert_eq!(row_locale("fr").ok(), Some(fr));
        assert!(row_locale("not a locale").is_err());
    }

    #[test]
    fn rules_decode_from_their_columns_and_damage_is_corruption() {
        let columns = |space: &str, page: &str, right: &str| StoredRule {
            wiki: "main".into(),
            space: space.into(),
            page: page.into(),
            subject_kind: "group".into(),
            subject: "editors".into(),
            right: right.into(),
            effect: "deny".into(),
        };
        let rule = columns("Sandbox", "Page", "edit").decode();
        assert!(
            matches!(
                &rule,
                Ok(RightRule { scope: RightScope::Page(page), subject: Subject::Group(g), right: Right::Edit, effect: Effect::Deny })
                    if page.to_string() == "main:Sandbox.Page" && g == "editors"
            ),
            "{rule:?}"
        );
        let encoded = rule.map(|rule| {
            let (wiki, space, page) = scope_columns(&rule.scope);
            (wiki.to_owned(), space, page.to_owned())
        });
        assert_eq!(
            encoded.ok(),
            Some(("main".to_owned(), "Sandbox".to_owned(), "Page".to_owned()))
        );
        assert!(matches!(
            columns("", "", "view").decode(),
            Ok(RightRule {
                scope: RightScope::Wiki(_),
                ..
            })
        ));
        assert!(columns("", "", "fly").decode().is_err());
    }
}

/// A token's scope in its two columns: `scope`, the JSON of its read-only flag, tools and
/// wikis (NULL when it limits none of them, as every token created before scopes), and
/// `expires_ms` (NULL: it does not expire).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredScope {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    read_only: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tools: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wikis: Option<Vec<String>>,
}

/// A token's `scope` and `expires_ms` column values, as written and read.
#[derive(Debug, Clone, Default)]
pub(crate) struct ScopeColumns {
    pub(crate) json: Option<String>,
    pub(crate) expires_ms: Option<i64>,
}

/// The column values of `scope`.
pub(crate) fn token_scope_columns(scope: &TokenScope) -> Result<ScopeColumns> {
    let stored = StoredScope {
        read_only: scope.read_only,
        tools: scope.tools.clone(),
        wikis: scope.wikis.clone(),
    };
    let json = if stored.read_only || stored.tools.is_some() || stored.wikis.is_some() {
        Some(serde_json::to_string(&stored).map_err(StoreError::backend)?)
    } else {
        None
    };
    Ok(ScopeColumns {
        json,
        expires_ms: scope.expires.map(to_ms),
    })
}

/// The scope stored in a token's columns.
pub(crate) fn token_scope_from_columns(columns: ScopeColumns) -> Result<TokenScope> {
    let ScopeColumns { json, expires_ms } = columns;
    let stored = match json {
        None => StoredScope {
            read_only: false,
            tools: None,
            wikis: None,
        },
        Some(json) => serde_json::from_str(&json).map_err(|_| corrupt("a token's scope"))?,
    };
    Ok(TokenScope {
        read_only: stored.read_only,
        tools: stored.tools,
        wikis: stored.wikis,
        expires: expires_ms.map(from_ms),
    })
}
