//! Every schema version from empty and from the version before it: a database built at N-1
//! with data (raw rows, as that version's code wrote them) is migrated to N, the data is checked
//! to have survived, the new shape to accept what it is for, and the store of this build to read
//! the old data through its API once the file is brought up to date.

use rusqlite::params;
use tempfile::TempDir;

use super::*;
use crate::api::{
    AdminStore, AttachmentStore, DocumentStore, IdentityStore, LeaseStore, ObjectStore,
    RightsStore, SearchStore, SecretStore, TokenStore, TrashStore, UserStore, VectorStore,
};
use crate::model::admin::AdminSession;
use crate::model::document::Expected;
use crate::model::search::{SearchQuery, WikiScope};
use crate::model::structure::StructureComparison;
use crate::model::trash::DocumentDelete;
use crate::model::vector::VectorIndex;
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::reference::DocumentReference;
use crate::sqlite::{DATABASE_FILE, SqliteStore};

fn open(dir: &TempDir) -> Connection {
    let conn = Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    conn
}

fn version(conn: &Connection) -> u32 {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap()
}

fn count(conn: &Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |row| row.get(0)).unwrap()
}

/// A fresh database at schema version `n`.
fn at_version(n: u32) -> (TempDir, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = open(&dir);
    upgrade(&mut conn, n);
    (dir, conn)
}

/// Migrates to schema version `n` exactly.
fn upgrade(conn: &mut Connection, n: u32) {
    migrate_with(conn, &MIGRATIONS[..n as usize]).unwrap();
    assert_eq!(version(conn), n);
    let problems: Vec<String> = conn
        .prepare("PRAGMA foreign_key_check")
        .unwrap()
        .query_map([], |row| row.get::<_, String>(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert!(problems.is_empty(), "foreign keys broken in {problems:?}");
}

/// The store of this build on the directory, which migrates the rest of the way.
fn current_store(dir: &TempDir, conn: Connection) -> SqliteStore {
    drop(conn);
    SqliteStore::open(dir.path()).unwrap()
}

fn page(input: &str) -> DocumentReference {
    DocumentReference::parse(input, &WikiId::main()).unwrap()
}

/// A document row with one revision and one link, as schema 1 holds it; returns its id.
fn insert_document(conn: &Connection, space: &str, name: &str, content: &str) -> i64 {
    let id: i64 = conn
        .query_row(
            "INSERT INTO documents (wiki, space, name, locale, language, title, content, syntax, hidden, \
             creator, author, created_ms, updated_ms, version_major, version_minor) \
             VALUES ('main', ?1, ?2, '', 'en', 'Old title', ?3, 'markdown/1.0', 0, 'alice', 'alice', 1000, 1000, 1, 1) \
             RETURNING id",
            params![space, name, content],
            |row| row.get(0),
        )
        .unwrap();
    conn.execute(
        "INSERT INTO revisions (document_id, major, minor, title, content, syntax, hidden, author, comment, saved_ms) \
         VALUES (?1, 1, 1, 'Old title', ?2, 'markdown/1.0', 0, 'alice', 'first', 1000)",
        params![id, content],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO links (source_id, position, target_wiki, target_space, target_name, attachment) \
         VALUES (?1, 0, 'main', 'Target', 'Page', NULL)",
        [id],
    )
    .unwrap();
    id
}

#[test]
fn the_list_names_each_file_by_its_schema_version() {
    schema::check_list(MIGRATIONS, "src/sqlite/sql");
}

#[test]
fn every_version_builds_from_empty() {
    for n in 1..=schema::latest(MIGRATIONS) {
        let (_dir, conn) = at_version(n);
        let integrity: String = conn
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .unwrap();
        assert_eq!(integrity, "ok", "schema version {n}");
        assert_eq!(
            count(&conn, "SELECT count(*) FROM wikis"),
            1,
            "the main wiki at {n}"
        );
    }
}

#[test]
fn version_2_accounts_from_1() {
    let (dir, mut conn) = at_version(1);
    let id = insert_document(&conn, "Old", "Page", "survivor words");
    upgrade(&mut conn, 2);
    assert_eq!(count(&conn, "SELECT count(*) FROM revisions"), 1);
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM documents_fts WHERE documents_fts MATCH 'survivor'"
        ),
        1,
        "the full-text index survived"
    );
    conn.execute_batch(
        "INSERT INTO users (name, display_name, created_ms) VALUES ('alice', 'Alice', 1);
         INSERT INTO groups (name, created_ms) VALUES ('editors', 1);
         INSERT INTO group_members VALUES ('editors', 'user', 'alice');
         INSERT INTO rights VALUES ('main', 'Old', '', 'group', 'editors', 'edit', 'allow');",
    )
    .unwrap();
    conn.execute(
        "INSERT INTO api_tokens (prefix, digest, user_name, label, created_ms) VALUES ('0123456789ab', ?1, 'alice', '', 1)",
        [vec![0u8; 32]],
    )
    .unwrap();
    assert_eq!(id, 1);

    let store = current_store(&dir, conn);
    let doc = store.document(&page("Old.Page"), None).unwrap().unwrap();
    assert_eq!(
        (doc.title.as_str(), doc.version.to_string()),
        ("Old title", "1.1".to_owned())
    );
    assert_eq!(store.list_rights(&WikiId::main()).unwrap().len(), 1);
    assert_eq!(store.group("editors").unwrap().users, ["alice"]);
}

