//! An HTTP client that goes away mid-call cancels the call, whichever code answers it: the
//! direct `tools/call` answer (`http/direct.rs`) or rmcp's streamable HTTP service, for a
//! 2025-11-25 request and a 2026-07-28 one (whose only cancellation signal over HTTP is the
//! client disconnecting), before the reply started and while it streams. Each test drives the
//! `grind` tool, which ignores the call's signal on purpose: only the store interrupting its
//! statement ends its loop early, so `interrupted` proves the store work stopped.
//!
//! A request reaches rmcp here either because the server was started with
//! `direct_tool_calls: false` (so nothing else can answer it) or because its body is chunked
//! (the direct answer takes only a body with a `Content-Length`).
//!
//! rmcp's own client cancelling a call (`notifications/cancelled`, then it drops the request)
//! stops it on either path too: the last test.

use std::time::{Duration, Instant};

use rmcp::ServiceExt as _;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use wiki_server::Manager;
use wiki_store::testing::backend_test;

use crate::harness::Farm;
use crate::served::{Connection, Framing, Served};
use crate::tools::{grind_end, grind_started};

/// The most a hang-up may take to stop the store work and be audited: far below the
/// keep-alive interval of rmcp's streams (15 s) and the grind's own minute.
pub(crate) const PROMPTLY: Duration = Duration::from_secs(3);

/// The protocol a test's request speaks: it decides the body and the headers.
#[derive(Clone, Copy)]
enum Protocol {
    /// 2025-11-25: the version in a header only.
    Legacy,
    /// 2026-07-28: the protocol in `_meta` and the standard headers; the client disconnecting
    /// is its only cancellation signal over HTTP.
    Modern,
}

impl Protocol {
    /// A `grind` call; with `progress`, a progress token, and the tool reports once first.
    fn call(self, progress: bool) -> Value {
        let mut params = json!({"name": "grind", "arguments": {"report": progress}});
        if let Self::Modern = self {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "disconnects", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {},
            });
        }
        if progress {
            params["_meta"]["progressToken"] = json!("grinding");
        }
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params})
    }

    fn headers(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Self::Legacy => &[("MCP-Protocol-Version", "2025-11-25")],
            Self::Modern => &[
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "grind"),
            ],
        }
    }
}

/// What one test sends, and when its client hangs up: by default a `Content-Length` request
/// to a server that leaves every call to rmcp (`direct_tool_calls: false`), hung up on before
/// any byte of the reply.
struct HangUp {
    /// The wiki of the test's own: grind ends and audit records are told apart by it.
    wiki: &'static str,
    protocol: Protocol,
    direct_tool_calls: bool,
    framing: Framing,
    /// Whether the call carries a progress token, so that its reply streams, and the client
    /// hangs up once the stream carried the tool's progress report.
    mid_stream: bool,
}

impl HangUp {
    fn new(wiki: &'static str, protocol: Protocol) -> Self {
        Self {
            wiki,
            protocol,
            direct_tool_calls: false,
            framing: Framing::ContentLength,
            mid_stream: false,
        }
    }

    /// On a server that answers `tools/call` itself where it can (the default server).
    fn direct_tool_calls(self) -> Self {
        Self {
            direct_tool_calls: true,
            ..self
        }
    }

    /// With a chunked body, which the direct answer leaves to rmcp.
    fn chunked(self) -> Self {
        Self {
            framing: Framing::Chunked,
            ..self
        }
    }

    /// Once the streamed reply started.
    fn mid_stream(self) -> Self {
        Self {
            mid_stream: true,
            ..self
        }
    }
}

impl HangUp {
    /// Sends the call on a server over `farm`, hangs up mid-call, and asserts that the store
    /// work was interrupted and the call audited `cancelled`, both promptly.
    async fn cancels_the_call(self, farm: &Farm) {
        farm.store
            .create_wiki(&crate::harness::wiki(self.wiki), self.wiki)
            .unwrap_or_else(|e| panic!("{e}"));
        farm.configure(self.wiki, |config| config.guest_access = true);
        let manager = farm.manager();
        let served = Served::start(std::sync::Arc::clone(&manager), self.direct_tool_calls).await;
        let body = self.protocol.call(self.mid_stream);
        let headers = self.protocol.headers();
        let mut connection =
            Connection::post(&served, self.wiki, headers, &body, self.framing).await;
        if self.mid_stream {
            let received = connection.read_until("notifications/progress").await;
            assert!(
                received.contains("text/event-stream"),
                "the reply does not stream: {received}"
            );
        }
        grind_started(self.wiki).await;
        if !self.mid_stream {
            assert!(
                !connection.answered_within(Duration::from_millis(100)).await,
                "the call was answered before the client hung up"
            );
        }
        let hung_up = Instant::now();
        connection.hang_up();
        let end = grind_end(self.wiki, PROMPTLY).await;
        let stopped = hung_up.elapsed();
        assert_eq!(end.as_deref(), Some("interrupted"));
        assert!(
            stopped < PROMPTLY,
            "the store work stopped after {stopped:?}"
        );
        assert_eq!(
            outcome(&manager, self.wiki).await.as_deref(),
            Some("cancelled")
        );
    }
}

