//! Object values as PostgreSQL stores them, and a checked object query compiled to one
//! statement with bound values.
//!
//! A value is stored as SQLite's ANY column holds it: text, integer or real, one of three
//! columns, plus `number`, the exact numeric value of an integer or a real. Comparisons follow
//! SQLite's rules for such a column, so a query answers alike on both backends: integers and
//! reals compare as numbers, every number is smaller than every text, texts compare bytewise
//! (COLLATE "C"), a number never equals a text. `contains` is ASCII case-insensitive, as
//! SQLite's LIKE (`ILIKE` under COLLATE "C" folds ASCII only).
//!
//! Every SQL fragment comes from a closed `match` on the operator or the sort order; field names
//! and values are bound parameters, never text in the statement, so no input can change its
//! shape.

use crate::Result;
use crate::model::wiki::WikiId;
use crate::objects::coerce::StoredValue;
use crate::objects::query::{CheckedQuery, FilterOp, SortOrder, like_pattern};
use crate::postgres::binds::Binds;
use crate::stored::{corrupt, to_i64};

/// The columns a value is written to, in `(text_value, int_value, real_value, number)` order.
pub(crate) struct ValueColumns {
    pub(crate) text: Option<String>,
    pub(crate) int: Option<i64>,
    pub(crate) real: Option<f64>,
    /// The number's exact decimal (bound as text, cast to `numeric`).
    pub(crate) number: Option<String>,
}

/// The stored columns of a value.
pub(crate) fn value_columns(value: &StoredValue) -> ValueColumns {
    match value {
        StoredValue::Text(text) => ValueColumns {
            text: Some(text.clone()),
            int: None,
            real: None,
            number: None,
        },
        StoredValue::Integer(n) => ValueColumns {
            text: None,
            int: Some(*n),
            real: None,
            number: Some(n.to_string()),
        },
        StoredValue::Real(x) => ValueColumns {
            text: None,
            int: None,
            real: Some(*x),
            number: Some(decimal(*x)),
        },
    }
}

/// The shortest decimal that reads back as `x` (Rust's `Debug` for floats, e.g. `0.1`, `1e300`):
/// between two different doubles, or a double and an integer, it orders as they do.
fn decimal(x: f64) -> String {
    format!("{x:?}")
}

/// A stored value read back from its columns: exactly one is set (anything else is corruption).
pub(crate) fn stored_value(
    text: Option<String>,
    int: Option<i64>,
    real: Option<f64>,
) -> Result<StoredValue> {
    match (text, int, real) {
        (Some(text), None, None) => Ok(StoredValue::Text(text)),
        (None, Some(n), None) => Ok(StoredValue::Integer(n)),
        (None, None, Some(x)) => Ok(StoredValue::Real(x)),
        _ => Err(corrupt("object value")),
    }
}

/// The statement and its values.
pub(crate) struct CompiledQuery {
    pub(crate) sql: String,
    pub(crate) binds: Binds,
}

