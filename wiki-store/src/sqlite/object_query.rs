//! Compiles a checked object query to one SQL statement with bound values.
//!
//! Every SQL fragment comes from a closed `match` on the operator or the sort order; field names
//! and values are bound parameters, never text in the statement, so no input can change its shape.

use rusqlite::types::Value;

use crate::model::wiki::WikiId;
use crate::objects::coerce::StoredValue;
use crate::objects::query::{CheckedQuery, FilterOp, SortOrder, like_pattern};

/// The statement and its parameters, in placeholder order (`?1`, `?2`, ...).
pub(crate) struct CompiledQuery {
    pub(crate) sql: String,
    pub(crate) params: Vec<Value>,
}

/// Selects `(object id, document space, document name, version major, version minor, object
/// number)` of the matching objects, in the query's order, at most `limit` rows.
pub(crate) fn compile(wiki: &WikiId, query: &CheckedQuery, limit: usize) -> CompiledQuery {
    let mut params: Vec<Value> = Vec::new();
    let mut bind = |value: Value| {
        params.push(value);
        format!("?{}", params.len())
    };
    let mut sql = String::from(
        "SELECT o.id, d.space, d.name, d.version_major, d.version_minor, o.number \
         FROM objects o JOIN documents d ON d.id = o.document_id WHERE d.wiki = ",
    );
    sql += &bind(Value::Text(wiki.as_str().to_owned()));
    sql += " AND d.locale = '' AND o.class = ";
    sql += &bind(Value::Text(query.class.clone()));
    if let Some(document) = &query.document {
        sql += " AND d.space = ";
        sql += &bind(Value::Text(document.space().to_string()));
        sql += " AND d.name = ";
        sql += &bind(Value::Text(document.name().to_owned()));
    }
    for filter in &query.filters {
        let field = bind(Value::Text(filter.field.clone()));
        let value = match (filter.op, &filter.value) {
            (FilterOp::Contains, StoredValue::Text(needle)) => {
                bind(Value::Text(like_pattern(needle)))
            }
            (_, value) => bind(sql_value(value)),
        };
        let comparison = match filter.op {
            FilterOp::Eq => "v.value = ",
            FilterOp::Ne => "v.value <> ",
            FilterOp::Gt => "v.value > ",
            FilterOp::Lt => "v.value < ",
            FilterOp::Contains => "v.value LIKE ",
        };
        let escape = if filter.op == FilterOp::Contains {
            " ESCAPE '\\'"
        } else {
            ""
        };
        sql += &format!(
            " AND EXISTS (SELECT 1 FROM object_values v WHERE v.object_id = o.id AND v.field = {field} \
             AND {comparison}{value}{escape})"
        );
    }
    let order = match &query.sort {
        Some((field, order)) => {
            let field = bind(Value::Text(field.clone()));
            let direction = match order {
                SortOrder::Asc => "ASC",
                SortOrder::Desc => "DESC",
            };
            // Objects without a value for the sort field are left out, as in the reference.
            sql += &format!(
                " AND EXISTS (SELECT 1 FROM object_values v WHERE v.object_id = o.id AND v.field = {field})"
            );
            format!(
                "(SELECT v.value FROM object_values v WHERE v.object_id = o.id AND v.field = {field}) {direction}, "
            )
        }
        None => String::new(),
    };
    sql += &format!(" ORDER BY {order}d.space, d.name, o.number LIMIT ");
    sql += &bind(Value::Integer(i64::try_from(limit).unwrap_or(i64::MAX)));
    CompiledQuery { sql, params }
}

/// The bound form of a stored value.
pub(crate) fn sql_value(value: &StoredValue) -> Value {
    match value {
        StoredValue::Text(text) => Value::Text(text.clone()),
        StoredValue::Integer(n) => Value::Integer(*n),
        StoredValue::Real(x) => Value::Real(*x),
    }
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
            ],
            sort: Some((hostile.to_owned(), SortOrder::Desc)),
        };
        let compiled = compile(&WikiId::main(), &query, 10);
        assert!(!compiled.sql.contains("DROP"), "{}", compiled.sql);
        assert!(!compiled.sql.contains("50%"), "{}", compiled.sql);
        for index in 1..=compiled.params.len() {
            assert!(
                compiled.sql.contains(&format!("?{index}")),
                "?{index} unused"
            );
        }
        assert!(
            compiled
                .params
                .contains(&Value::Text("%50\\%\\_\\\\%".to_owned()))
        );
        assert!(compiled.sql.contains("DESC"));
    }
}
