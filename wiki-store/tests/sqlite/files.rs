//! SQLite only: the files in the data directory, the data_version commit marker across
//! processes (and its reuse window), and what a damaged or inspected database file shows.

use wiki_store::model::document::DocumentSave;
use wiki_store::model::mcp_config::{McpConfig, SpaceFilterMode};
use wiki_store::model::wiki::WikiId;
use wiki_store::{
    ChangeFeed, ConfigStore, DocumentStore, SqliteStore, StoreConfig, TokenStore, UserStore,
    WikiStore,
};

use crate::harness::{data, database_file, put, reference, store};

#[test]
fn the_data_directory_holds_one_database_in_wal_mode() {
    let (dir, store) = store();
    put(&store, "Files.Page", "content");
    assert_eq!(store.database_path(), database_file(&dir));
    let conn = rusqlite::Connection::open(database_file(&dir)).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let mut names: Vec<String> = std::fs::read_dir(data(&dir))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["wiki.db", "wiki.db-shm", "wiki.db-wal"]);
}

#[test]
fn the_commit_marker_moves_with_own_commits_at_once_and_others_within_the_window() {
    let (dir, store) = store();
    // A second store on the same file stands for another process: it shares nothing in memory.
    let other = SqliteStore::open(data(&dir)).unwrap();
    let quiet = store.commit_marker().unwrap();
    assert_eq!(store.change_seq().unwrap(), other.change_seq().unwrap());
    assert_eq!(store.commit_marker().unwrap(), quiet);

    put(&store, "Marker.A", "a");
    let after_own = store.commit_marker().unwrap();
    assert_ne!(after_own, quiet);
    assert_eq!(store.commit_marker().unwrap(), after_own);

    // data_version moves for a commit by another connection, which is what lets a server skip
    // the sequence read on every request without missing another process's write; a reading is
    // reused for at most the window, so the commit shows once the window has passed.
    put(&other, "Marker.B", "b");
    std::thread::sleep(wiki_store::sqlite::MARKER_WINDOW);
    let after_other = store.commit_marker().unwrap();
    assert_ne!(after_other, after_own);
    std::thread::sleep(wiki_store::sqlite::MARKER_WINDOW);
    assert_eq!(store.commit_marker().unwrap(), after_other);
}

#[test]
fn within_the_window_a_reading_is_reused_but_never_past_an_own_commit() {
    let (dir, _) = store();
    // A window no test outlasts, so what is reused and what is not does not depend on timing.
    let long = StoreConfig {
        commit_marker_window_ms: 3_600_000,
        ..StoreConfig::default()
    };
    let store = SqliteStore::open_with(data(&dir), long).unwrap();
    let other = SqliteStore::open(data(&dir)).unwrap();
    let first = store.commit_marker().unwrap();

    // Another connection's commit is not asked for while the reading is fresh: the probe's
    // file locks are not paid on every call.
    put(&other, "Window.Other", "b");
    assert_eq!(store.commit_marker().unwrap(), first);

    // This store's own commit forgets the reading: it shows at once, and so does everything
    // committed before it by anyone.
    put(&store, "Window.Own", "a");
    let after_own = store.commit_marker().unwrap();
    assert_ne!(after_own, first);
    assert_eq!(store.commit_marker().unwrap(), after_own);

    // A window of 0 asks every time.
    let eager = SqliteStore::open_with(
        data(&dir),
        StoreConfig {
            commit_marker_window_ms: 0,
            ..StoreConfig::default()
        },
    )
    .unwrap();
    let before = eager.commit_marker().unwrap();
    put(&other, "Window.Again", "c");
    assert_ne!(eager.commit_marker().unwrap(), before);
}

#[test]
fn the_clear_token_never_reaches_the_file() {
    let (dir, store) = store();
    store.create_user("alice", None).unwrap();
    let issued = store.create_token("alice", "laptop").unwrap();
    let clear = issued.token.expose().to_owned();
    drop(store);
    let mut bytes = std::fs::read(database_file(&dir)).unwrap();
    // Whatever is still in the write-ahead log counts too.
    bytes.extend(std::fs::read(data(&dir).join("wiki.db-wal")).unwrap_or_default());
    // `wmcp_<prefix>_<secret>`: the secret is base64url, which may itself contain '_'.
    let secret = clear.splitn(3, '_').nth(2).unwrap().as_bytes();
    assert_eq!(secret.len(), 43);
    assert!(!bytes.windows(secret.len()).any(|w| w == secret));
}

#[test]
fn a_corrupt_configuration_value_fails_closed() {
    let (dir, store) = store();
    store
        .set_mcp_config(&WikiId::main(), &McpConfig::default(), "admin")
        .unwrap();
    let conn = rusqlite::Connection::open(database_file(&dir)).unwrap();
    conn.execute(
        "UPDATE object_values SET value = 'maybe' WHERE field = 'enabled'",
        [],
    )
    .unwrap();
    let config = store.mcp_config(&WikiId::main());
    assert_eq!(config, McpConfig::fail_closed());
    assert!(
        !config.enabled
            && !config.guest_access
            && config.space_filter_mode == SpaceFilterMode::DenyAll
    );
    assert!(!store.has_reach(&WikiId::main()));
}

#[test]
fn deleting_a_wiki_leaves_the_full_text_index_consistent() {
    let (_dir, store) = store();
    let gone = WikiId::new("gone").unwrap();
    store.create_wiki(&gone, "Gone").unwrap();
    store
        .save_document(&DocumentSave::new(
            wiki_store::reference::DocumentReference::parse("gone:Old.Page", &WikiId::main())
                .unwrap(),
            "ephemeral words",
            "a",
        ))
        .unwrap();
    put(&store, "Kept.Page", "kept words");
    store.delete_wiki(&gone).unwrap();
    assert_eq!(store.integrity_check().unwrap(), Vec::<String>::new());
    assert!(
        store
            .document(&reference("Kept.Page"), None)
            .unwrap()
            .is_some()
    );
}
