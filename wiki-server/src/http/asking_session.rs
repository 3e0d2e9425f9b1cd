//! The `Mcp-Session-Id` of a client that can be asked: what the stateless endpoint keeps of an
//! `initialize` that declared form elicitation (a handshake always ends on a protocol before
//! 2026-07-28).
//!
//! Such a client can be asked a question in the middle of a call (`elicitation/create` on the
//! call's event stream, its answer POSTed back: `answers.rs`), but only its `initialize` says
//! so: later requests of those protocols carry no capabilities. The server therefore answers
//! that `initialize` with an `Mcp-Session-Id` that says "this client can be asked" and that the
//! client sends on every later request, as the spec asks. The id is the memory: any replica
//! reads it, none stores it, and a client without elicitation gets none and runs as before.
//!
//! The id names no wiki, caller or right: those still come from each request's path and
//! `Authorization` header, and an answer is accepted only from the token that made the call
//! (`answers.rs`). A client that forges the id only makes the server ask it questions it
//! cannot answer, each bounded by the call's time limit. A DELETE of the session is refused
//! 405 by rmcp's stateless service, which the spec allows: there is nothing to end.

use std::sync::Arc;

use http::{HeaderMap, HeaderValue};
use rmcp::model::ClientCapabilities;
use serde::Deserialize;

/// The header a session id travels in (HTTP header names are case-insensitive).
pub(crate) const SESSION_HEADER: &str = "mcp-session-id";

/// What every id this server issues starts with.
const PREFIX: &str = "ask-";

/// Random bytes in an id: unguessable, so two clients of one token never share questions.
const RANDOM_BYTES: usize = 16;

/// The session of a client that declared form elicitation at `initialize`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct AskingSession(Arc<str>);

impl std::fmt::Debug for AskingSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AskingSession(..)")
    }
}

impl AskingSession {
    /// A fresh session id.
    fn issue() -> Self {
        let mut bytes = [0u8; RANDOM_BYTES];
        rand::fill(&mut bytes);
        let mut id = String::with_capacity(PREFIX.len() + 2 * RANDOM_BYTES);
        id.push_str(PREFIX);
        for byte in bytes {
            id.push_str(&format!("{byte:02x}"));
        }
        AskingSession(id.into())
    }

    /// The session a request names, when it is one this server issues (one header, the
    /// prefix, lowercase hex of the right length); any other id (a proxy's, an old client's)
    /// is no asking session.
    pub(crate) fn of_request(headers: &HeaderMap) -> Option<Self> {
        let mut values = headers.get_all(SESSION_HEADER).iter();
        let value = values.next()?.to_str().ok()?;
        if values.next().is_some() {
            return None;
        }
        let random = value.strip_prefix(PREFIX)?;
        (random.len() == 2 * RANDOM_BYTES
            && random
                .bytes()
                .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte)))
        .then(|| AskingSession(value.into()))
    }

    fn header(&self) -> Option<HeaderValue> {
        HeaderValue::from_str(&self.0).ok()
    }
}

/// The `Mcp-Session-Id` to answer `body` with: a new asking session when it is an
/// `initialize` declaring form elicitation. Whatever version it proposes, an `initialize` ends
/// on a protocol before 2026-07-28 (which has no handshake: a client proposing it, as rmcp's
/// own client does, is answered with the latest version that has one), so such a client is
/// asked on the call's event stream and needs the session.
pub(crate) fn session_for_initialize(body: &[u8]) -> Option<HeaderValue> {
    let request = serde_json::from_slice::<Initialize<'_>>(body).ok()?;
    let asks = request.jsonrpc == "2.0"
        && request.method == "initialize"
        && mcp_runtime::elicit::supports_form(request.params.capabilities.as_ref());
    asks.then(AskingSession::issue)?.header()
}

/// The members of an `initialize` request read here; the rest is rmcp's.
#[derive(Deserialize)]
struct Initialize<'a> {
    jsonrpc: &'a str,
    method: &'a str,
    params: InitializeParams,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct InitializeParams {
    #[serde(default)]
    capabilities: Option<ClientCapabilities>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn initialize(version: &str, capabilities: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{capabilities},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
        )
    }

    fn headers(value: &HeaderValue) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(SESSION_HEADER, value.clone());
        headers
    }

    #[test]
    fn only_an_initialize_declaring_form_elicitation_gets_a_session() {
        let issued = |version: &str, capabilities: &str| {
            session_for_initialize(initialize(version, capabilities).as_bytes())
        };
        // A handshake proposing 2026-07-28 is answered with an older version: it asks too.
        for version in ["2025-11-25", "2026-07-28"] {
            for capabilities in [r#"{"elicitation":{}}"#, r#"{"elicitation":{"form":{}}}"#] {
                let value = issued(version, capabilities)
                    .unwrap_or_else(|| panic!("no session for {version} {capabilities}"));
                assert!(AskingSession::of_request(&headers(&value)).is_some());
            }
        }
        assert_eq!(issued("2025-11-25", "{}"), None);
        assert_eq!(issued("2025-11-25", r#"{"elicitation":{"url":{}}}"#), None);
        assert_eq!(
            session_for_initialize(
                br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}}}}"#
            ),
            None
        );
        let (one, two) = (
            issued("2025-11-25", r#"{"elicitation":{}}"#),
            issued("2025-11-25", r#"{"elicitation":{}}"#),
        );
        assert_ne!(one, two, "two handshakes share a session");
    }

    #[test]
    fn an_id_this_server_did_not_issue_is_no_asking_session() {
        for foreign in [
            "",
            "ask-",
            "abc",
            "ask-0123456789abcdef0123456789ABCDEF",
            "ask-0123456789abcdef0123456789abcde",
            "ASK-0123456789abcdef0123456789abcdef",
        ] {
            let value = HeaderValue::from_static(foreign);
            assert!(
                AskingSession::of_request(&headers(&value)).is_none(),
                "{foreign:?}"
            );
        }
        let mut twice = headers(&HeaderValue::from_static(
            "ask-0123456789abcdef0123456789abcdef",
        ));
        assert!(AskingSession::of_request(&twice).is_some());
        twice.append(
            SESSION_HEADER,
            HeaderValue::from_static("ask-0123456789abcdef0123456789abcdef"),
        );
        assert!(AskingSession::of_request(&twice).is_none());
    }
}
