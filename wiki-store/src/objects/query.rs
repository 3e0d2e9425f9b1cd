//! Object queries: typed filters, sort and paging over the objects of one class, checked against
//! the class before any backend sees them.
//!
//! Checking resolves each field (unknown ones refused with the list of enabled fields), refuses
//! filters and sorts on Password and StaticList fields (a filter on a secret would be a
//! value-probing oracle; list values are not scalars), refuses `contains` on non-text fields, and
//! coerces each filter value to the field's stored type, so a backend only ever binds typed values.

use std::fmt;
use std::str::FromStr;

use crate::error::{InvalidInput, StoreError};
use crate::model::class::FieldType;
use crate::model::class::{ClassDefinition, FieldDefinition};
use crate::objects::coerce::{StoredValue, coerce_value, parse_date};
use crate::reference::DocumentReference;

/// The most filters one query may carry (as the reference).
pub const MAX_FILTERS: usize = 10;

/// The most candidate objects one query examines; past it the total is reported as a lower
/// bound (`N+`), as the reference does.
pub const SCAN_CEILING: usize = 2000;

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterOp {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `>`
    Gt,
    /// `<`
    Lt,
    /// `contains` (text fields only; ASCII case-insensitive)
    Contains,
}

impl FilterOp {
    /// The operator as written in a filter.
    pub fn as_str(self) -> &'static str {
        match self {
            FilterOp::Eq => "=",
            FilterOp::Ne => "!=",
            FilterOp::Gt => ">",
            FilterOp::Lt => "<",
            FilterOp::Contains => "contains",
        }
    }
}

impl fmt::Display for FilterOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for FilterOp {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [
            FilterOp::Eq,
            FilterOp::Ne,
            FilterOp::Gt,
            FilterOp::Lt,
            FilterOp::Contains,
        ]
        .into_iter()
        .find(|op| op.as_str().eq_ignore_ascii_case(s))
        .ok_or(StoreError::Invalid(InvalidInput::Keyword {
            what: "filter operator",
            expected: "=, !=, >, <, contains",
        }))
    }
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    /// Smallest first.
    Asc,
    /// Largest first.
    Desc,
}

/// One filter as the caller wrote it: `<field> <op> <value>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldFilter {
    /// The field name.
    pub field: String,
    /// The comparison.
    pub op: FilterOp,
    /// The value, as text; coerced to the field's type when checked.
    pub value: String,
}

impl FromStr for FieldFilter {
    type Err = StoreError;

    /// Parses `<field> <op> <value>`; the value is the rest of the text (it may contain spaces).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let malformed = || {
            query_error("a filter reads <field> <op> <value>, e.g. \"status = open\"".to_owned())
        };
        let (field, rest) = text.split_once(char::is_whitespace).ok_or_else(malformed)?;
        let rest = rest.trim_start();
        let (op, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        if value.is_empty() {
            return Err(malformed());
        }
        Ok(FieldFilter {
            field: field.to_owned(),
            op: op.parse()?,
            value: value.to_owned(),
        })
    }
}

/// What a caller asks: the objects of one class matching every filter, sorted, one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectQuery {
    /// The class (wiki-local name).
    pub class: String,
    /// Only objects on this document, if given.
    pub document: Option<DocumentReference>,
    /// Filters, all required (AND).
    pub filters: Vec<FieldFilter>,
    /// Sort field and direction; objects without a value for it are excluded. Without a sort,
    /// objects come in document order, then by object number.
    pub sort: Option<(String, SortOrder)>,
}

/// A filter checked against the class, its value coerced to the stored type.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedFilter {
    /// The field name (known and enabled).
    pub field: String,
    /// The comparison.
    pub op: FilterOp,
    /// The bound value: typed for comparisons, the raw needle for `contains`.
    pub value: StoredValue,
}

/// A query checked against its class: every field exists, every value is typed.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedQuery {
    /// The class name.
    pub class: String,
    /// Only objects on this document, if given.
    pub document: Option<DocumentReference>,
    /// The checked filters.
    pub filters: Vec<CheckedFilter>,
    /// The sort, on a known queryable field.
    pub sort: Option<(String, SortOrder)>,
}

/// Checks `query` against `class` (see the module doc for the rules).
pub fn check_query(
    class: &ClassDefinition,
    query: &ObjectQuery,
) -> Result<CheckedQuery, StoreError> {
    if query.filters.len() > MAX_FILTERS {
        return Err(query_error(format!(
            "at most {MAX_FILTERS} filters per query"
        )));
    }
    let mut filters = Vec::with_capacity(query.filters.len());
    for filter in &query.filters {
        let field = queryable(class, &filter.field, "filter on")?;
        let value = if filter.op == FilterOp::Contains {
            // SQLite's LIKE ends its pattern at a NUL: `%a\0b%` would be `%a` and match far
            // more than asked (found by fuzz/fuzz_targets/object_filters.rs).
            if filter.value.contains('\0') {
                return Err(query_error(format!(
                    "a contains value cannot hold a NUL character (filter on {})",
                    field.name
                )));
            }
            if !field.field_type.is_text() {
                return Err(query_error(format!(
                    "contains applies to text fields; {} is a {} field",
                    field.name,
                    field.field_type.name()
                )));
            }
            StoredValue::Text(filter.value.clone())
        } else {
            filter_value(field, &filter.value)?
        };
        filters.push(CheckedFilter {
            field: field.name.clone(),
            op: filter.op,
            value,
        });
    }
    let sort = match &query.sort {
        Some((name, order)) => Some((queryable(class, name, "sort on")?.name.clone(), *order)),
        None => None,
    };
    Ok(CheckedQuery {
        class: class.name.clone(),
        document: query.document.clone(),
        filters,
        sort,
    })
}

