//! Human confirmation of writes over HTTP, protocol 2026-07-28 (input-required results, MRTR),
//! with raw JSON-RPC: a write on a wiki with `confirm_writes=true` answers the question and a
//! sealed request state; the retry with the person's yes writes once; a decline, a client that
//! cannot ask, and a forged, replayed or foreign state write nothing. The bundled deletes
//! (declared `confirm`) ask, and refuse a client that cannot ask, on a wiki that does not
//! require confirmation too.

use std::time::Duration;

use serde_json::{Value, json};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{ConfigStore, DocumentStore};

use crate::harness::TestServer;

const PROTOCOL: &str = "2026-07-28";

/// A 2026-07-28 `tools/call` of `tool`, from a client with (or without) form elicitation,
/// optionally the retry carrying `state` and `answer`.
fn call(tool: &str, arguments: Value, elicitation: bool, retry: Option<(&str, &str)>) -> Value {
    let capabilities = if elicitation {
        json!({"elicitation": {"form": {}}})
    } else {
        json!({})
    };
    let mut params = json!({
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": PROTOCOL,
            "io.modelcontextprotocol/clientInfo": {"name": "confirm-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        },
    });
    if let Some((state, action)) = retry {
        params["requestState"] = json!(state);
        params["inputResponses"] = json!({"confirm_write": {"action": action}});
    }
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
}

/// The `result` of a call.
async fn result(server: &TestServer, token: &str, body: &Value) -> Value {
    let response = server
        .post(
            "main",
            Some(token),
            body,
            &[
                ("mcp-protocol-version", PROTOCOL),
                ("mcp-method", "tools/call"),
                (
                    "mcp-name",
                    body["params"]["name"].as_str().unwrap_or_default(),
                ),
            ],
        )
        .await;
    let status = response.status();
    let reply: Value = response.json().await.expect("a JSON reply");
    assert!(status.is_success(), "{status}: {reply}");
    reply
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("no result: {reply}"))
}

pub(crate) fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

pub(crate) fn is_error(result: &Value) -> bool {
    result["isError"] == json!(true)
}

/// The question and the state of an input-required result.
pub(crate) fn question(result: &Value) -> (String, String) {
    assert_eq!(result["resultType"], json!("input_required"), "{result}");
    let message = result["inputRequests"]["confirm_write"]["params"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no question: {result}"))
        .to_owned();
    let state = result["requestState"]
        .as_str()
        .unwrap_or_else(|| panic!("no state: {result}"))
        .to_owned();
    (message, state)
}

pub(crate) fn page(server: &TestServer, name: &str) -> Option<(String, String)> {
    let reference = DocumentReference::parse(name, &WikiId::main()).expect("a reference");
    server
        .store
        .document(&reference, None)
        .expect("the store reads")
        .map(|row| (row.version.to_string(), row.content))
}

/// How the latest `n` calls of `tool` ended, oldest first, as the audit recorded them.
pub(crate) fn audited(server: &TestServer, tool: &str, n: usize) -> Vec<&'static str> {
    let mut outcomes: Vec<_> = server
        .manager
        .recent_calls()
        .newest(n, |record| record.tool == tool)
        .into_iter()
        .map(|record| record.outcome.as_str())
        .collect();
    outcomes.reverse();
    outcomes
}

/// One person's client on main, speaking 2026-07-28 in raw JSON-RPC: each method one
/// `tools/call` round, returning its `result`.
pub(crate) struct Client<'a> {
    server: &'a TestServer,
    token: String,
}

impl<'a> Client<'a> {
    /// The client of the user `token` authenticates.
    pub(crate) fn new(server: &'a TestServer, token: &str) -> Self {
        Self {
            server,
            token: token.to_owned(),
        }
    }

    async fn send(
        &self,
        tool: &str,
        arguments: &Value,
        elicitation: bool,
        retry: Option<(&str, &str)>,
    ) -> Value {
        let body = call(tool, arguments.clone(), elicitation, retry);
        result(self.server, &self.token, &body).await
    }

    /// A first round from a client that can ask its person (form elicitation).
    pub(crate) async fn call(&self, tool: &str, arguments: &Value) -> Value {
        self.send(tool, arguments, true, None).await
    }

    /// A first round from a client that cannot ask its person.
    pub(crate) async fn call_unable_to_ask(&self, tool: &str, arguments: &Value) -> Value {
        self.send(tool, arguments, false, None).await
    }

    /// The question and the state a first round must answer with.
    pub(crate) async fn asked(&self, tool: &str, arguments: &Value) -> (String, String) {
        question(&self.call(tool, arguments).await)
    }

