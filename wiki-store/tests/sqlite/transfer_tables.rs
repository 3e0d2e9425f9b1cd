//! The farm copy (`wiki_store::transfer`) knows every table of the SQLite schema: a migration
//! adding a table without adding it to `TABLES` fails here (and `migrate` would refuse to run),
//! instead of a migrated farm silently missing it.

use wiki_store::SqliteStore;
use wiki_store::sqlite::DATABASE_FILE;
use wiki_store::transfer::{BOOKKEEPING, TABLES};

#[test]
fn every_sqlite_table_is_one_the_farm_copy_copies() {
    let dir = tempfile::tempdir().unwrap();
    drop(SqliteStore::open(dir.path()).unwrap());
    let conn = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    // Ordinary tables only: SQLite's own, the full-text index (a virtual table derived from
    // `documents`) and its shadow tables are not farm content.
    let mut tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM pragma_table_list \
             WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    tables.sort();
    let mut copied: Vec<String> = TABLES.iter().map(|t| t.name.to_owned()).collect();
    copied.sort();
    let forgotten: Vec<&String> = tables
        .iter()
        .filter(|name| !copied.contains(name) && !BOOKKEEPING.contains(&name.as_str()))
        .collect();
    assert!(
        forgotten.is_empty(),
        "tables of the SQLite schema that `wiki-mcp migrate` would not copy: {forgotten:?}; \
         add each to wiki_store::transfer::TABLES (parents before children), with the same \
         name and column names in the PostgreSQL schema"
    );
    let gone: Vec<&String> = copied
        .iter()
        .filter(|name| !tables.contains(name))
        .collect();
    assert!(
        gone.is_empty(),
        "TABLES lists tables SQLite does not have: {gone:?}"
    );
}
