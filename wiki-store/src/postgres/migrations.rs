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
use crate::schema::{self, Migration};
use crate::{Result, StoreError};

/// A migration whose SQL is `sql/<name>.sql`.
macro_rules! migration {
    ($version:literal, $name:literal) => {
        Migration {
            version: $version,
            name: $name,
            sql: include_str!(concat!("sql/", $name, ".sql")),
        }
    };
}

/// Every migration, in order. Append only.
pub(crate) const MIGRATIONS: &[Migration] = &[
    migration!(1, "0001_farm"),
    migration!(2, "0002_vector_indexes"),
    migration!(3, "0003_admin_state"),
    migration!(4, "0004_revision_structure"),
    migration!(5, "0005_leases"),
    migration!(6, "0006_vector_seq"),
];

/// The advisory lock key migrations hold ("wikimcps" in ASCII), the same for every replica.
const MIGRATION_LOCK: i64 = 0x7769_6b69_6d63_7073;

/// Brings the database to the newest schema.
pub(crate) fn migrate(conn: &mut Conn) -> Result<()> {
    migrate_with(conn, MIGRATIONS)
}

/// Brings the database to the newest schema of `migrations` (tests pass a list of their own).
pub(crate) fn migrate_with(conn: &mut Conn, migrations: &[Migration]) -> Result<()> {
    conn.begin("ISOLATION LEVEL READ COMMITTED")?;
    let outcome = upgrade(conn, migrations);
    match outcome {
        Ok(()) => conn.commit(),
        Err(error) => {
            // The failure is what matters; a connection that cannot roll back is dropped.
            let _ = conn.rollback();
            Err(error)
        }
    }
}

fn upgrade(conn: &mut Conn, migrations: &[Migration]) -> Result<()> {
    conn.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    conn.batch(
        "CREATE TABLE IF NOT EXISTS schema_version (\
             id integer PRIMARY KEY CHECK (id = 1), \
             version integer NOT NULL CHECK (version >= 0))",
    )?;
    let found = match conn.query_opt("SELECT version FROM schema_version WHERE id = 1", &[])? {
        Some(row) => u32::try_from(row.col::<i32>(0)?)
            .map_err(|_| crate::stored::corrupt("schema version"))?,
        None => 0,
    };
    let pending = schema::pending(migrations, found)?;
    for migration in pending {
        tracing::info!(migration = migration.name, "applying schema migration");
        conn.batch(migration.sql)?;
    }
    if !pending.is_empty() {
        let latest = i32::try_from(schema::latest(migrations)).map_err(|_| {
            StoreError::backend(std::io::Error::other("schema version out of range"))
        })?;
        conn.execute(
            "INSERT INTO schema_version (id, version) VALUES (1, $1) \
             ON CONFLICT (id) DO UPDATE SET version = excluded.version",
            &[&latest],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::schema::list_problems;

    #[test]
    fn the_list_names_each_file_by_its_schema_version() {
        assert_eq!(list_problems(MIGRATIONS), Vec::<String>::new());
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/postgres/sql");
        let files: BTreeSet<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|entry| entry.ok())
            .filter_map(|entry| {
                entry
                    .file_name()
                    .to_str()
                    .and_then(|name| name.strip_suffix(".sql"))
                    .map(str::to_owned)
            })
            .collect();
        let listed: BTreeSet<String> = MIGRATIONS.iter().map(|m| m.name.to_owned()).collect();
        assert_eq!(
            files, listed,
            "every sql/ file is in the list, and only those"
        );
    }
}
