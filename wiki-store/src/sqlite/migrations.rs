//! Schema migrations: an append-only list indexed by `PRAGMA user_version`.
//!
//! Rules: never edit or remove an entry once committed; append a new one. Migrations run in one
//! exclusive transaction, so a failed upgrade leaves the file as it was. A file whose version is
//! newer than this build's list is refused untouched ([`StoreError::SchemaTooNew`]).
//!
//! Numbering: 0001-0002 are the core (wikis, documents, history, links, search, changes);
//! 0003 onwards are appended by the other aggregates (users, rights, tokens, attachments, objects,
//! trash, configuration); 0007 records when each token was last used.

use rusqlite::{Connection, TransactionBehavior};

use crate::StoreError;
use crate::sqlite::convert::DbResultExt;

/// One schema step.
#[derive(Clone, Copy)]
pub(crate) struct Migration {
    /// For logs: `0001_core`.
    pub(crate) name: &'static str,
    /// The SQL, run as one batch.
    pub(crate) sql: &'static str,
}

/// Every migration, in order. Append only.
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration {
        name: "0001_core",
        sql: include_str!("sql/0001_core.sql"),
    },
    Migration {
        name: "0003_accounts",
        sql: include_str!("sql/0003_accounts.sql"),
    },
    Migration {
        name: "0004_structured_data",
        sql: include_str!("sql/0004_structured_data.sql"),
    },
    Migration {
        name: "0005_attachments",
        sql: include_str!("sql/0005_attachments.sql"),
    },
    Migration {
        name: "0006_recycle_bin",
        sql: include_str!("sql/0006_recycle_bin.sql"),
    },
    Migration {
        name: "0007_token_last_used",
        sql: include_str!("sql/0007_token_last_used.sql"),
    },
];

/// Brings the database to the newest schema.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    migrate_with(conn, MIGRATIONS)
}

pub(crate) fn migrate_with(
    conn: &mut Connection,
    migrations: &[Migration],
) -> Result<(), StoreError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Exclusive)
        .db()?;
    let found: u32 = tx
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .db()?;
    let supported = u32::try_from(migrations.len()).unwrap_or(u32::MAX);
    if found > supported {
        return Err(StoreError::SchemaTooNew { found, supported });
    }
    for migration in &migrations[found as usize..] {
        tracing::info!(migration = migration.name, "applying schema migration");
        tx.execute_batch(migration.sql).db()?;
    }
    if found < supported {
        // PRAGMA takes no bound parameters; the value is our own count, not input.
        tx.execute_batch(&format!("PRAGMA user_version = {supported}"))
            .db()?;
    }
    tx.commit().db()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(dir: &tempfile::TempDir) -> Connection {
        Connection::open(dir.path().join("wiki.db")).unwrap()
    }

    fn version(conn: &Connection) -> u32 {
        conn.query_row("PRAGMA user_version", [], |row| row.get(0))
            .unwrap()
    }

    #[test]
    fn migrating_twice_is_a_no_op() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = open(&dir);
        migrate(&mut conn).unwrap();
        conn.execute(
            "INSERT INTO wikis (id, pretty_name, created_ms) VALUES ('dev', 'Dev', 1)",
            [],
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        assert_eq!(version(&conn) as usize, MIGRATIONS.len());
        let wikis: i64 = conn
            .query_row("SELECT count(*) FROM wikis", [], |row| row.get(0))
            .unwrap();
        assert_eq!(wikis, 2);
    }

    #[test]
    fn a_newer_schema_is_refused_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = open(&dir);
        migrate(&mut conn).unwrap();
        let newer = MIGRATIONS.len() as u32 + 1;
        conn.execute_batch(&format!("PRAGMA user_version = {newer}"))
            .unwrap();
        let err = migrate(&mut conn).unwrap_err();
        assert!(
            matches!(err, StoreError::SchemaTooNew { found, .. } if found == newer),
            "{err:?}"
        );
        assert_eq!(version(&conn), newer);
    }

    #[test]
    fn a_failed_upgrade_keeps_the_data_and_the_version() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = open(&dir);
        migrate(&mut conn).unwrap();
        conn.execute(
            "INSERT INTO wikis (id, pretty_name, created_ms) VALUES ('dev', 'Dev', 1)",
            [],
        )
        .unwrap();
        let mut broken = MIGRATIONS.to_vec();
        broken.push(Migration {
            name: "9999_broken",
            sql: "DELETE FROM wikis; CREATE TABLE oops (x); SELECT * FROM nowhere;",
        });
        assert!(migrate_with(&mut conn, &broken).is_err());
        assert_eq!(version(&conn) as usize, MIGRATIONS.len());
        let wikis: i64 = conn
            .query_row("SELECT count(*) FROM wikis", [], |row| row.get(0))
            .unwrap();
        assert_eq!(wikis, 2);
        let oops: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'oops'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(oops, 0);
    }
}
