//! SQLite's schema: its ordered migration list, indexed by `PRAGMA user_version`.
//!
//! The naming and ordering rules are [`crate::schema`]'s, shared with every backend: `sql/NNNN_*.sql`
//! makes schema version NNNN, the list is append-only, a newer database is refused untouched.
//! Migrations run in one exclusive transaction, so a failed upgrade leaves the file as it was.
//! Each version is tested from empty and from the version before it, with data (`tests.rs`).

use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::StoreError;
use crate::schema::{self, Migration, SchemaRows, migration};
use crate::sqlite::convert::DbResultExt;

/// Every migration, in order. Append only.
pub(crate) const MIGRATIONS: &[Migration] = &[
    migration!(1, "0001_core"),
    migration!(2, "0002_accounts"),
    migration!(3, "0003_structured_data"),
    migration!(4, "0004_attachments"),
    migration!(5, "0005_recycle_bin"),
    migration!(6, "0006_token_last_used"),
    migration!(7, "0007_farm_secrets"),
    migration!(8, "0008_vector_indexes"),
    migration!(9, "0009_admin_state"),
    migration!(10, "0010_revision_structure"),
    migration!(11, "0011_leases"),
    migration!(12, "0012_vector_seq"),
    migration!(13, "0013_identity_links"),
    migration!(14, "0014_token_scope"),
];

/// Brings the database to the newest schema.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    migrate_with(conn, MIGRATIONS)
}

/// Brings the database to the newest schema of `migrations` (tests pass a prefix of the list to
/// build an older schema), in one exclusive transaction.
pub(crate) fn migrate_with(
    conn: &mut Connection,
    migrations: &[Migration],
) -> Result<(), StoreError> {
    let mut tx = conn
        .transaction_with_behavior(TransactionBehavior::Exclusive)
        .db()?;
    schema::upgrade(&mut tx, migrations)?;
    tx.commit().db()
}

impl SchemaRows for Transaction<'_> {
    fn schema_version(&mut self) -> Result<u32, StoreError> {
        self.query_row("PRAGMA user_version", [], |row| row.get(0))
            .db()
    }

    fn apply(&mut self, sql: &str) -> Result<(), StoreError> {
        self.execute_batch(sql).db()
    }

    fn set_schema_version(&mut self, version: u32) -> Result<(), StoreError> {
        // PRAGMA takes no bound parameters; the value is our own version number, not input.
        self.execute_batch(&format!("PRAGMA user_version = {version}"))
            .db()
    }
}

#[cfg(test)]
mod tests;
