//! PostgreSQL's schema: its ordered migration list, and the version a database records in
//! `schema_version`.
//!
//! The naming and ordering rules are [`crate::schema`]'s, shared with every backend:
//! `sql/NNNN_*.sql` makes schema version NNNN, the list is append-only, a newer database is
//! refused untouched. An upgrade runs in one transaction under an advisory lock, so several
//! replicas starting at once take turns (the first migrates, the others find it done), and a
//! failed upgrade leaves the database as it was.

use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::schema::{self, Migration, SchemaRows, migration};
use crate::{Result, StoreError};

/// Every migration, in order. Append only.
pub(crate) const MIGRATIONS: &[Migration] = &[
    migration!(1, "0001_farm"),
    migration!(2, "0002_vector_indexes"),
    migration!(3, "0003_admin_state"),
    migration!(4, "0004_revision_structure"),
    migration!(5, "0005_leases"),
    migration!(6, "0006_vector_seq"),
    migration!(7, "0007_identity_links"),
    migration!(8, "0008_token_scope"),
];

/// The advisory lock key migrations hold ("wikimcps" in ASCII), the same for every replica.
const MIGRATION_LOCK: i64 = 0x7769_6b69_6d63_7073;

/// Brings the database to the newest schema.
pub(crate) fn migrate(conn: &mut Conn) -> Result<()> {
    migrate_with(conn, MIGRATIONS)
}

/// Brings the database to the newest schema of `migrations` (tests pass a list of their own),
/// in one transaction under the advisory lock.
pub(crate) fn migrate_with(conn: &mut Conn, migrations: &[Migration]) -> Result<()> {
    conn.begin("ISOLATION LEVEL READ COMMITTED")?;
    let outcome = conn
        .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .and_then(|_| schema::upgrade(conn, migrations));
    match outcome {
        Ok(()) => conn.commit(),
        Err(error) => {
            // The failure is what matters; a connection that cannot roll back is dropped.
            let _ = conn.rollback();
            Err(error)
        }
    }
}

impl SchemaRows for Conn {
    fn schema_version(&mut self) -> Result<u32> {
        self.batch(
            "CREATE TABLE IF NOT EXISTS schema_version (\
                 id integer PRIMARY KEY CHECK (id = 1), \
                 version integer NOT NULL CHECK (version >= 0))",
        )?;
        match self.query_opt("SELECT version FROM schema_version WHERE id = 1", &[])? {
            Some(row) => u32::try_from(row.col::<i32>(0)?)
                .map_err(|_| crate::stored::corrupt("schema version")),
            None => Ok(0),
        }
    }

    fn apply(&mut self, sql: &str) -> Result<()> {
        self.batch(sql)
    }

    fn set_schema_version(&mut self, version: u32) -> Result<()> {
        let version = i32::try_from(version).map_err(|_| {
            StoreError::backend(std::io::Error::other("schema version out of range"))
        })?;
        self.execute(
            "INSERT INTO schema_version (id, version) VALUES (1, $1) \
             ON CONFLICT (id) DO UPDATE SET version = excluded.version",
            &[&version],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_names_each_file_by_its_schema_version() {
        schema::check_list(MIGRATIONS, "src/postgres/sql");
    }
}