#[test]
fn version_3_structured_data_from_2() {
    let (dir, mut conn) = at_version(2);
    let id = insert_document(&conn, "Tasks", "One", "a task");
    conn.execute_batch(
        "INSERT INTO users (name, display_name, created_ms) VALUES ('alice', NULL, 1);
         INSERT INTO rights VALUES ('main', '', '', 'user', 'alice', 'admin', 'allow');",
    )
    .unwrap();
    upgrade(&mut conn, 3);
    assert_eq!(count(&conn, "SELECT count(*) FROM users"), 1);
    conn.execute(
        "INSERT INTO class_fields (document_id, name, position, field_type, pretty_name, attributes, disabled) \
         VALUES (?1, 'priority', 0, 'Number', NULL, '{\"number_type\":\"integer\"}', 0)",
        [id],
    )
    .unwrap();
    let object: i64 = conn
        .query_row(
            "INSERT INTO objects (document_id, class, number) VALUES (?1, 'Tasks.One', 0) RETURNING id",
            [id],
            |row| row.get(0),
        )
        .unwrap();
    conn.execute(
        "INSERT INTO object_values (object_id, field, value) VALUES (?1, 'priority', 3)",
        [object],
    )
    .unwrap();

    let store = current_store(&dir, conn);
    let class = store.class(&page("Tasks.One")).unwrap().unwrap();
    assert_eq!(class.fields[0].name, "priority");
    let objects = store.objects(&page("Tasks.One")).unwrap();
    assert_eq!(objects.len(), 1);
    assert!(
        store
            .check_right(
                "alice",
                crate::model::rights::Right::Admin,
                &crate::model::rights::RightScope::Wiki(WikiId::main())
            )
            .unwrap()
            .allowed
    );
}

#[test]
fn version_4_attachments_from_3() {
    let (dir, mut conn) = at_version(3);
    let id = insert_document(&conn, "Docs", "Guide", "a guide");
    conn.execute(
        "INSERT INTO objects (document_id, class, number) VALUES (?1, 'Some.Class', 0)",
        [id],
    )
    .unwrap();
    upgrade(&mut conn, 4);
    assert_eq!(count(&conn, "SELECT count(*) FROM objects"), 1);
    let attachment: i64 = conn
        .query_row(
            "INSERT INTO attachments (document_id, name) VALUES (?1, 'notes.txt') RETURNING id",
            [id],
            |row| row.get(0),
        )
        .unwrap();
    conn.execute(
        "INSERT INTO attachment_versions (attachment_id, version_major, version_minor, size, declared_mime, \
         sniffed_mime, author, comment, created_ms, content) VALUES (?1, 1, 1, 5, 'text/plain', NULL, 'alice', '', 1, ?2)",
        params![attachment, b"hello".to_vec()],
    )
    .unwrap();

    let store = current_store(&dir, conn);
    let (info, bytes) = store
        .attachment_content(&page("Docs.Guide"), "notes.txt", None)
        .unwrap()
        .unwrap();
    assert_eq!(
        (info.version.to_string(), bytes),
        ("1.1".to_owned(), b"hello".to_vec())
    );
}

