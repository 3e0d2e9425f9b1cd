//! Schema versions, for every backend: each backend keeps one ordered, append-only list of
//! migrations, and these rules say which of them a database needs.
//!
//! A migration's name is its schema version, zero-padded to four digits, then what it adds
//! (`0006_token_last_used` makes schema version 6); the list holds versions `1..=N` in order, so
//! the version a database records is also the number of migrations it has applied. An entry is
//! never edited or removed once released: a change is a new entry. A database newer than the
//! list is refused untouched ([`StoreError::SchemaTooNew`]): this build does not know its shape.
//!
//! One runner ([`upgrade`]) applies a list over a backend's [`SchemaRows`]: where the version is
//! recorded and how SQL runs are the backend's, as is the one transaction (and lock) it all
//! runs in, so a failed upgrade leaves the database as it was.

use crate::{Result, StoreError};

/// A migration whose SQL is `sql/<name>.sql` beside the file naming it.
macro_rules! migration {
    ($version:literal, $name:literal) => {
        $crate::schema::Migration {
            version: $version,
            name: $name,
            sql: include_str!(concat!("sql/", $name, ".sql")),
        }
    };
}

pub(crate) use migration;

/// What an upgrade asks of a backend, inside the one transaction it runs in.
pub(crate) trait SchemaRows {
    /// The schema version the database records (0 for a new database).
    fn schema_version(&mut self) -> Result<u32>;

    /// Runs a migration's SQL, a batch of statements.
    fn apply(&mut self, sql: &str) -> Result<()>;

    /// Records `version` as the database's schema version.
    fn set_schema_version(&mut self, version: u32) -> Result<()>;
}

/// Brings the database to the newest schema of `migrations`, refusing a newer one untouched.
pub(crate) fn upgrade<S: SchemaRows>(rows: &mut S, migrations: &[Migration]) -> Result<()> {
    let pending = pending(migrations, rows.schema_version()?)?;
    for migration in pending {
        tracing::info!(migration = migration.name, "applying schema migration");
        rows.apply(migration.sql)?;
    }
    if !pending.is_empty() {
        rows.set_schema_version(latest(migrations))?;
    }
    Ok(())
}

/// One schema step of a backend.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Migration {
    /// The schema version this step brings a database to.
    pub(crate) version: u32,
    /// `NNNN_what`, the name of its SQL file without the extension.
    pub(crate) name: &'static str,
    /// The SQL, run as one batch inside the upgrade's transaction.
    pub(crate) sql: &'static str,
}

/// The newest schema version a list brings a database to.
pub(crate) fn latest(migrations: &[Migration]) -> u32 {
    migrations.last().map_or(0, |migration| migration.version)
}

/// The migrations a database at schema version `found` still needs, in order; a database newer
/// than the list is refused.
pub(crate) fn pending(migrations: &[Migration], found: u32) -> Result<&[Migration]> {
    let supported = latest(migrations);
    if found > supported {
        return Err(StoreError::SchemaTooNew { found, supported });
    }
    Ok(&migrations[migrations.partition_point(|migration| migration.version <= found)..])
}

/// Why a migration list breaks the naming and ordering rules, if it does (checked by each
/// backend's tests, against its `sql/` directory too).
#[cfg(test)]
pub(crate) fn list_problems(migrations: &[Migration]) -> Vec<String> {
    let mut problems = Vec::new();
    for (index, migration) in migrations.iter().enumerate() {
        let expected = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if migration.version != expected {
            problems.push(format!(
                "{} is at position {expected} but says version {}",
                migration.name, migration.version
            ));
        }
        let prefix = format!("{:04}_", migration.version);
        let what = migration.name.strip_prefix(&prefix);
        if what.is_none_or(|what| {
            what.is_empty()
                || !what
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        }) {
            problems.push(format!(
                "{} should be named {prefix}<what> (lowercase, digits, '_')",
                migration.name
            ));
        }
        if migration.sql.trim().is_empty() {
            problems.push(format!("{} has no SQL", migration.name));
        }
    }
    problems
}

/// Checks a backend's list against the rules and against its `sql/` directory (`dir`, from the
/// crate's root): every file is listed, and only those.
#[cfg(test)]
pub(crate) fn check_list(migrations: &[Migration], dir: &str) {
    assert_eq!(list_problems(migrations), Vec::<String>::new());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let files: std::collections::BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    let listed: std::collections::BTreeSet<String> = migrations
        .iter()
        .map(|migration| format!("{}.sql", migration.name))
        .collect();
    assert_eq!(
        files, listed,
        "every file in sql/ is in the list, and only those"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &[Migration] = &[
        Migration {
            version: 1,
            name: "0001_core",
            sql: "CREATE TABLE a (x)",
        },
        Migration {
            version: 2,
            name: "0002_more",
            sql: "CREATE TABLE b (x)",
        },
    ];

    #[test]
    fn a_database_needs_the_migrations_after_its_version() {
        let names = |found| -> Vec<&str> {
            pending(LIST, found)
                .unwrap_or_else(|e| panic!("{e}"))
                .iter()
                .map(|m| m.name)
                .collect()
        };
        assert_eq!(names(0), ["0001_core", "0002_more"]);
        assert_eq!(names(1), ["0002_more"]);
        assert!(names(2).is_empty());
        assert!(matches!(
            pending(LIST, 3),
            Err(StoreError::SchemaTooNew {
                found: 3,
                supported: 2
            })
        ));
    }

    #[test]
    fn names_must_be_their_versions_in_order() {
        assert!(list_problems(LIST).is_empty());
        let gap = [
            LIST[0],
            Migration {
                version: 3,
                name: "0003_more",
                ..LIST[1]
            },
        ];
        assert_eq!(list_problems(&gap).len(), 1, "version 3 at position 2");
        let misnamed = [
            LIST[0],
            Migration {
                name: "0003_more",
                ..LIST[1]
            },
        ];
        assert_eq!(list_problems(&misnamed).len(), 1, "version 2 named 0003");
        let unnamed = [Migration {
            name: "0001_",
            ..LIST[0]
        }];
        assert_eq!(list_problems(&unnamed).len(), 1);
    }
}