    /// The retry carrying `state` and the person's `action` (`accept`, `decline`, `cancel`).
    pub(crate) async fn answer(
        &self,
        tool: &str,
        arguments: &Value,
        state: &str,
        action: &str,
    ) -> Value {
        self.send(tool, arguments, true, Some((state, action)))
            .await
    }
}

pub(crate) fn configure(server: &TestServer, confirm_writes: bool) {
    let main = WikiId::main();
    let mut config = server.store.mcp_config(&main);
    config.enabled_tools = ["get_document", "write_document", "delete_document"]
        .map(str::to_owned)
        .to_vec();
    config.confirm_writes = confirm_writes;
    server
        .store
        .set_mcp_config(&main, &config, "admin")
        .expect("the configuration is saved");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_runs_once_after_the_person_accepts() {
    let server = TestServer::start().await;
    configure(&server, true);
    let admin = Client::new(&server, &server.admin_token);
    let create = json!({"reference": "Sandbox.Confirmed", "content": "hello"});

    let (message, state) = admin.asked("write_document", &create).await;
    assert!(
        message.contains("create main:Sandbox.Confirmed with 5 characters")
            && message.contains("\"main\"")
            && message.contains("write_document"),
        "{message}"
    );
    assert_eq!(
        page(&server, "Sandbox.Confirmed"),
        None,
        "nothing before the answer"
    );

    let written = admin
        .answer("write_document", &create, &state, "accept")
        .await;
    assert!(!is_error(&written), "{written}");
    assert!(
        text(&written).starts_with("Created document main:Sandbox.Confirmed."),
        "{written}"
    );
    assert_eq!(
        page(&server, "Sandbox.Confirmed"),
        Some(("1.1".into(), "hello".into()))
    );

    // The same state again: the page already holds what was sent, so the replay is answered as
    // a retry that was already applied, without asking or writing.
    let replayed = admin
        .answer("write_document", &create, &state, "accept")
        .await;
    assert!(!is_error(&replayed), "{replayed}");
    assert!(
        text(&replayed).starts_with("Already applied:")
            && text(&replayed).ends_with("Nothing was saved."),
        "{replayed}"
    );
    assert_eq!(
        page(&server, "Sandbox.Confirmed"),
        Some(("1.1".into(), "hello".into()))
    );

    // A no-op rewrite leaves the version where it is, so only the redemption stops a replay.
    let same = json!({"reference": "Sandbox.Confirmed", "content": "hello", "base_version": "1.1"});
    let (message, state) = admin.asked("write_document", &same).await;
    assert!(
        message.contains(
            "replace 5 characters of main:Sandbox.Confirmed (version 1.1) with 5 characters"
        ),
        "{message}"
    );
    let first = admin
        .answer("write_document", &same, &state, "accept")
        .await;
    assert!(!is_error(&first), "{first}");
    let again = admin
        .answer("write_document", &same, &state, "accept")
        .await;
    assert!(text(&again).contains("already used once"), "{again}");
    assert_eq!(
        audited(&server, "write_document", 6),
        // The replayed create is answered before any question: the page already holds it.
        [
            "input_required",
            "ok",
            "ok",
            "input_required",
            "ok",
            "unconfirmed"
        ],
        "the audit says how each round ended"
    );
    server.stop().await.expect("the server stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declined_unaskable_forged_and_foreign_confirmations_write_nothing() {
    let server = TestServer::start().await;
    configure(&server, true);
    let admin = Client::new(&server, &server.admin_token);
    let edit = json!({"reference": "Sandbox.Untouched", "content": "changed"});

    let (_, state) = admin.asked("write_document", &edit).await;

    let declined = admin
        .answer("write_document", &edit, &state, "decline")
        .await;
    assert!(is_error(&declined), "{declined}");
    assert!(text(&declined).contains("declined"), "{declined}");

    // A state is usable once, whatever the answer: the declined one cannot be sent back later
    // with a yes.
    let redeemed = admin
        .answer("write_document", &edit, &state, "accept")
        .await;
    assert!(
        is_error(&redeemed) && text(&redeemed).contains("already used once"),
        "{redeemed}"
    );

    let (_, state) = admin.asked("write_document", &edit).await;
    let cancelled = admin
        .answer("write_document", &edit, &state, "cancel")
        .await;
    assert!(text(&cancelled).contains("declined"), "{cancelled}");

    // One character of the signature changed.
    let at = state.len() - 8;
    let flipped = if &state[at..=at] == "A" { "B" } else { "A" };
    let forged = format!("{}{flipped}{}", &state[..at], &state[at + 1..]);
    let other = json!({"reference": "Sandbox.Untouched", "content": "other"});
    for (what, arguments, state) in [
        ("forged", &edit, &forged),
        ("other arguments", &other, &state),
    ] {
        let refused = admin
            .answer("write_document", arguments, state, "accept")
            .await;
        assert!(
            is_error(&refused) && text(&refused).contains("not one this server issued"),
            "{what}: {refused}"
        );
    }
    let foreign = Client::new(&server, &server.alice_token)
        .answer("write_document", &edit, &state, "accept")
        .await;
    assert!(is_error(&foreign), "{foreign}");

    let unaskable = admin.call_unable_to_ask("write_document", &edit).await;
    assert!(is_error(&unaskable), "{unaskable}");
    let message = text(&unaskable);
    assert!(
        message.contains("requires a person to confirm every write")
            && message.contains("wiki-mcp config set --wiki main confirm_writes=false"),
        "{message}"
    );
    assert_eq!(
        page(&server, "Sandbox.Untouched"),
        None,
        "nothing was written"
    );
    assert_eq!(
        audited(&server, "write_document", 9),
        [
            "input_required",
            "declined",
            "unconfirmed",
            "input_required",
            "declined",
            "unconfirmed",
            "unconfirmed",
            "unconfirmed",
            "unconfirmed"
        ],
        "a decline or a cancel is audited declined, every refused confirmation unconfirmed"
    );
    server.stop().await.expect("the server stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delete_declared_confirm_asks_or_refuses_on_a_wiki_that_does_not_require_it() {
    let server = TestServer::start().await;
    configure(&server, false);
    let admin = Client::new(&server, &server.admin_token);
    let create = json!({"reference": "Sandbox.Doomed", "content": "bye"});
    let created = admin.call("write_document", &create).await;
    assert!(
        !is_error(&created),
        "writes are not confirmed here: {created}"
    );

    let delete = json!({"reference": "Sandbox.Doomed", "base_version": "1.1"});
    let (message, state) = admin.asked("delete_document", &delete).await;
    assert!(
        message.contains("delete main:Sandbox.Doomed (version 1.1)"),
        "{message}"
    );
    let declined = admin
        .answer("delete_document", &delete, &state, "decline")
        .await;
    assert!(text(&declined).contains("declined"), "{declined}");
    assert!(
        page(&server, "Sandbox.Doomed").is_some(),
        "the page is still there"
    );

    // A client that cannot ask is refused, as every write is on a wiki that requires
    // confirmation, and told why; no setting would let it through, so none is named.
    let refused = admin.call_unable_to_ask("delete_document", &delete).await;
    assert!(is_error(&refused), "{refused}");
    let message = text(&refused);
    assert!(
        message.contains("delete_document always asks")
            && message.contains("it declared no elicitation capability")
            && message.contains("Use a client that supports elicitation")
            && !message.contains("confirm_writes"),
        "{message}"
    );
    assert!(
        page(&server, "Sandbox.Doomed").is_some(),
        "a refused delete deletes nothing"
    );

    let (_, state) = admin.asked("delete_document", &delete).await;
    let deleted = admin
        .answer("delete_document", &delete, &state, "accept")
        .await;
    assert!(!is_error(&deleted), "{deleted}");
    assert_eq!(page(&server, "Sandbox.Doomed"), None);
    assert_eq!(
        audited(&server, "delete_document", 5),
        [
            "input_required",
            "declined",
            "unconfirmed",
            "input_required",
            "ok"
        ]
    );
    server.stop().await.expect("the server stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_past_its_lifetime_is_refused_and_writes_nothing() {
    // The state's expiry is sealed into it and checked by rmcp's codec against the system
    // clock, which no test can move: a lifetime of milliseconds keeps the wait short. Only the
    // late answer is tested, so a slow machine cannot make the test pass or fail wrongly. The
    // refusal states the lifetime in whole seconds, at least one.
    let server = TestServer::start_with_settings(|settings| {
        settings.with_confirmation_ttl(Duration::from_millis(10))
    })
    .await;
    configure(&server, true);
    let admin = Client::new(&server, &server.admin_token);
    let create = json!({"reference": "Sandbox.TooLate", "content": "late"});
    let (_, state) = admin.asked("write_document", &create).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let late = admin
        .answer("write_document", &create, &state, "accept")
        .await;
    assert!(is_error(&late), "{late}");
    assert!(
        text(&late).contains("the confirmation expired (a question is valid 1 second)"),
        "{late}"
    );
    assert_eq!(
        page(&server, "Sandbox.TooLate"),
        None,
        "nothing was written"
    );
    assert_eq!(
        audited(&server, "write_document", 2),
        ["input_required", "unconfirmed"]
    );
    server.stop().await.expect("the server stops");
}
