//! Copying a whole farm from one backend to another (`wiki-mcp migrate`), table by table,
//! value for value, in bounded batches.
//!
//! Both backends keep the same tables with the same column names and encodings (see
//! `stored.rs` and the PostgreSQL schema's header), so a farm moves as rows of neutral
//! [`Value`]s: a [`FarmExport`] streams every table of [`TABLES`] from one snapshot, parents
//! first; a [`FarmImport`] writes them into an empty target inside one transaction and counts
//! what it holds; [`copy_farm`] drives the two, checks every table's count and commits only
//! when all of them match. Whatever fails, the target is left as it was, empty, and the copy can
//! simply be run again. Memory stays bounded by [`BatchLimits`] whatever the farm's size.

mod tables;

pub use tables::{BOOKKEEPING, TABLES, table};

use crate::StoreError;

/// One column value as both backends can hold it (SQLite's storage classes).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// An integer (booleans are 0 or 1, instants milliseconds).
    Integer(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(String),
    /// Bytes (attachment contents, token digests, secrets, vectors).
    Blob(Vec<u8>),
}

impl Value {
    /// Bytes this value holds, for bounding a batch.
    pub fn size(&self) -> usize {
        match self {
            Value::Null | Value::Integer(_) | Value::Real(_) => 8,
            Value::Text(text) => text.len(),
            Value::Blob(bytes) => bytes.len(),
        }
    }

    /// The kind of value, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Integer(_) => "integer",
            Value::Real(_) => "real",
            Value::Text(_) => "text",
            Value::Blob(_) => "blob",
        }
    }
}

/// One row: its values in the order of the columns its table was begun with.
pub type Row = Vec<Value>;

/// A table of the farm as a copy knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    /// Its name in every backend's schema.
    pub name: &'static str,
    /// What its rows are, for progress and the final report ("document rows", "revisions").
    pub kind: &'static str,
    /// Whether the target's schema creates rows in it (the main wiki, the change sequence):
    /// they are replaced by the source's.
    pub seeded: bool,
    /// A column holding an object value of any scalar kind (SQLite's `ANY`: text, integer or
    /// real); a backend without such a type stores it its own way (PostgreSQL: one column per
    /// kind plus the exact number).
    pub scalar_column: Option<&'static str>,
}

impl Table {
    const fn new(name: &'static str, kind: &'static str) -> Self {
        Table {
            name,
            kind,
            seeded: false,
            scalar_column: None,
        }
    }

    const fn seeded(self) -> Self {
        Table {
            seeded: true,
            ..self
        }
    }

    const fn with_scalar_column(self, column: &'static str) -> Self {
        Table {
            scalar_column: Some(column),
            ..self
        }
    }
}

/// How much a batch of rows may hold: a batch ends at whichever bound comes first (a single
/// row larger than `bytes`, an attachment say, is a batch of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchLimits {
    /// Rows per batch.
    pub rows: usize,
    /// Bytes of values per batch.
    pub bytes: usize,
}

impl Default for BatchLimits {
    fn default() -> Self {
        BatchLimits {
            rows: 1_000,
            bytes: 16 * 1024 * 1024,
        }
    }
}

