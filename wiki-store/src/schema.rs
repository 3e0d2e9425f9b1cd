//! Schema versions, for every backend: each backend keeps one ordered, append-only list of
//! migrations, and these rules say which of them a database needs.
//!
//! A migration's name is its schema version, zero-padded to four digits, then what it adds
//! (`0006_token_last_used` makes schema version 6); the list holds versions `1..=N` in order, so
//! the version a database records is also the number of migrations it has applied. An entry is
//! never edited or removed once released: a change is a new entry. A database newer than the
//! list is refused untouched ([`StoreError::SchemaTooNew`]): this build does not know its shape.

use crate::{Result, StoreError};

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