#[test]
fn version_5_recycle_bin_from_4() {
    let (dir, mut conn) = at_version(4);
    let id = insert_document(&conn, "Old", "Gone", "deleted words");
    let attachment: i64 = conn
        .query_row(
            "INSERT INTO attachments (document_id, name) VALUES (?1, 'a.txt') RETURNING id",
            [id],
            |row| row.get(0),
        )
        .unwrap();
    conn.execute(
        "INSERT INTO attachment_versions VALUES (?1, 1, 1, 1, 'text/plain', NULL, 'alice', '', 1, x'41')",
        [attachment],
    )
    .unwrap();
    upgrade(&mut conn, 5);
    assert_eq!(count(&conn, "SELECT count(*) FROM attachment_versions"), 1);
    assert_eq!(count(&conn, "SELECT count(*) FROM trash_entries"), 0);

    let store = current_store(&dir, conn);
    let entry = store
        .delete_document(&DocumentDelete {
            reference: page("Old.Gone"),
            author: "alice".into(),
            comment: "cleanup".into(),
            expected: Expected::Any,
        })
        .unwrap();
    assert!(store.document(&page("Old.Gone"), None).unwrap().is_none());
    store.restore(entry.id, "alice").unwrap();
    let history = store
        .history(&page("Old.Gone"), None, 0, 10)
        .unwrap()
        .unwrap();
    assert_eq!(history.total, 1, "the old revision came back");
    assert_eq!(store.attachments(&page("Old.Gone")).unwrap().len(), 1);
    let query = SearchQuery::new(Some("deleted".into()), WikiScope::All);
    assert_eq!(store.search(&query, &mut |_| true).unwrap().total, 1);
}

#[test]
fn version_6_token_last_used_from_5() {
    let (dir, mut conn) = at_version(5);
    conn.execute_batch(
        "INSERT INTO users (name, display_name, created_ms) VALUES ('alice', NULL, 1);",
    )
    .unwrap();
    conn.execute(
        "INSERT INTO api_tokens (prefix, digest, user_name, label, created_ms) VALUES ('0123456789ab', ?1, 'alice', 'old', 1)",
        [vec![7u8; 32]],
    )
    .unwrap();
    upgrade(&mut conn, 6);
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM api_tokens WHERE last_used_ms IS NULL"
        ),
        1,
        "an existing token has no recorded use"
    );

    let store = current_store(&dir, conn);
    let tokens = store.list_tokens(None).unwrap();
    assert_eq!((tokens.len(), tokens[0].last_used), (1, None));
    let at = time::OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    store.record_token_use("0123456789ab", at).unwrap();
    assert_eq!(store.list_tokens(None).unwrap()[0].last_used, Some(at));
}

#[test]
fn version_7_farm_secrets_from_6() {
    let (dir, mut conn) = at_version(6);
    insert_document(&conn, "Kept", "Page", "still here");
    upgrade(&mut conn, 7);
    assert_eq!(count(&conn, "SELECT count(*) FROM farm_secrets"), 0);
    assert!(
        conn.execute(
            "INSERT INTO farm_secrets (name, value, created_ms) VALUES ('short', x'00', 1)",
            []
        )
        .is_err(),
        "the schema refuses a guessable secret"
    );

    let store = current_store(&dir, conn);
    let key = [9u8; 32];
    assert_eq!(store.farm_secret("link-signing", &key).unwrap(), key);
    assert_eq!(store.farm_secret("link-signing", &[1u8; 32]).unwrap(), key);
    assert!(store.document(&page("Kept.Page"), None).unwrap().is_some());
}

#[test]
fn version_8_vector_indexes_from_7() {
    let (dir, mut conn) = at_version(7);
    let id = insert_document(&conn, "Kept", "Page", "still here");
    upgrade(&mut conn, 8);
    assert_eq!(count(&conn, "SELECT count(*) FROM vector_rows"), 0);
    conn.execute(
        "INSERT INTO vector_rows (index_name, document_id, version_major, version_minor) \
         VALUES ('m', ?1, 1, 1)",
        [id],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO vector_entries (index_name, document_id, entry_key, digest, text, vector) \
         VALUES ('m', ?1, 'k', 'd', 't', x'0000803f')",
        [id],
    )
    .unwrap();
    conn.execute("DELETE FROM documents WHERE id = ?1", [id])
        .unwrap();
    assert_eq!(
        count(&conn, "SELECT count(*) FROM vector_entries"),
        0,
        "entries go with their row"
    );

    insert_document(&conn, "Old", "Page", "from before vectors");
    let store = current_store(&dir, conn);
    let index = VectorIndex::new(WikiId::main(), "m");
    let backlog = store.vector_backlog(&index, 10).unwrap();
    assert_eq!(backlog.total, 1, "a row from before the migration is stale");
    assert_eq!(backlog.rows[0].reference, page("Old.Page"));
}

