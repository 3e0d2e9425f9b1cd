//! Human confirmation of writes over HTTP on protocol 2025-11-25, for a client that declared
//! elicitation at initialize, with raw JSON-RPC: the server gives it an `Mcp-Session-Id`, asks
//! with `elicitation/create` on the call's event stream, and hands the POSTed answer to the
//! waiting call. A yes writes once, a no writes nothing; an answer with another id, from
//! another token, sent to another replica, sent twice or after its call gave up is refused
//! (409 `answer-unexpected`) and writes nothing. A client that declared nothing is refused with
//! that reason.

use std::time::Duration;

use serde_json::{Value, json};

use crate::confirm::{configure, is_error, page, text};
use crate::harness::{ACCEPT, Answer, TestServer, header};
use crate::list_changed::Events;

const PROTOCOL: &str = "2025-11-25";

/// Longer than any call of these tests may take: a stream that stays silent past it fails
/// the test instead of holding it.
const PATIENCE: Duration = Duration::from_secs(30);

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(PATIENCE)
        .build()
        .expect("an HTTP client")
}

/// POSTs `body` to `endpoint` as a 2025-11-25 client with `token`, in `session` if any.
async fn post(
    endpoint: &str,
    token: &str,
    session: Option<&str>,
    body: &Value,
) -> reqwest::Response {
    let mut request = http()
        .post(endpoint)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", PROTOCOL)
        .header("authorization", format!("Bearer {token}"))
        .json(body);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.send().await.expect("the server answers")
}

/// Runs the handshake of a client with (or without) form elicitation: the session id the
/// server gave back, if any.
async fn initialize(server: &TestServer, token: &str, elicitation: bool) -> Option<String> {
    let capabilities = if elicitation {
        json!({"elicitation": {"form": {}}})
    } else {
        json!({})
    };
    let body = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL,
        "capabilities": capabilities,
        "clientInfo": {"name": "confirm-session-test", "version": "1"},
    }});
    let response = post(&server.endpoint("main"), token, None, &body).await;
    assert!(response.status().is_success(), "{}", response.status());
    header(&response, "mcp-session-id")
}

/// The JSON-RPC messages of one call's reply: one JSON body, or an event stream read as it
/// arrives.
enum Reply {
    Json(Option<Value>),
    Stream(Box<Events>),
}

impl Reply {
    async fn start(
        server: &TestServer,
        token: &str,
        session: Option<&str>,
        tool: &str,
        arguments: Value,
    ) -> Self {
        let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}});
        let response = post(&server.endpoint("main"), token, session, &body).await;
        assert!(response.status().is_success(), "{}", response.status());
        if header(&response, "content-type")
            .is_some_and(|kind| kind.starts_with("text/event-stream"))
        {
            Reply::Stream(Box::new(Events::of(response).await))
        } else {
            Reply::Json(Some(response.json().await.expect("a JSON reply")))
        }
    }

    /// The next message.
    async fn next(&mut self) -> Value {
        match self {
            Reply::Json(message) => message.take().expect("one message in a JSON reply"),
            Reply::Stream(events) => events
                .next(PATIENCE)
                .await
                .unwrap_or_else(|| panic!("no message within {PATIENCE:?}")),
        }
    }

    /// The question the call asked: its id and message.
    async fn question(&mut self) -> (Value, String) {
        let message = self.next().await;
        assert_eq!(message["method"], "elicitation/create", "{message}");
        let text = message["params"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("no question: {message}"))
            .to_owned();
        (message["id"].clone(), text)
    }

    /// The call's result.
    async fn result(&mut self) -> Value {
        let message = self.next().await;
        assert_eq!(message["id"], 7, "{message}");
        message
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("no result: {message}"))
    }
}

/// POSTs the person's `action` as the answer to the question `id`.
async fn answer(endpoint: &str, token: &str, session: &str, id: &Value, action: &str) -> Answer {
    let body = json!({"jsonrpc": "2.0", "id": id, "result": {"action": action}});
    Answer::of(&post(endpoint, token, Some(session), &body).await)
}

fn accepted() -> Answer {
    Answer {
        status: 202,
        refusal: None,
    }
}

fn unexpected() -> Answer {
    Answer {
        status: 409,
        refusal: Some("answer-unexpected".to_owned()),
    }
}

