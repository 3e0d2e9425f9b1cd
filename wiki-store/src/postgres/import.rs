//! The PostgreSQL implementation of [`FarmImport`]: a whole farm written into an empty database
//! in one transaction, each batch one `INSERT … SELECT FROM unnest(…)` statement (one typed
//! array per column, so the statement's shape, and its prepared plan, is the same for every
//! batch of a table).
//!
//! Columns are matched by name with the target's schema and each value converted to its
//! column's type (SQLite's 0/1 to booleans, its `ANY` object values to the per-kind columns);
//! identity columns take the source's ids, then their sequences continue after the largest.

use postgres::types::ToSql;

use crate::objects::coerce::StoredValue;
use crate::postgres::PostgresStore;
use crate::postgres::convert::RowExt;
use crate::postgres::object_query::value_columns;
use crate::postgres::pool::Conn;
use crate::transfer::{FarmImport, FarmSink, Row, TABLES, Table, TransferError, Value};

impl FarmImport for PostgresStore {
    fn import_farm(
        &self,
        fill: &mut dyn FnMut(&mut dyn FarmSink) -> Result<(), TransferError>,
    ) -> Result<(), TransferError> {
        let mut conn = self.pool().get()?;
        // Serializable: a command writing into the database meanwhile makes the commit fail
        // rather than mix its rows with the copy's.
        conn.begin("ISOLATION LEVEL SERIALIZABLE")?;
        let outcome = (|| {
            check_empty(&mut conn)?;
            let mut sink = Sink {
                conn: &mut conn,
                current: None,
            };
            fill(&mut sink)?;
            conn.commit()?;
            Ok(())
        })();
        if outcome.is_err() {
            // The failure is the answer; a connection that cannot roll back is dropped.
            let _ = conn.rollback();
        }
        outcome
    }
}

/// Refuses a database holding anything but what its schema creates (one row in each seeded
/// table), then removes those rows: the source's take their place.
fn check_empty(conn: &mut Conn) -> Result<(), TransferError> {
    for table in TABLES {
        let rows = count(conn, table.name)?;
        let seeded_rows = u64::from(table.seeded);
        if rows > seeded_rows {
            return Err(TransferError::TargetNotEmpty {
                table: table.name.to_owned(),
                rows,
            });
        }
    }
    for table in TABLES.iter().filter(|table| table.seeded) {
        conn.batch(&format!("DELETE FROM \"{}\"", table.name))?;
    }
    Ok(())
}

fn count(conn: &mut Conn, table: &str) -> Result<u64, TransferError> {
    let rows: i64 = conn
        .query_one(&format!("SELECT count(*) FROM \"{table}\""), &[])?
        .col(0)?;
    Ok(u64::try_from(rows).unwrap_or_default())
}

/// The transaction's sink.
struct Sink<'c> {
    conn: &'c mut Conn,
    current: Option<Target>,
}

/// How the rows of the table being copied are written.
struct Target {
    table: &'static Table,
    /// Per source column, what it becomes in the target.
    columns: Vec<Slot>,
    insert: String,
    identities: Vec<String>,
}

/// A PostgreSQL column type a farm's columns use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int8,
    Int4,
    Bool,
    Float8,
    Text,
    Bytea,
    Numeric,
}

impl Kind {
    fn of(data_type: &str) -> Option<Kind> {
        Some(match data_type {
            "bigint" => Kind::Int8,
            "integer" => Kind::Int4,
            "boolean" => Kind::Bool,
            "double precision" => Kind::Float8,
            "text" => Kind::Text,
            "bytea" => Kind::Bytea,
            "numeric" => Kind::Numeric,
            _ => return None,
        })
    }

    /// The array type a batch binds for this column (numbers go as text, cast after).
    fn array(self) -> &'static str {
        match self {
            Kind::Int8 => "int8[]",
            Kind::Int4 => "int4[]",
            Kind::Bool => "bool[]",
            Kind::Float8 => "float8[]",
            Kind::Text | Kind::Numeric => "text[]",
            Kind::Bytea => "bytea[]",
        }
    }
}

/// What a source column becomes.
enum Slot {
    /// One target column of this kind.
    Column { name: String, kind: Kind },
    /// An object value of any scalar kind: text_value, int_value, real_value and number.
    Scalar { name: String },
}

/// The target columns of an object value, in the order [`value_columns`] fills them.
const SCALAR_COLUMNS: [(&str, Kind); 4] = [
    ("text_value", Kind::Text),
    ("int_value", Kind::Int8),
    ("real_value", Kind::Float8),
    ("number", Kind::Numeric),
];

