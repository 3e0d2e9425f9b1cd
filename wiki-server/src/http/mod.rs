//! The streamable HTTP transport: `POST|GET|DELETE /rest/wikis/{wiki}/aiLLM/mcp`, rmcp's
//! [`StreamableHttpService`](rmcp::transport::StreamableHttpService) under axum.
//!
//! Every request passes, in order: the Host/Origin check (`origin.rs`, against DNS rebinding),
//! the wiki gate (unknown or disabled wiki: 404, before any authentication), authentication
//! (bearer token, guest, or 401 with `WWW-Authenticate`), the per-caller rate limit (429 with
//! `Retry-After`), the session's own narrowing (`narrowing.rs`: `X-MCP-Readonly`,
//! `X-MCP-Tools`, or the same as query parameters; 400 for a name that is no tool), then rmcp
//! with a typed [`Caller`](crate::server::Caller) in the request's extensions. The wiki and the caller are resolved from each request, never from a session.
//! A plain stateless `tools/call` is answered just before rmcp, by `direct.rs`, with the same
//! handler code and rmcp's model types but without rmcp's per-request service task. A POSTed
//! `notifications/cancelled` from a bearer-token caller cancels that caller's call with that id
//! on this replica (`in_flight.rs`), which statelessness would otherwise leave unheard. A client
//! on a protocol before 2026-07-28 that declares form elicitation gets an `Mcp-Session-Id`
//! saying so (`asking_session.rs`): its calls ask on their event stream, and its POSTed answers
//! reach the waiting call on this replica (`answers.rs`).
//!
//! # Stateless
//!
//! The service runs stateless (`legacy_session_mode(false)` with rmcp's `NeverSessionManager`)
//! and answers plain JSON when a call emits nothing before its result. The reasons:
//!
//! - rmcp sessions are not bound to the URL that opened them: a session id from wiki A is
//!   accepted on wiki B's URL. With no sessions there is nothing to smuggle; the wiki and the
//!   caller come from the request's path and `Authorization` header, every time.
//! - Protocol 2026-07-28 has no sessions (rmcp serves it statelessly whatever the setting), and
//!   clients on older protocols (rmcp's client, the Python SDK's `legacy` mode, the MCP Inspector)
//!   run the initialize handshake and simply get no `Mcp-Session-Id` back, which the spec allows
//!   (unless they declare elicitation: their id is no rmcp session, it only says that they can
//!   be asked, and names no wiki or caller).
//! - A revoked token or a disabled wiki takes effect on the next request, with no session state to
//!   reconcile, and replicas sharing one database need no session affinity.
//!
//! A server-initiated stream needs no session either: a GET (protocol 2025-11-25 and earlier,
//! `listen_stream.rs`) or a `subscriptions/listen` request (2026-07-28, the handler's `listen`)
//! carries `notifications/tools/list_changed` and `notifications/resources/list_changed` (its
//! skills) for its caller, from the store's change feed
//! (`list_changes.rs`), so a listener on one replica hears a change made on another.

mod admin;
mod answers;
mod asking_session;
mod body;
mod cancel_on_drop;
mod connections;
mod direct;
mod directory;
mod front;
mod gate;
mod holders;
mod identity;
mod in_flight;
mod lifecycle;
mod limits;
mod list_changes;
mod listen_stream;
mod malformed;
mod metrics;
mod narrowing;
mod oauth;
mod origin;
mod pages;
mod readiness;
mod refusal;
mod request_id;
mod rmcp_endpoint;
mod router;
mod shutdown;
mod streams;
mod url;
mod warnings;

pub(crate) use asking_session::AskingSession;
pub use connections::ConnectionLimits;
pub use directory::Directory;
pub(crate) use identity::{Credentials, credentials};
pub(crate) use in_flight::CancelScope;
pub use lifecycle::DEFAULT_SHUTDOWN_TIMEOUT;
pub use limits::{RateClock, RateLimit};
pub(crate) use list_changes::{Heard, ListChanges, Topics};
pub use list_changes::{LIST_TTL, ListenLimits};
pub use refusal::{REFUSAL_HEADER, Refusal, refusal_code};
pub use router::{HttpOptions, HttpServer};
pub use shutdown::shutdown_on_signal;
pub use url::BaseUrl;

/// The endpoint's path, with the wiki id as its one parameter.
pub const MCP_PATH: &str = "/rest/wikis/{wiki}/aiLLM/mcp";