/// Selects `(object id, document space, document name, version major, version minor, object
/// number)` of the matching objects, in the query's order, at most `limit` rows from an offset
/// the caller binds after [`CompiledQuery::binds`].
pub(crate) fn compile(wiki: &WikiId, query: &CheckedQuery, limit: usize) -> CompiledQuery {
    let mut binds = Binds::default();
    let mut sql = String::from(
        "SELECT o.id, d.space, d.name, d.version_major, d.version_minor, o.number \
         FROM objects o JOIN documents d ON d.id = o.document_id",
    );
    let mut order = String::new();
    if let Some((field, direction)) = &query.sort {
        // Objects without a value for the sort field are left out, as in the reference.
        let field = binds.push(field.clone());
        sql += &format!(" JOIN object_values s ON s.object_id = o.id AND s.field = {field}");
        let direction = match direction {
            SortOrder::Asc => "ASC",
            SortOrder::Desc => "DESC",
        };
        // Numbers before texts, numbers by value, texts by bytes.
        order = format!(
            "(s.text_value IS NOT NULL) {direction}, s.number {direction}, s.text_value {direction}, "
        );
    }
    sql += &format!(
        " WHERE d.wiki = {} AND d.locale = '' AND o.class = {}",
        binds.push(wiki.as_str().to_owned()),
        binds.push(query.class.clone())
    );
    if let Some(document) = &query.document {
        sql += &format!(
            " AND d.space = {} AND d.name = {}",
            binds.push(document.space().to_string()),
            binds.push(document.name().to_owned())
        );
    }
    for filter in &query.filters {
        let field = binds.push(filter.field.clone());
        let condition = match (&filter.value, filter.op) {
            (StoredValue::Text(needle), FilterOp::Contains) => {
                let pattern = binds.push(like_pattern(needle));
                format!(
                    "coalesce(v.text_value, v.int_value::text, v.real_value::text) ILIKE {pattern}"
                )
            }
            (StoredValue::Text(text), op) => {
                let value = binds.push(text.clone());
                match op {
                    FilterOp::Eq => format!("v.text_value = {value}"),
                    FilterOp::Ne => format!("v.text_value IS DISTINCT FROM {value}"),
                    FilterOp::Gt => format!("v.text_value > {value}"),
                    // Every number is smaller than every text.
                    FilterOp::Lt | FilterOp::Contains => {
                        format!("(v.text_value IS NULL OR v.text_value < {value})")
                    }
                }
            }
            (number, op) => {
                let value = binds.push(match number {
                    StoredValue::Integer(n) => n.to_string(),
                    StoredValue::Real(x) => decimal(*x),
                    StoredValue::Text(text) => text.clone(),
                });
                let value = format!("{value}::text::numeric");
                match op {
                    FilterOp::Eq => format!("v.number = {value}"),
                    FilterOp::Ne => format!("v.number IS DISTINCT FROM {value}"),
                    // Every text is greater than every number.
                    FilterOp::Gt => format!("(v.number > {value} OR v.text_value IS NOT NULL)"),
                    FilterOp::Lt | FilterOp::Contains => format!("v.number < {value}"),
                }
            }
        };
        sql += &format!(
            " AND EXISTS (SELECT 1 FROM object_values v WHERE v.object_id = o.id AND v.field = {field} \
             AND {condition})"
        );
    }
    // A total order, so batches read with the offset (bound last by the caller, `$N+1`) in
    // one snapshot neither skip nor repeat a row.
    sql += &format!(
        " ORDER BY {order}d.space, d.name, o.number LIMIT {} OFFSET ${}",
        binds.push(to_i64(limit)),
        binds.len() + 1
    );
    CompiledQuery { sql, binds }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::query::CheckedFilter;

    #[test]
    fn values_and_field_names_are_bound_never_written_into_the_statement() {
        let hostile = "x' OR 1=1; DROP TABLE objects; --";
        let query = CheckedQuery {
            class: hostile.to_owned(),
            document: None,
            filters: vec![
                CheckedFilter {
                    field: hostile.to_owned(),
                    op: FilterOp::Eq,
                    value: StoredValue::Text(hostile.to_owned()),
                },
                CheckedFilter {
                    field: "n".to_owned(),
                    op: FilterOp::Contains,
                    value: StoredValue::Text("50%_\\".to_owned()),
                },
                CheckedFilter {
                    field: "m".to_owned(),
                    op: FilterOp::Gt,
                    value: StoredValue::Real(0.1),
                },
            ],
            sort: Some((hostile.to_owned(), SortOrder::Desc)),
        };
        let compiled = compile(&WikiId::main(), &query, 10);
        assert!(!compiled.sql.contains("DROP"), "{}", compiled.sql);
        assert!(!compiled.sql.contains("50%"), "{}", compiled.sql);
        for index in 1..=compiled.binds.len() {
            assert!(
                compiled.sql.contains(&format!("${index}")),
                "${index} unused"
            );
        }
        assert_eq!(like_pattern("50%_\\"), "%50\\%\\_\\\\%");
        assert!(compiled.sql.contains("DESC"));
    }

    #[test]
    fn numbers_are_stored_exactly_and_read_back_as_their_kind() {
        let real = value_columns(&StoredValue::Real(0.1));
        assert_eq!(
            (real.real, real.number.as_deref()),
            (Some(0.1), Some("0.1"))
        );
        assert_eq!(decimal(1e300), "1e300");
        let int = value_columns(&StoredValue::Integer(-7));
        assert_eq!((int.int, int.number.as_deref()), (Some(-7), Some("-7")));
        assert!(matches!(
            stored_value(None, None, Some(2.5)),
            Ok(StoredValue::Real(x)) if x == 2.5
        ));
        assert!(stored_value(Some("a".into()), Some(1), None).is_err());
        assert!(stored_value(None, None, None).is_err());
    }
}