/// One batch's values of one target column.
enum Array {
    Int8(Vec<Option<i64>>),
    Int4(Vec<Option<i32>>),
    Bool(Vec<Option<bool>>),
    Float8(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
    Bytea(Vec<Option<Vec<u8>>>),
}

impl Array {
    fn new(kind: Kind, rows: usize) -> Array {
        match kind {
            Kind::Int8 => Array::Int8(Vec::with_capacity(rows)),
            Kind::Int4 => Array::Int4(Vec::with_capacity(rows)),
            Kind::Bool => Array::Bool(Vec::with_capacity(rows)),
            Kind::Float8 => Array::Float8(Vec::with_capacity(rows)),
            Kind::Text | Kind::Numeric => Array::Text(Vec::with_capacity(rows)),
            Kind::Bytea => Array::Bytea(Vec::with_capacity(rows)),
        }
    }

    /// Appends `value`; `Err` names why it does not fit.
    fn push(&mut self, value: &Value) -> Result<(), String> {
        let misfit = || format!("a {} value does not fit", value.kind());
        match (self, value) {
            (Array::Int8(values), Value::Null) => values.push(None),
            (Array::Int4(values), Value::Null) => values.push(None),
            (Array::Bool(values), Value::Null) => values.push(None),
            (Array::Float8(values), Value::Null) => values.push(None),
            (Array::Text(values), Value::Null) => values.push(None),
            (Array::Bytea(values), Value::Null) => values.push(None),
            (Array::Int8(values), Value::Integer(n)) => values.push(Some(*n)),
            (Array::Int4(values), Value::Integer(n)) => {
                values.push(Some(i32::try_from(*n).map_err(|_| misfit())?));
            }
            (Array::Bool(values), Value::Integer(n @ (0 | 1))) => values.push(Some(*n == 1)),
            (Array::Float8(values), Value::Real(x)) => values.push(Some(*x)),
            (Array::Text(values), Value::Text(text)) => values.push(Some(text.clone())),
            (Array::Bytea(values), Value::Blob(bytes)) => values.push(Some(bytes.clone())),
            _ => return Err(misfit()),
        }
        Ok(())
    }

    fn param(&self) -> &(dyn ToSql + Sync) {
        match self {
            Array::Int8(values) => values,
            Array::Int4(values) => values,
            Array::Bool(values) => values,
            Array::Float8(values) => values,
            Array::Text(values) => values,
            Array::Bytea(values) => values,
        }
    }
}

impl Sink<'_> {
    fn target(&self) -> Result<&Target, TransferError> {
        self.current.as_ref().ok_or_else(|| {
            TransferError::Store(crate::StoreError::backend(std::io::Error::other(
                "rows written outside a table",
            )))
        })
    }
}