#[test]
fn version_9_admin_state_from_8() {
    let (dir, mut conn) = at_version(8);
    insert_document(&conn, "Kept", "Page", "still here");
    upgrade(&mut conn, 9);
    for table in ["admin_sessions", "admin_logins", "audit_calls"] {
        assert_eq!(count(&conn, &format!("SELECT count(*) FROM {table}")), 0);
    }
    assert!(
        conn.execute(
            "INSERT INTO admin_sessions (digest, user_name, created_ms, last_used_ms, idle_ms, \
             expires_ms) VALUES (x'00', 'admin', 1, 1, 1, 1)",
            [],
        )
        .is_err(),
        "a session is kept by a 32-byte digest, nothing else"
    );
    let store = current_store(&dir, conn);
    let session = AdminSession {
        digest: [7; 32],
        user: "admin".to_owned(),
        created_ms: 1_000,
        last_used_ms: 1_000,
        idle_ms: 60_000,
        expires_ms: 100_000,
    };
    store.open_admin_session(&session, 10).unwrap();
    assert_eq!(
        store
            .touch_admin_session(&[7; 32], 2_000)
            .unwrap()
            .map(|found| found.user),
        Some("admin".to_owned())
    );
    assert!(store.document(&page("Kept.Page"), None).unwrap().is_some());
}

#[test]
fn version_10_revision_structure_from_9() {
    let (dir, mut conn) = at_version(9);
    insert_document(&conn, "Old", "Page", "from before records");
    upgrade(&mut conn, 10);
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM revisions WHERE structure IS NULL"
        ),
        1,
        "an old revision has no record"
    );
    let store = current_store(&dir, conn);
    let reference = page("Old.Page");
    store
        .save_document(&crate::model::document::DocumentSave::new(
            reference.clone(),
            "after",
            "bob",
        ))
        .unwrap();
    let compared = |store: &SqliteStore| {
        store
            .diff(&reference, None, Version::FIRST, "1.2".parse().unwrap())
            .unwrap()
            .structure
    };
    assert_eq!(
        compared(&store),
        StructureComparison::Unrecorded(vec![Version::FIRST]),
        "never a diff against a revision that recorded nothing"
    );
    let entry = store
        .delete_document(&DocumentDelete {
            reference: reference.clone(),
            author: "bob".into(),
            comment: String::new(),
            expected: Expected::Any,
        })
        .unwrap();
    store.restore(entry.id, "bob").unwrap();
    assert_eq!(
        compared(&store),
        StructureComparison::Unrecorded(vec![Version::FIRST]),
        "the bin keeps 1.2's record: only 1.1 has none"
    );
}

#[test]
fn version_11_leases_from_10() {
    let (dir, mut conn) = at_version(10);
    insert_document(&conn, "Kept", "Page", "still here");
    upgrade(&mut conn, 11);
    assert_eq!(count(&conn, "SELECT count(*) FROM leases"), 0);
    conn.execute(
        "INSERT INTO leases (name, holder, expires_ms) VALUES ('job', 'p1', 1)",
        [],
    )
    .unwrap();
    assert!(
        conn.execute(
            "INSERT INTO leases (name, holder, expires_ms) VALUES ('job', 'p2', 2)",
            [],
        )
        .is_err(),
        "one holder per name"
    );
    let store = current_store(&dir, conn);
    let ttl = std::time::Duration::from_secs(60);
    assert!(
        store.try_lease("job", "p2", ttl).unwrap(),
        "p1's lease expired long ago"
    );
    assert!(!store.try_lease("job", "p1", ttl).unwrap());
    assert!(store.document(&page("Kept.Page"), None).unwrap().is_some());
}

#[test]
fn version_12_vector_seq_from_11() {
    let (dir, mut conn) = at_version(11);
    let id = insert_document(&conn, "Kept", "Page", "indexed before");
    conn.execute(
        "INSERT INTO vector_rows (index_name, document_id, version_major, version_minor) \
         VALUES ('m', ?1, 1, 1)",
        [id],
    )
    .unwrap();
    upgrade(&mut conn, 12);
    assert_eq!(count(&conn, "SELECT value FROM vector_seq"), 0);
    assert_eq!(
        count(&conn, "SELECT written_seq FROM vector_rows"),
        0,
        "an old row was written before any sequence value"
    );
    let store = current_store(&dir, conn);
    let index = VectorIndex::new(WikiId::main(), "m");
    assert_eq!(store.vector_seq().unwrap(), 0);
    assert!(store.vector_changes(&index, 0, 10).unwrap().rows.is_empty());
    let row = store.vector_row(&index, &page("Kept.Page"), None).unwrap();
    assert!(row.is_some(), "the old row is kept");
}