/// Where an export writes a farm: every table in [`TABLES`] order, each begun, filled in
/// batches, then ended.
pub trait FarmSink {
    /// Before any table: every table with the number of rows the source holds in it.
    fn plan(&mut self, tables: &[(&'static Table, u64)]) -> Result<(), TransferError>;
    /// Starts `table`, whose rows will carry `columns` (the source's column names) in order.
    fn begin_table(
        &mut self,
        table: &'static Table,
        columns: &[String],
    ) -> Result<(), TransferError>;
    /// Writes a batch of rows of the table begun last.
    fn write_rows(&mut self, rows: &[Row]) -> Result<(), TransferError>;
    /// Ends the table begun last; the number of rows the target now holds in it.
    fn end_table(&mut self) -> Result<u64, TransferError>;
}

/// A backend a farm can be copied from.
pub trait FarmExport {
    /// Writes the whole farm into `sink` from one consistent snapshot, in batches within
    /// `limits`. Refuses a farm holding a table this build does not know (one [`TABLES`] lacks).
    fn export_farm(
        &self,
        limits: BatchLimits,
        sink: &mut dyn FarmSink,
    ) -> Result<(), TransferError>;
}

/// A backend a farm can be copied into.
pub trait FarmImport {
    /// Checks that the target holds no farm ([`TransferError::TargetNotEmpty`] otherwise), then
    /// runs `fill` with a sink writing into one transaction, committed when `fill` succeeds and
    /// rolled back (the target left empty) when it fails.
    fn import_farm(
        &self,
        fill: &mut dyn FnMut(&mut dyn FarmSink) -> Result<(), TransferError>,
    ) -> Result<(), TransferError>;
}

/// Why a copy stopped. Whatever the cause, nothing was committed in the target.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransferError {
    /// The target already holds data.
    #[error(
        "the target is not empty ({table} holds {rows} rows): migrate copies a farm into an \
         empty database only; create a new database (or drop and re-create this one) and retry"
    )]
    TargetNotEmpty {
        /// A table holding rows.
        table: String,
        /// How many.
        rows: u64,
    },
    /// The source holds a table this build does not know how to copy.
    #[error(
        "the source holds the table `{0}`, which this build does not copy: update wiki-mcp (or \
         add the table to wiki_store::transfer::TABLES)"
    )]
    UnknownTable(String),
    /// A source column has no counterpart in the target, or a value does not fit its column.
    #[error("cannot copy {table}.{column}: {reason}")]
    Column {
        /// The table.
        table: &'static str,
        /// The column.
        column: String,
        /// Why.
        reason: String,
    },
    /// The target's count of a table differs from the rows copied into it.
    #[error(
        "verification failed: {table} holds {found} rows in the target, {expected} were copied"
    )]
    Mismatch {
        /// The table.
        table: &'static str,
        /// Rows copied (the source's count).
        expected: u64,
        /// Rows the target holds.
        found: u64,
    },
    /// Reading the source or writing the target failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A secret to write into the target's `farm_secrets` in place of the source's row of that
/// name, if any: a secret the source backend keeps outside its tables (SQLite's link-signing
/// key file) and the target keeps in them.
#[derive(Clone)]
pub struct SecretOverride {
    /// The secret's name.
    pub name: String,
    /// Its bytes.
    pub value: Vec<u8>,
    /// When it was created (milliseconds since the epoch).
    pub created_ms: i64,
}

impl std::fmt::Debug for SecretOverride {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecretOverride")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// What a copy did so far, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Rows copied, all tables together.
    pub rows: u64,
    /// Rows to copy in all.
    pub total: u64,
    /// The table being copied.
    pub table: &'static Table,
}

/// One table of a finished copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copied {
    /// The table.
    pub table: &'static Table,
    /// Rows copied, equal to the target's count.
    pub rows: u64,
}

