//! Copying a SQLite farm into PostgreSQL (`wiki_store::transfer`): everything reads the same
//! afterwards, the copied tables are exactly both schemas' tables, a non-empty target is
//! refused untouched, and a copy that fails part-way leaves the target empty for a retry.

use wiki_store::model::document::DocumentSave;
use wiki_store::model::locale::Locale;
use wiki_store::model::search::{SearchQuery, WikiScope};
use wiki_store::model::vector::VectorIndex;
use wiki_store::model::wiki::WikiId;
use wiki_store::transfer::{
    BOOKKEEPING, BatchLimits, FarmExport, FarmSink, Row, SecretOverride, TABLES, Table,
    TransferError, copy_farm,
};
use wiki_store::{PostgresStore, SqliteStore, Store};

use wiki_store::{DocumentStore, SecretStore, TokenStore, TrashStore, UserStore, WikiStore};

use crate::rich_farm::{page, rich_farm};
use wiki_store::testing::scratch::ScratchDatabase;
use wiki_store::testing::{PostgresServer, backend_test};

/// What the farm answers through the store API, as text (search hits by reference only: the
/// backends rank and cut snippets each their own way).
fn reads(store: &dyn Store, token: &str) -> String {
    let mut out = String::new();
    let mut say = |line: String| {
        out.push_str(&line);
        out.push('\n');
    };
    say(format!("{:?}", store.list_wikis().unwrap()));
    for wiki in store.list_wikis().unwrap() {
        say(format!("{:?}", store.mcp_config(&wiki.id)));
        say(format!("{:?}", store.list_rights(&wiki.id).unwrap()));
        say(format!("{:?}", store.trash(&wiki.id).unwrap()));
        for node in store.pages(&wiki.id, None, true, 0, 1000).unwrap() {
            let r = &node.reference;
            say(format!("{node:?}"));
            say(format!("{:?}", store.document_locales(r).unwrap()));
            say(format!("{:?}", store.document(r, None).unwrap()));
            let french = Locale::parse("fr").unwrap();
            say(format!("{:?}", store.document(r, Some(&french)).unwrap()));
            say(format!(
                "{:?}",
                store.history(r, Some(&french), 0, 100).unwrap()
            ));
            let history = store.history(r, None, 0, 100).unwrap();
            say(format!("{history:?}"));
            for revision in history.iter().flat_map(|page| &page.revisions) {
                say(format!(
                    "{:?}",
                    store.revision(r, None, revision.version).unwrap()
                ));
            }
            say(format!("{:?}", store.outgoing_links(r, None).unwrap()));
            say(format!("{:?}", store.objects(r).unwrap()));
            say(format!("{:?}", store.class(r).unwrap()));
            for attachment in store.attachments(r).unwrap() {
                say(format!(
                    "{:?}",
                    store.attachment_history(r, &attachment.name).unwrap()
                ));
                say(format!(
                    "{:?}",
                    store.attachment_content(r, &attachment.name, None).unwrap()
                ));
            }
            say(format!(
                "{:?}",
                store
                    .vector_row(&VectorIndex::new(wiki.id.clone(), "passages"), r, None)
                    .unwrap()
            ));
        }
    }
    say(format!("{:?}", store.list_users().unwrap()));
    say(format!("{:?}", store.list_groups().unwrap()));
    say(format!("{:?}", store.list_tokens(None).unwrap()));
    say(format!("{:?}", store.resolve_token(token).unwrap()));
    say(format!(
        "{:?}",
        store.farm_secret("some-secret", &[9; 32]).unwrap()
    ));
    for words in ["final", "obsolete", "draft"] {
        let hits = store
            .search(
                &SearchQuery::new(Some(words.into()), WikiScope::All),
                &mut |_| true,
            )
            .unwrap();
        let found: Vec<String> = hits
            .hits
            .iter()
            .map(|hit| format!("{:?}", hit.candidate.reference))
            .collect();
        say(format!("{words}: {found:?}"));
    }
    out
}

#[backend_test(only = "postgres")]
fn a_copied_farm_reads_the_same_on_postgres(server: &PostgresServer) {
    let dir = tempfile::tempdir().unwrap();
    let source = SqliteStore::open(dir.path()).unwrap();
    let token = rich_farm(&source);
    let prefix = source.list_tokens(Some("ada")).unwrap()[0].prefix.clone();
    source
        .record_token_use(&prefix, time::OffsetDateTime::now_utc())
        .unwrap();
    // A row the override replaces (SQLite farms keep their link key in a file, not here).
    source.farm_secret("link-signing-key", &[1; 32]).unwrap();
    let database = ScratchDatabase::empty(server);
    let target = PostgresStore::connect(database.url()).unwrap();
    let link_key = SecretOverride {
        name: "link-signing-key".into(),
        value: vec![42; 32],
        created_ms: 1_700_000_000_000,
    };
    // Tiny batches, so tables span several.
    let limits = BatchLimits { rows: 2, bytes: 16 };
    let (mut seen, mut total) = (0, 0);
    let copied = copy_farm(&source, &target, &[link_key], limits, &mut |progress| {
        assert!(progress.rows > seen && progress.rows <= progress.total);
        seen = progress.rows;
        total = progress.total;
    })
    .unwrap();
    assert_eq!(seen, total, "the progress ends at the total");
    assert_eq!(copied.len(), TABLES.len());
    let revisions = copied.iter().find(|c| c.table.name == "revisions").unwrap();
    assert!(revisions.rows >= 4, "{copied:?}");
    let secrets = copied
        .iter()
        .find(|c| c.table.name == "farm_secrets")
        .unwrap();
    assert_eq!(
        secrets.rows, 2,
        "some-secret, and the override instead of the source's key"
    );
    let read = reads(&source, &token);
    for expected in [
        "Final guide",
        "Guide final",
        "Second draft",
        "Ship",
        "editors",
        "archive",
        "Old",
        "[7, 7, 7",
        "last_used: Some",
        "Deny",
        "-0.5",
        "\"ada\"",
        // Revisions' records of objects and attachments, compared with the target's below.
        "structure: Some(Structure { objects: [ObjectState",
    ] {
        assert!(read.contains(expected), "{expected} not in:\n{read}");
    }
    assert_eq!(read, reads(&target, &token));
    // The override took the place of no source row, and the target hands it out.
    assert_eq!(
        target.farm_secret("link-signing-key", &[1; 32]).unwrap(),
        vec![42; 32]
    );
    // New rows get fresh ids after the copied ones: saving and restoring still work.
    let trashed = target.trash(&WikiId::main()).unwrap();
    target.restore(trashed[0].id, "admin").unwrap();
    target
        .save_document(&DocumentSave::new(
            page("Docs.New"),
            "After the move",
            "ada",
        ))
        .unwrap();
    assert!(target.document(&page("Docs.Old"), None).unwrap().is_some());
}