fn queryable<'c>(
    class: &'c ClassDefinition,
    name: &str,
    action: &str,
) -> Result<&'c FieldDefinition, StoreError> {
    let field = class.require_field(name)?;
    if !field.field_type.is_queryable() {
        return Err(query_error(format!(
            "cannot {action} {}: it is a {} field",
            field.name,
            field.field_type.name()
        )));
    }
    Ok(field)
}

fn query_error(reason: String) -> StoreError {
    StoreError::Invalid(InvalidInput::Query { reason })
}

/// A filter value: like a stored value, except that a date filter keeps its time of day even on a
/// date-only field (so `due < 2026-12-01` compares against midnight as written).
fn filter_value(field: &FieldDefinition, raw: &str) -> Result<StoredValue, StoreError> {
    if let FieldType::Date { .. } = field.field_type
        && let Some(date) = parse_date(raw)
    {
        return Ok(StoredValue::Integer(date.unix_timestamp()));
    }
    coerce_value(field, raw)
}

/// The pattern of a `contains` filter: `%needle%` with `\`, `%` and `_` escaped by `\`, as both
/// backends' `LIKE ... ESCAPE '\'` / `ILIKE` read it, so the agent's text is never a wildcard.
pub(crate) fn like_pattern(needle: &str) -> String {
    let mut pattern = String::with_capacity(needle.len() + 2);
    pattern.push('%');
    for c in needle.chars() {
        if matches!(c, '\\' | '%' | '_') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::class::NumberKind;

    fn class() -> ClassDefinition {
        let field = |name: &str, field_type: FieldType, disabled: bool| FieldDefinition {
            name: name.into(),
            pretty_name: None,
            field_type,
            rules: Default::default(),
            disabled,
        };
        ClassDefinition {
            name: "Tasks.TaskClass".into(),
            fields: vec![
                field("title", FieldType::String, false),
                field("priority", FieldType::Number(NumberKind::Integer), false),
                field("done", FieldType::Boolean, false),
                field("due", FieldType::Date { date_only: true }, false),
                field("secret", FieldType::Password, false),
                field(
                    "tags",
                    FieldType::StaticList {
                        values: vec!["a".into()],
                        multiselect: true,
                    },
                    false,
                ),
                field("old", FieldType::String, true),
            ],
        }
    }

    fn query(filters: &[&str], sort: Option<&str>) -> Result<ObjectQuery, StoreError> {
        Ok(ObjectQuery {
            class: "Tasks.TaskClass".into(),
            document: None,
            filters: filters
                .iter()
                .map(|f| f.parse())
                .collect::<Result<_, _>>()?,
            sort: sort.map(|s| (s.to_owned(), SortOrder::Asc)),
        })
    }

    #[test]
    fn filters_parse_with_values_that_contain_spaces() -> Result<(), StoreError> {
        let filter: FieldFilter = "title contains big  plan ".parse()?;
        assert_eq!(filter.op, FilterOp::Contains);
        assert_eq!(filter.value, "big  plan");
        assert_eq!("priority != 3".parse::<FieldFilter>()?.op, FilterOp::Ne);
        for bad in ["", "title", "title =", "title ~ x", "title like x"] {
            assert!(bad.parse::<FieldFilter>().is_err(), "{bad:?}");
        }
        Ok(())
    }

    #[test]
    fn values_are_typed_by_their_field() -> Result<(), StoreError> {
        let checked = check_query(
            &class(),
            &query(
                &["priority > 2", "done = true", "due < 2026-12-01"],
                Some("due"),
            )?,
        )?;
        let values: Vec<_> = checked.filters.iter().map(|f| f.value.clone()).collect();
        assert_eq!(
            values,
            [
                StoredValue::Integer(2),
                StoredValue::Integer(1),
                StoredValue::Integer(1_796_083_200)
            ]
        );
        assert_eq!(checked.sort, Some(("due".into(), SortOrder::Asc)));
        Ok(())
    }

    #[test]
    fn unknown_secret_list_and_disabled_fields_are_refused() -> Result<(), StoreError> {
        let unknown = check_query(&class(), &query(&["nope = 1"], None)?);
        assert!(matches!(
            unknown,
            Err(StoreError::Invalid(InvalidInput::UnknownField { ref known, .. })) if known.len() == 6
        ));
        assert!(check_query(&class(), &query(&["old = x"], None)?).is_err());
        assert!(check_query(&class(), &query(&["secret = x"], None)?).is_err());
        assert!(check_query(&class(), &query(&["tags = a"], None)?).is_err());
        assert!(check_query(&class(), &query(&[], Some("secret"))?).is_err());
        assert!(check_query(&class(), &query(&["priority contains 1"], None)?).is_err());
        assert!(check_query(&class(), &query(&["priority = high"], None)?).is_err());
        let too_many: Vec<&str> = std::iter::repeat_n("priority = 1", MAX_FILTERS + 1).collect();
        assert!(check_query(&class(), &query(&too_many, None)?).is_err());
        Ok(())
    }

    /// Regression (fuzz/fuzz_targets/object_filters.rs): SQLite's LIKE ends its pattern at a NUL,
    /// so this needle matched every object before `contains` refused NUL characters.
    #[test]
    fn a_contains_needle_with_a_nul_is_refused() -> Result<(), StoreError> {
        let nul = check_query(
            &class(),
            &query(&["title contains \0\0\0\0\0\0\0\u{4}%_"], None)?,
        );
        assert!(matches!(
            nul,
            Err(StoreError::Invalid(InvalidInput::Query { ref reason })) if reason.contains("NUL")
        ));
        assert!(check_query(&class(), &query(&["title contains a%_\\b"], None)?).is_ok());
        Ok(())
    }
}