#[test]
fn version_13_identity_links_from_12() {
    // A farm with users: its OIDC tokens signed in by name, so it awaits a decision.
    let (dir, mut conn) = at_version(12);
    conn.execute(
        "INSERT INTO users (name, display_name, created_ms) VALUES ('alice', NULL, 1)",
        [],
    )
    .unwrap();
    upgrade(&mut conn, 13);
    assert_eq!(count(&conn, "SELECT count(*) FROM identity_links"), 0);
    assert_eq!(count(&conn, "SELECT count(*) FROM identity_upgrade"), 1);
    let store = current_store(&dir, conn);
    assert!(store.identities().unwrap().upgrade_pending);
    assert_eq!(
        store.linked_user("https://id", "alice").unwrap(),
        None,
        "no name matching"
    );
    store
        .adopt_identities(
            "https://id",
            &["alice".to_owned()],
            std::time::Duration::from_secs(60),
        )
        .unwrap();
    assert!(!store.identities().unwrap().upgrade_pending, "decided");

    // A farm without users had nothing to decide.
    let (dir, mut conn) = at_version(12);
    upgrade(&mut conn, 13);
    let store = current_store(&dir, conn);
    assert!(!store.identities().unwrap().upgrade_pending);
}

#[test]
fn version_14_token_scope_from_13() {
    let (dir, mut conn) = at_version(13);
    conn.execute_batch(
        "INSERT INTO users (name, display_name, created_ms) VALUES ('alice', NULL, 1);",
    )
    .unwrap();
    let token = crate::secret::token::generate();
    conn.execute(
        "INSERT INTO api_tokens (prefix, digest, user_name, label, created_ms) \
         VALUES (?1, ?2, 'alice', 'old', 1)",
        rusqlite::params![token.prefix, token.digest.0.as_slice()],
    )
    .unwrap();
    upgrade(&mut conn, 14);
    let store = current_store(&dir, conn);
    let grant = store
        .resolve_token_grant(token.clear.expose())
        .unwrap()
        .expect("the old token still resolves");
    assert_eq!(grant.user, "alice");
    assert!(grant.scope.is_full(), "an old token is a full token");
    assert!(store.list_tokens(None).unwrap()[0].scope.is_full());
}

/// A database at the newest version with a second wiki in it.
fn latest_with_a_wiki() -> (TempDir, Connection) {
    let (dir, conn) = at_version(schema::latest(MIGRATIONS));
    conn.execute(
        "INSERT INTO wikis (id, pretty_name, created_ms) VALUES ('dev', 'Dev', 1)",
        [],
    )
    .unwrap();
    (dir, conn)
}

#[test]
fn migrating_twice_is_a_no_op() {
    let (_dir, mut conn) = latest_with_a_wiki();
    migrate(&mut conn).unwrap();
    assert_eq!(version(&conn), schema::latest(MIGRATIONS));
    assert_eq!(count(&conn, "SELECT count(*) FROM wikis"), 2);
}

#[test]
fn a_newer_schema_is_refused_untouched() {
    let (_dir, mut conn) = at_version(schema::latest(MIGRATIONS));
    let newer = schema::latest(MIGRATIONS) + 1;
    conn.execute_batch(&format!("PRAGMA user_version = {newer}"))
        .unwrap();
    let err = migrate(&mut conn).unwrap_err();
    assert!(
        matches!(err, StoreError::SchemaTooNew { found, supported } if found == newer && supported == newer - 1),
        "{err:?}"
    );
    assert_eq!(version(&conn), newer);
}

#[test]
fn a_failed_upgrade_keeps_the_data_and_the_version() {
    let (_dir, mut conn) = latest_with_a_wiki();
    let mut broken = MIGRATIONS.to_vec();
    broken.push(Migration {
        version: schema::latest(MIGRATIONS) + 1,
        name: "9999_broken",
        sql: "DELETE FROM wikis; CREATE TABLE oops (x); SELECT * FROM nowhere;",
    });
    assert!(migrate_with(&mut conn, &broken).is_err());
    assert_eq!(version(&conn), schema::latest(MIGRATIONS));
    assert_eq!(count(&conn, "SELECT count(*) FROM wikis"), 2);
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM sqlite_schema WHERE name = 'oops'"
        ),
        0
    );
}