#[backend_test(only = "postgres")]
fn the_copied_tables_are_the_postgres_schema_tables(server: &PostgresServer) {
    let database = ScratchDatabase::empty(server);
    drop(
        PostgresStore::connect(database.url())
            .unwrap()
            .list_wikis()
            .unwrap(),
    );
    let mut client = database.client();
    let mut tables: Vec<String> = client
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
            &[],
        )
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    tables.sort();
    let mut expected: Vec<String> = TABLES
        .iter()
        .map(|table| table.name.to_owned())
        .chain(BOOKKEEPING.iter().map(|name| (*name).to_owned()))
        .collect();
    expected.sort();
    assert_eq!(
        tables, expected,
        "every PostgreSQL table is a farm table wiki_store::transfer::TABLES copies (or \
         bookkeeping): add a new table there, under the same name as in SQLite"
    );
}

#[backend_test(only = "postgres")]
fn a_target_holding_data_is_refused_untouched(server: &PostgresServer) {
    let dir = tempfile::tempdir().unwrap();
    let source = SqliteStore::open(dir.path()).unwrap();
    source.create_user("alice", None).unwrap();
    let database = ScratchDatabase::empty(server);
    let target = PostgresStore::connect(database.url()).unwrap();
    target.create_user("carol", None).unwrap();
    let refused = copy_farm(&source, &target, &[], BatchLimits::default(), &mut |_| {});
    match refused {
        Err(error @ TransferError::TargetNotEmpty { .. }) => {
            let message = error.to_string();
            assert!(message.contains("users holds 1 rows"), "{message}");
            assert!(message.contains("empty database"), "{message}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let users: Vec<String> = target
        .list_users()
        .unwrap()
        .into_iter()
        .map(|user| user.name)
        .collect();
    assert_eq!(users, ["carol"]);
}

/// An export that stops with an error once `tables` tables were written.
struct Failing<'a> {
    inner: &'a SqliteStore,
    tables: usize,
}

struct FailingSink<'a> {
    inner: &'a mut dyn FarmSink,
    left: usize,
}

impl FarmSink for FailingSink<'_> {
    fn plan(&mut self, tables: &[(&'static Table, u64)]) -> Result<(), TransferError> {
        self.inner.plan(tables)
    }
    fn begin_table(
        &mut self,
        table: &'static Table,
        columns: &[String],
    ) -> Result<(), TransferError> {
        if self.left == 0 {
            return Err(TransferError::UnknownTable("injected failure".into()));
        }
        self.left -= 1;
        self.inner.begin_table(table, columns)
    }
    fn write_rows(&mut self, rows: &[Row]) -> Result<(), TransferError> {
        self.inner.write_rows(rows)
    }
    fn end_table(&mut self) -> Result<u64, TransferError> {
        self.inner.end_table()
    }
}

impl FarmExport for Failing<'_> {
    fn export_farm(
        &self,
        limits: BatchLimits,
        sink: &mut dyn FarmSink,
    ) -> Result<(), TransferError> {
        self.inner.export_farm(
            limits,
            &mut FailingSink {
                inner: sink,
                left: self.tables,
            },
        )
    }
}

#[backend_test(only = "postgres")]
fn a_copy_failing_part_way_leaves_the_target_empty_for_a_retry(server: &PostgresServer) {
    let dir = tempfile::tempdir().unwrap();
    let source = SqliteStore::open(dir.path()).unwrap();
    let token = rich_farm(&source);
    let database = ScratchDatabase::empty(server);
    let target = PostgresStore::connect(database.url()).unwrap();
    let failing = Failing {
        inner: &source,
        tables: 8,
    };
    let failed = copy_farm(&failing, &target, &[], BatchLimits::default(), &mut |_| {});
    assert!(
        matches!(failed, Err(TransferError::UnknownTable(_))),
        "{failed:?}"
    );
    assert!(target.list_users().unwrap().is_empty());
    assert_eq!(
        target.list_wikis().unwrap().len(),
        1,
        "only the schema's main wiki"
    );
    copy_farm(&source, &target, &[], BatchLimits::default(), &mut |_| {}).unwrap();
    assert_eq!(reads(&source, &token), reads(&target, &token));
}