/// Copies the whole farm from `source` into the empty `target`, writing `secrets` in place of
/// the source's rows of the same names, and commits only when every table's count in the target
/// equals the rows copied into it. Calls `progress` after every batch.
pub fn copy_farm(
    source: &dyn FarmExport,
    target: &dyn FarmImport,
    secrets: &[SecretOverride],
    limits: BatchLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<Copied>, TransferError> {
    let mut copied = Vec::new();
    target.import_farm(&mut |sink| {
        copied.clear();
        let mut verifying = Verifying {
            target: sink,
            secrets,
            progress: &mut *progress,
            copied: &mut copied,
            current: None,
            rows: 0,
            total: 0,
        };
        source.export_farm(limits, &mut verifying)
    })?;
    Ok(copied)
}

/// The sink [`copy_farm`] puts between the source and the target: it swaps in the secret
/// overrides, counts, reports progress, and compares each table's count in the target.
struct Verifying<'a> {
    target: &'a mut dyn FarmSink,
    secrets: &'a [SecretOverride],
    progress: &'a mut dyn FnMut(Progress),
    copied: &'a mut Vec<Copied>,
    /// The table being copied, the index of its secret-name column (farm_secrets only), and
    /// the rows written into it.
    current: Option<(&'static Table, Option<usize>, u64)>,
    rows: u64,
    total: u64,
}

impl Verifying<'_> {
    fn current(&mut self) -> Result<&mut (&'static Table, Option<usize>, u64), TransferError> {
        self.current.as_mut().ok_or_else(|| {
            TransferError::Store(StoreError::backend(std::io::Error::other(
                "rows written outside a table",
            )))
        })
    }
}

impl FarmSink for Verifying<'_> {
    fn plan(&mut self, tables: &[(&'static Table, u64)]) -> Result<(), TransferError> {
        self.total = tables.iter().map(|(_, rows)| rows).sum();
        self.target.plan(tables)
    }

    fn begin_table(
        &mut self,
        table: &'static Table,
        columns: &[String],
    ) -> Result<(), TransferError> {
        let overrides = table.name == SECRETS_TABLE && !self.secrets.is_empty();
        // The overrides carry the columns of 0007_farm_secrets in its order; a source with
        // other columns is refused rather than guessed at.
        if overrides && !columns.iter().map(String::as_str).eq(SECRET_COLUMNS) {
            return Err(TransferError::Column {
                table: SECRETS_TABLE,
                column: columns.join(", "),
                reason: format!("expected the columns {}", SECRET_COLUMNS.join(", ")),
            });
        }
        self.current = Some((table, overrides.then_some(0), 0));
        self.target.begin_table(table, columns)
    }

    fn write_rows(&mut self, rows: &[Row]) -> Result<(), TransferError> {
        let secrets = self.secrets;
        let (table, secret_name, written) = *self.current()?;
        let overridden = |row: &Row| {
            secret_name.is_some_and(|at| {
                matches!(row.get(at), Some(Value::Text(name))
                    if secrets.iter().any(|secret| &secret.name == name))
            })
        };
        // Progress counts the source's rows, replaced ones included, so it ends at the total.
        self.rows += rows.len() as u64;
        let kept: Vec<Row>;
        let rows = if rows.iter().any(overridden) {
            kept = rows
                .iter()
                .filter(|row| !overridden(row))
                .cloned()
                .collect();
            &kept[..]
        } else {
            rows
        };
        self.target.write_rows(rows)?;
        self.current()?.2 = written + rows.len() as u64;
        (self.progress)(Progress {
            rows: self.rows,
            total: self.total,
            table,
        });
        Ok(())
    }

    fn end_table(&mut self) -> Result<u64, TransferError> {
        let (table, _, mut written) = *self.current()?;
        if table.name == SECRETS_TABLE && !self.secrets.is_empty() {
            let rows: Vec<Row> = self
                .secrets
                .iter()
                .map(|secret| {
                    vec![
                        Value::Text(secret.name.clone()),
                        Value::Blob(secret.value.clone()),
                        Value::Integer(secret.created_ms),
                    ]
                })
                .collect();
            self.target.write_rows(&rows)?;
            written += rows.len() as u64;
        }
        let found = self.target.end_table()?;
        self.current = None;
        if found != written {
            return Err(TransferError::Mismatch {
                table: table.name,
                expected: written,
                found,
            });
        }
        self.copied.push(Copied {
            table,
            rows: written,
        });
        Ok(found)
    }
}

/// The table secrets are kept in, and its columns.
const SECRETS_TABLE: &str = "farm_secrets";
const SECRET_COLUMNS: [&str; 3] = ["name", "value", "created_ms"];
