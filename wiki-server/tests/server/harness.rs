//! A seeded farm in a temp dir, a manager over it, and an rmcp client wired to the handler
//! through an in-process duplex pipe.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use wiki_server::testing::{Backend, TestDatabase};
use wiki_server::{Caller, Manager, McpHandler, ServerSettings};
use wiki_store::Store;
use wiki_store::model::document::DocumentSave;
use wiki_store::model::mcp_config::McpConfig;
use wiki_store::model::user::GUEST_USER;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::rights::{Effect, Right, RightRule, RightScope, Subject};

/// A farm: wikis `main` and `dev`; users `alice` and `bob`; the guest may view `main`; alice may
/// view and edit `main` and view `dev`; only bob may view `main`'s space `Private`. On the
/// trial's backend (`Backend::current`).
pub(crate) struct Farm {
    pub(crate) store: Arc<dyn Store>,
    // Last: the database goes after the store.
    database: TestDatabase,
}

pub(crate) fn wiki(id: &str) -> WikiId {
    WikiId::new(id).unwrap_or_else(|error| panic!("{id}: {error}"))
}

pub(crate) fn reference(text: &str) -> DocumentReference {
    DocumentReference::parse(text, &WikiId::main())
        .unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|error| panic!("{error}"))
}

impl Farm {
    pub(crate) fn new() -> Self {
        let database = TestDatabase::new();
        let store = database.open();
        ok(store.create_wiki(&wiki("dev"), "Development"));
        for user in ["alice", "bob"] {
            ok(store.create_user(user, None));
        }
        let rules = [
            (RightScope::Wiki(WikiId::main()), GUEST_USER, Right::View),
            (RightScope::Wiki(WikiId::main()), "alice", Right::View),
            (RightScope::Wiki(WikiId::main()), "alice", Right::Edit),
            (RightScope::Wiki(wiki("dev")), "alice", Right::View),
            (RightScope::Wiki(wiki("dev")), GUEST_USER, Right::View),
            (
                RightScope::Space {
                    wiki: WikiId::main(),
                    space: ok(wiki_store::reference::SpacePath::parse("Private")),
                },
                "bob",
                Right::View,
            ),
        ];
        for (scope, user, right) in rules {
            ok(store.set_right(&RightRule {
                scope,
                subject: Subject::User(user.to_owned()),
                right,
                effect: Effect::Allow,
            }));
        }
        for (text, title) in [
            ("Sandbox.WebHome", "Sandbox"),
            ("Private.Secret", "The secret"),
            ("Sales.Plan", "Sales plan"),
            ("dev:Team.WebHome", "Team"),
        ] {
            let save =
                DocumentSave::new(reference(text), format!("# {title}\n"), "alice").title(title);
            ok(store.save_document(&save));
        }
        Self { store, database }
    }

    pub(crate) fn shared(&self) -> Arc<dyn Store> {
        Arc::clone(&self.store)
    }

    pub(crate) fn manager(&self) -> Arc<Manager> {
        self.manager_with(ServerSettings::default())
    }

    pub(crate) fn manager_with(&self, settings: ServerSettings) -> Arc<Manager> {
        Arc::new(ok(Manager::new(self.shared(), settings)))
    }

    /// Changes `wiki`'s configuration through this store (an in-process save: events fire).
    pub(crate) fn configure(&self, wiki_id: &str, change: impl FnOnce(&mut McpConfig)) {
        configure(self.store.as_ref(), wiki_id, change);
    }

    /// A second store on the same database, as an admin command in another process would open:
    /// its writes reach the manager only through the change sequence.
    pub(crate) fn other_process(&self) -> Arc<dyn Store> {
        self.database.open()
    }

    /// Returns once `seen` holds after a write by [`Farm::other_process`]: on SQLite, on the
    /// first check one commit-marker window after the write (a request reuses the file's
    /// data_version for at most [`wiki_store::sqlite::MARKER_WINDOW`]); on PostgreSQL within
    /// the change feed's delay (a LISTEN/NOTIFY round, whose bound is one second; five are
    /// allowed here for a loaded machine). Panics when it does not.
    pub(crate) async fn until_seen(&self, what: &str, mut seen: impl AsyncFnMut() -> bool) {
        let patience = match self.database.backend() {
            Backend::Sqlite => {
                tokio::time::sleep(wiki_store::sqlite::MARKER_WINDOW).await;
                Duration::ZERO
            }
            Backend::Postgres { .. } => Duration::from_secs(5),
        };
        let deadline = Instant::now() + patience;
        while !seen().await {
            assert!(
                Instant::now() < deadline,
                "{what}: another process's change not seen after {patience:?} on {}",
                self.database.backend().name()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

pub(crate) fn configure(store: &dyn Store, wiki_id: &str, change: impl FnOnce(&mut McpConfig)) {
    let id = wiki(wiki_id);
    let mut config = store.mcp_config(&id);
    change(&mut config);
    ok(store.set_mcp_config(&id, &config, "admin"));
}

pub(crate) type Client = RunningService<RoleClient, ()>;

/// An rmcp client talking to the handler serving `caller` (the stdio shape: a fixed caller).
pub(crate) async fn client(manager: Arc<Manager>, caller: Caller) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = McpHandler::with_caller(manager, caller);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ok(().serve(client_io).await)
}

pub(crate) fn alice(wiki_id: &str) -> Caller {
    Caller::user(wiki(wiki_id), "alice")
}

pub(crate) fn guest(wiki_id: &str) -> Caller {
    Caller::guest(wiki(wiki_id))
}

/// Calls `name` with `arguments` (a JSON object): `Ok(text)` or `Err(text)` for `isError`.
pub(crate) async fn call(client: &Client, name: &str, arguments: Value) -> Result<String, String> {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    let result: CallToolResult = ok(client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
        .await);
    let text = match result.content.as_slice() {
        [block] => block
            .as_text()
            .map(|text| text.text.clone())
            .unwrap_or_else(|| panic!("not a text block: {block:?}")),
        other => panic!("expected one block, got {other:?}"),
    };
    if result.is_error == Some(true) {
        Err(text)
    } else {
        Ok(text)
    }
}

/// The names `tools/list` returns.
pub(crate) async fn tool_names(client: &Client) -> Vec<String> {
    ok(client.list_all_tools().await)
        .into_iter()
        .map(|tool| tool.name.into_owned())
        .collect()
}

/// Asserts two texts are equal, printing both in full on mismatch.
#[track_caller]
pub(crate) fn assert_text(actual: &str, expected: &str) {
    assert!(
        actual == expected,
        "\n--- expected ---\n{expected}\n--- actual ---\n{actual}\n----------------"
    );
}