/// Writes `name` without being asked (on a wiki that does not require confirmation).
async fn create(server: &TestServer, name: &str) {
    let mut reply = Reply::start(
        server,
        &server.admin_token,
        None,
        "write_document",
        json!({"reference": name, "content": "hello"}),
    )
    .await;
    let created = reply.result().await;
    assert!(!is_error(&created), "{created}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delete_asks_on_its_stream_and_only_the_right_answer_reaches_it() {
    let server = TestServer::start().await;
    configure(&server, false);
    let token = server.admin_token.clone();
    let endpoint = server.endpoint("main");
    assert_eq!(initialize(&server, &token, false).await, None);
    let session = initialize(&server, &token, true)
        .await
        .expect("a client that can be asked gets a session");
    create(&server, "Sandbox.Asked").await;
    let delete = json!({"reference": "Sandbox.Asked", "base_version": "1.1"});

    let mut call = Reply::start(
        &server,
        &token,
        Some(&session),
        "delete_document",
        delete.clone(),
    )
    .await;
    let (id, question) = call.question().await;
    assert!(question.contains("delete main:Sandbox.Asked"), "{question}");
    let other = initialize(&server, &token, true).await.expect("a session");
    let replica = server.replica(None).await;
    let on_replica = format!("{}/rest/wikis/main/aiLLM/mcp", replica.base);
    for (label, refused) in [
        (
            "another id",
            answer(&endpoint, &token, &session, &json!("elsewhere"), "accept").await,
        ),
        (
            "another token",
            answer(&endpoint, &server.alice_token, &session, &id, "accept").await,
        ),
        (
            "another session",
            answer(&endpoint, &token, &other, &id, "accept").await,
        ),
        (
            "another replica",
            answer(&on_replica, &token, &session, &id, "accept").await,
        ),
    ] {
        assert_eq!(refused, unexpected(), "{label}");
    }
    assert_eq!(
        answer(&endpoint, &token, &session, &id, "decline").await,
        accepted()
    );
    let declined = call.result().await;
    assert!(
        is_error(&declined) && text(&declined).contains("declined"),
        "{declined}"
    );
    assert!(
        page(&server, "Sandbox.Asked").is_some(),
        "a declined delete deleted"
    );
    assert_eq!(
        answer(&endpoint, &token, &session, &id, "accept").await,
        unexpected(),
        "a question answered twice"
    );
    assert!(page(&server, "Sandbox.Asked").is_some());

    let mut call = Reply::start(&server, &token, Some(&session), "delete_document", delete).await;
    let (id, _) = call.question().await;
    assert_eq!(
        answer(&endpoint, &token, &session, &id, "accept").await,
        accepted()
    );
    let deleted = call.result().await;
    assert!(!is_error(&deleted), "{deleted}");
    assert_eq!(page(&server, "Sandbox.Asked"), None);
    server.stop().await.expect("the server stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wiki_that_requires_confirmation_asks_every_write_of_a_session_that_can_be_asked() {
    let server = TestServer::start().await;
    configure(&server, true);
    let token = server.admin_token.clone();
    let endpoint = server.endpoint("main");
    let session = initialize(&server, &token, true).await.expect("a session");
    let write = |content: &str| json!({"reference": "Sandbox.Confirmed", "content": content});

    let mut call = Reply::start(
        &server,
        &token,
        Some(&session),
        "write_document",
        write("no"),
    )
    .await;
    let (id, question) = call.question().await;
    assert!(question.contains("Sandbox.Confirmed"), "{question}");
    assert_eq!(
        answer(&endpoint, &token, &session, &id, "decline").await,
        accepted()
    );
    assert!(is_error(&call.result().await));
    assert_eq!(
        page(&server, "Sandbox.Confirmed"),
        None,
        "a declined write wrote"
    );

    let mut call = Reply::start(
        &server,
        &token,
        Some(&session),
        "write_document",
        write("yes"),
    )
    .await;
    let (id, _) = call.question().await;
    assert_eq!(
        answer(&endpoint, &token, &session, &id, "accept").await,
        accepted()
    );
    let written = call.result().await;
    assert!(!is_error(&written), "{written}");
    assert_eq!(
        page(&server, "Sandbox.Confirmed"),
        Some(("1.1".to_owned(), "yes".to_owned())),
        "written once"
    );

    // A client that declared no elicitation is told so, not something else.
    let unasked = initialize(&server, &token, false).await;
    let mut call = Reply::start(
        &server,
        &token,
        unasked.as_deref(),
        "write_document",
        json!({"reference": "Sandbox.Unasked", "content": "x"}),
    )
    .await;
    let refused = call.result().await;
    let message = text(&refused);
    assert!(
        is_error(&refused)
            && message.contains("no elicitation capability")
            && message.contains("confirm_writes=false"),
        "{message}"
    );
    assert_eq!(page(&server, "Sandbox.Unasked"), None);
    server.stop().await.expect("the server stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_after_the_call_gave_up_is_refused_and_writes_nothing() {
    let server = TestServer::start_with_settings(|settings| {
        settings.with_call_timeout(Duration::from_secs(2))
    })
    .await;
    configure(&server, true);
    let token = server.admin_token.clone();
    let session = initialize(&server, &token, true).await.expect("a session");
    let write = json!({"reference": "Sandbox.Late", "content": "late"});
    let mut call = Reply::start(&server, &token, Some(&session), "write_document", write).await;
    let (id, _) = call.question().await;
    let unanswered = call.result().await;
    assert!(
        is_error(&unanswered) && text(&unanswered).contains("no answer within"),
        "{unanswered}"
    );
    assert_eq!(
        answer(&server.endpoint("main"), &token, &session, &id, "accept").await,
        unexpected()
    );
    assert_eq!(page(&server, "Sandbox.Late"), None);
    server.stop().await.expect("the server stops");
}