impl FarmSink for Sink<'_> {
    fn plan(&mut self, _tables: &[(&'static Table, u64)]) -> Result<(), TransferError> {
        Ok(())
    }

    fn begin_table(
        &mut self,
        table: &'static Table,
        columns: &[String],
    ) -> Result<(), TransferError> {
        let described = self.conn.query(
            "SELECT column_name::text, data_type::text, is_identity::text = 'YES' \
             FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name = $1",
            &[&table.name],
        )?;
        let mut schema: Vec<(String, String, bool)> = Vec::with_capacity(described.len());
        for row in &described {
            schema.push((row.col(0)?, row.col(1)?, row.col(2)?));
        }
        let kind_of = |name: &str| -> Result<Kind, TransferError> {
            let (_, data_type, _) = schema
                .iter()
                .find(|(column, _, _)| column == name)
                .ok_or_else(|| TransferError::Column {
                    table: table.name,
                    column: name.to_owned(),
                    reason: "the target has no such column".to_owned(),
                })?;
            Kind::of(data_type).ok_or_else(|| TransferError::Column {
                table: table.name,
                column: name.to_owned(),
                reason: format!("the target's column type {data_type} is not one a farm copies"),
            })
        };
        let mut slots = Vec::with_capacity(columns.len());
        let mut targets: Vec<(String, Kind)> = Vec::new();
        for column in columns {
            if table.scalar_column == Some(column.as_str()) {
                for (name, kind) in SCALAR_COLUMNS {
                    if kind_of(name)? != kind {
                        return Err(TransferError::Column {
                            table: table.name,
                            column: name.to_owned(),
                            reason: "the target's object value columns differ".to_owned(),
                        });
                    }
                    targets.push((name.to_owned(), kind));
                }
                slots.push(Slot::Scalar {
                    name: column.clone(),
                });
            } else {
                let kind = kind_of(column)?;
                targets.push((column.clone(), kind));
                slots.push(Slot::Column {
                    name: column.clone(),
                    kind,
                });
            }
        }
        let identities: Vec<String> = schema
            .iter()
            .filter(|(_, _, identity)| *identity)
            .map(|(name, _, _)| name.clone())
            .collect();
        self.current = Some(Target {
            table,
            insert: insert_statement(table, &targets, !identities.is_empty()),
            columns: slots,
            identities,
        });
        Ok(())
    }

    fn write_rows(&mut self, rows: &[Row]) -> Result<(), TransferError> {
        if rows.is_empty() {
            return Ok(());
        }
        let target = self.target()?;
        let mut arrays: Vec<Array> = Vec::new();
        for slot in &target.columns {
            match slot {
                Slot::Column { kind, .. } => arrays.push(Array::new(*kind, rows.len())),
                Slot::Scalar { .. } => {
                    arrays.extend(SCALAR_COLUMNS.map(|(_, kind)| Array::new(kind, rows.len())));
                }
            }
        }
        for row in rows {
            let mut next = 0;
            for (slot, value) in target.columns.iter().zip(row) {
                let fitted = match slot {
                    Slot::Column { .. } => {
                        next += 1;
                        arrays[next - 1].push(value)
                    }
                    Slot::Scalar { .. } => {
                        next += SCALAR_COLUMNS.len();
                        push_scalar(&mut arrays[next - SCALAR_COLUMNS.len()..next], value)
                    }
                };
                fitted.map_err(|reason| TransferError::Column {
                    table: target.table.name,
                    column: match slot {
                        Slot::Column { name, .. } | Slot::Scalar { name } => name.clone(),
                    },
                    reason,
                })?;
            }
            if row.len() != target.columns.len() {
                return Err(TransferError::Column {
                    table: target.table.name,
                    column: "*".to_owned(),
                    reason: format!(
                        "a row has {} values for {} columns",
                        row.len(),
                        target.columns.len()
                    ),
                });
            }
        }
        let params: Vec<&(dyn ToSql + Sync)> = arrays.iter().map(Array::param).collect();
        let insert = target.insert.clone();
        self.conn.execute(&insert, &params)?;
        Ok(())
    }

    fn end_table(&mut self) -> Result<u64, TransferError> {
        let target = self.current.take().ok_or_else(|| {
            TransferError::Store(crate::StoreError::backend(std::io::Error::other(
                "a table ended before it began",
            )))
        })?;
        for column in &target.identities {
            // The next id the target hands out follows the largest copied one.
            self.conn.execute(
                &format!(
                    "SELECT setval(pg_get_serial_sequence($1, $2), max(\"{column}\")) \
                     FROM \"{table}\" HAVING max(\"{column}\") IS NOT NULL",
                    table = target.table.name
                ),
                &[&format!("\"{}\"", target.table.name), column],
            )?;
        }
        count(self.conn, target.table.name)
    }
}

/// `INSERT INTO t (a, b) [OVERRIDING SYSTEM VALUE] SELECT c1, c2 FROM unnest($1::…[], …)`;
/// names come from [`TABLES`] and the target's schema, values are bound.
fn insert_statement(table: &Table, targets: &[(String, Kind)], identity: bool) -> String {
    let names = targets
        .iter()
        .map(|(name, _)| format!("\"{name}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let selected = targets
        .iter()
        .enumerate()
        .map(|(at, (_, kind))| match kind {
            Kind::Numeric => format!("c{at}::numeric"),
            _ => format!("c{at}"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let arrays = targets
        .iter()
        .enumerate()
        .map(|(at, (_, kind))| format!("${}::{}", at + 1, kind.array()))
        .collect::<Vec<_>>()
        .join(", ");
    let aliases = (0..targets.len())
        .map(|at| format!("c{at}"))
        .collect::<Vec<_>>()
        .join(", ");
    let overriding = if identity {
        " OVERRIDING SYSTEM VALUE"
    } else {
        ""
    };
    format!(
        "INSERT INTO \"{}\" ({names}){overriding} SELECT {selected} FROM unnest({arrays}) AS v({aliases})",
        table.name
    )
}

/// An object value into its four columns.
fn push_scalar(arrays: &mut [Array], value: &Value) -> Result<(), String> {
    let stored = match value {
        Value::Text(text) => StoredValue::Text(text.clone()),
        Value::Integer(n) => StoredValue::Integer(*n),
        Value::Real(x) => StoredValue::Real(*x),
        Value::Null | Value::Blob(_) => {
            return Err(format!("an object value cannot be {}", value.kind()));
        }
    };
    let columns = value_columns(&stored);
    let number = |value: Option<i64>| value.map_or(Value::Null, Value::Integer);
    let real = |value: Option<f64>| value.map_or(Value::Null, Value::Real);
    let text = |value: Option<String>| value.map_or(Value::Null, Value::Text);
    for (array, value) in arrays.iter_mut().zip([
        text(columns.text),
        number(columns.int),
        real(columns.real),
        text(columns.number),
    ]) {
        array.push(&value)?;
    }
    Ok(())
}