/// Waits up to [`PROMPTLY`] for the audit record of the `grind` call on `wiki`; its outcome.
pub(crate) async fn outcome(manager: &Manager, wiki: &str) -> Option<String> {
    let deadline = Instant::now() + PROMPTLY;
    while Instant::now() < deadline {
        let records = manager
            .recent_calls()
            .newest(1, |record| record.tool == "grind" && record.wiki == wiki);
        if let Some(record) = records.first() {
            return Some(record.outcome.as_str().to_owned());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_11_25_call_through_rmcp_is_cancelled_when_its_client_hangs_up() {
    let farm = Farm::new();
    HangUp::new("legacyrmcp", Protocol::Legacy)
        .cancels_the_call(&farm)
        .await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chunked_call_reaches_rmcp_and_is_cancelled_when_its_client_hangs_up() {
    let farm = Farm::new();
    HangUp::new("chunked", Protocol::Legacy)
        .direct_tool_calls()
        .chunked()
        .cancels_the_call(&farm)
        .await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_call_is_cancelled_when_its_client_hangs_up() {
    let farm = Farm::new();
    HangUp::new("modern", Protocol::Modern)
        .cancels_the_call(&farm)
        .await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_11_25_call_through_rmcp_is_cancelled_when_its_client_leaves_the_stream() {
    let farm = Farm::new();
    HangUp::new("legacystream", Protocol::Legacy)
        .mid_stream()
        .cancels_the_call(&farm)
        .await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_call_is_cancelled_when_its_client_leaves_the_stream() {
    let farm = Farm::new();
    HangUp::new("modernstream", Protocol::Modern)
        .mid_stream()
        .cancels_the_call(&farm)
        .await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directly_answered_call_is_cancelled_when_its_client_leaves_the_stream() {
    let farm = Farm::new();
    HangUp::new("directstream", Protocol::Legacy)
        .direct_tool_calls()
        .mid_stream()
        .cancels_the_call(&farm)
        .await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn a_directly_answered_call_is_cancelled_when_its_client_hangs_up() {
    let farm = Farm::new();
    HangUp::new("direct", Protocol::Legacy)
        .direct_tool_calls()
        .cancels_the_call(&farm)
        .await;
}

/// rmcp's client (protocol 2025-11-25 over streamable HTTP) cancelling its call: it POSTs
/// `notifications/cancelled` and drops the request's connection. The stateless service cannot
/// tie the notification to the call (no session; rmcp answers it 202 and drops it), so the
/// dropped connection is what stops the call, on rmcp's path (`direct_tool_calls: false`) and
/// on the direct answer alike.
#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn an_rmcp_client_cancelling_its_call_stops_it_on_either_path() {
    let farm = Farm::new();
    for (wiki, direct_tool_calls) in [("cancelrmcp", false), ("canceldirect", true)] {
        farm.store
            .create_wiki(&crate::harness::wiki(wiki), wiki)
            .unwrap_or_else(|e| panic!("{e}"));
        farm.configure(wiki, |config| config.guest_access = true);
        let manager = farm.manager();
        let served = Served::start(std::sync::Arc::clone(&manager), direct_tool_calls).await;
        let endpoint = format!("http://{}/rest/wikis/{wiki}/aiLLM/mcp", served.address);
        let client = ()
            .serve(StreamableHttpClientTransport::from_uri(endpoint))
            .await
            .unwrap_or_else(|e| panic!("the rmcp client connects: {e}"));
        let request = rmcp::model::ClientRequest::CallToolRequest(
            rmcp::model::CallToolRequest::new(rmcp::model::CallToolRequestParams::new("grind")),
        );
        let handle = client
            .peer()
            .send_cancellable_request(request, rmcp::service::PeerRequestOptions::no_options())
            .await
            .unwrap_or_else(|e| panic!("the call is sent: {e}"));
        grind_started(wiki).await;
        handle
            .cancel(Some("the person changed their mind".to_owned()))
            .await
            .unwrap_or_else(|e| panic!("the cancellation is sent: {e}"));
        assert_eq!(
            grind_end(wiki, PROMPTLY).await.as_deref(),
            Some("interrupted"),
            "{wiki}"
        );
        assert_eq!(
            outcome(&manager, wiki).await.as_deref(),
            Some("cancelled"),
            "{wiki}"
        );
    }
}
