//! The SQLite implementation of [`FarmExport`]: every table of the farm streamed from one read
//! transaction (one snapshot, so a copy taken while the farm is served is still consistent), a
//! statement per table stepped row by row, so memory holds one batch whatever the farm's size.

use rusqlite::Connection;
use rusqlite::types::ValueRef;

use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::transfer::{
    BOOKKEEPING, BatchLimits, FarmExport, FarmSink, Row, TABLES, Table, TransferError, Value,
};

impl FarmExport for SqliteStore {
    fn export_farm(
        &self,
        limits: BatchLimits,
        sink: &mut dyn FarmSink,
    ) -> Result<(), TransferError> {
        // The closure's own result carries the sink's errors out of the read transaction.
        self.pool().read(|conn| Ok(export(conn, limits, sink)))?
    }
}

fn export(
    conn: &Connection,
    limits: BatchLimits,
    sink: &mut dyn FarmSink,
) -> Result<(), TransferError> {
    check_tables(conn)?;
    let mut plan = Vec::with_capacity(TABLES.len());
    for table in TABLES {
        let rows: i64 = conn
            .query_row(
                &format!("SELECT count(*) FROM \"{}\"", table.name),
                [],
                |row| row.get(0),
            )
            .db()?;
        plan.push((table, u64::try_from(rows).unwrap_or_default()));
    }
    sink.plan(&plan)?;
    for table in TABLES {
        export_table(conn, table, limits, sink)?;
    }
    Ok(())
}

/// Refuses a database holding a table [`TABLES`] does not list (a build that would silently
/// leave it behind), or lacking one it lists.
fn check_tables(conn: &Connection) -> Result<(), TransferError> {
    let names = table_names(conn)?;
    if let Some(unknown) = names.iter().find(|name| {
        !TABLES.iter().any(|table| table.name == name.as_str())
            && !BOOKKEEPING.contains(&name.as_str())
    }) {
        return Err(TransferError::UnknownTable(unknown.clone()));
    }
    if let Some(missing) = TABLES
        .iter()
        .find(|table| !names.iter().any(|n| n == table.name))
    {
        return Err(TransferError::Column {
            table: missing.name,
            column: "*".to_owned(),
            reason: "the source has no such table".to_owned(),
        });
    }
    Ok(())
}

/// The ordinary tables of the database: neither SQLite's own, nor virtual tables (the
/// full-text index, derived from `documents`) and their shadow tables.
pub(crate) fn table_names(conn: &Connection) -> Result<Vec<String>, TransferError> {
    Ok(conn
        .prepare(
            "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' \
             AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        )
        .db()?
        .query_map([], |row| row.get::<_, String>(0))
        .db()?
        .collect::<rusqlite::Result<_>>()
        .db()?)
}

fn export_table(
    conn: &Connection,
    table: &'static Table,
    limits: BatchLimits,
    sink: &mut dyn FarmSink,
) -> Result<(), TransferError> {
    let columns: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
        .db()?
        .query_map([table.name], |row| row.get(0))
        .db()?
        .collect::<rusqlite::Result<_>>()
        .db()?;
    let list = columns
        .iter()
        .map(|column| format!("\"{column}\""))
        .collect::<Vec<_>>()
        .join(", ");
    sink.begin_table(table, &columns)?;
    // Table and column names come from TABLES and the schema itself, never from input.
    let mut statement = conn
        .prepare(&format!("SELECT {list} FROM \"{}\"", table.name))
        .db()?;
    let mut rows = statement.query([]).db()?;
    let mut batch: Vec<Row> = Vec::new();
    let mut bytes = 0;
    while let Some(row) = rows.next().db()? {
        let mut values = Vec::with_capacity(columns.len());
        for (at, column) in columns.iter().enumerate() {
            let value = value(row.get_ref(at).db()?).ok_or_else(|| TransferError::Column {
                table: table.name,
                column: column.clone(),
                reason: "a text value is not valid UTF-8".to_owned(),
            })?;
            bytes += value.size();
            values.push(value);
        }
        batch.push(values);
        if batch.len() >= limits.rows || bytes >= limits.bytes {
            sink.write_rows(&batch)?;
            batch.clear();
            bytes = 0;
        }
    }
    if !batch.is_empty() {
        sink.write_rows(&batch)?;
    }
    sink.end_table()?;
    Ok(())
}

/// A column value as the copy carries it; `None` for text that is not UTF-8 (which the store
/// never writes: copied as is, it would change on the way).
fn value(value: ValueRef<'_>) -> Option<Value> {
    Some(match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::Integer(n),
        ValueRef::Real(x) => Value::Real(x),
        ValueRef::Text(text) => Value::Text(std::str::from_utf8(text).ok()?.to_owned()),
        ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
    })
}
