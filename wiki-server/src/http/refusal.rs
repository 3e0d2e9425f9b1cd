//! Every HTTP refusal this server answers, each declared once: its status, a stable code, its
//! title and text, and the headers it carries.
//!
//! A handler or middleware never builds an error response by hand: it returns a [`Refusal`],
//! whose [`IntoResponse`] is a `text/plain` body (`<title>: <text>`), the declared headers
//! (`Retry-After`, `WWW-Authenticate`) and the [`REFUSAL_HEADER`] naming the code. The admin
//! page and the signed link pages render the same refusal in their own clothes (an HTML page,
//! hardened headers) with the same status, text and headers. So a client, a test or an operator
//! reading a log tells refusals apart by their code, never by guessing from a status that
//! several of them share.
//!
//! Modelled on axum's rejections (`define_rejection!`): one line of declaration per refusal.

use std::borrow::Cow;
use std::fmt;

use axum::response::{IntoResponse, Response};
use http::header::{CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};

/// The response header naming a refusal's [`Refusal::code`].
pub const REFUSAL_HEADER: &str = "x-wiki-mcp-refusal";

/// The realm named in `Bearer` challenges.
const REALM: &str = "wiki-mcp";

/// Declares [`Refusal`]: per variant its status, code, title, text (a format string over the
/// variant's fields) and extra headers (name = value over the fields), and generates the
/// accessors from that one table.
macro_rules! refusals {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $({ $($field:ident : $type:ty),* $(,)? })?
            => $status:ident, $code:literal, $title:literal, $text:literal
            $(, [$($header:ident = $value:expr),* $(,)?])?;
    )*) => {
        /// A refusal of an HTTP request: see the module's documentation.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum Refusal {
            $(
                $(#[doc = $doc])*
                $variant $({ $(#[allow(missing_docs)] $field: $type),* })?,
            )*
        }

        impl Refusal {
            /// The HTTP status.
            pub fn status(&self) -> StatusCode {
                match self {
                    $(Self::$variant { .. } => StatusCode::$status,)*
                }
            }

            /// A stable machine-readable name (`unknown-wiki`, `rate-limited`…), sent in the
            /// [`REFUSAL_HEADER`] and named in logs and metrics.
            pub fn code(&self) -> &'static str {
                match self {
                    $(Self::$variant { .. } => $code,)*
                }
            }

            /// A short title: the body's first words, an HTML page's heading.
            pub fn title(&self) -> &'static str {
                match self {
                    $(Self::$variant { .. } => $title,)*
                }
            }

            /// What happened and what to do, for a person or an agent.
            #[allow(unused_variables)]
            pub fn text(&self) -> Cow<'static, str> {
                match self {
                    $(Self::$variant { $($($field),*)? } => text!($text),)*
                }
            }

            /// Puts the declared headers and the refusal's code into `headers`.
            #[allow(unused_variables)]
            pub fn add_headers(&self, headers: &mut HeaderMap) {
                headers.insert(
                    HeaderName::from_static(REFUSAL_HEADER),
                    HeaderValue::from_static(self.code()),
                );
                match self {
                    $(Self::$variant { $($($field),*)? } => {
                        $($(insert(headers, $header, $value);)*)?
                    })*
                }
            }
        }
    };
}

/// A text without arguments stays borrowed; one with arguments is formatted.
macro_rules! text {
    ($text:literal) => {
        match format_args!($text) {
            arguments => match arguments.as_str() {
                Some(text) => Cow::Borrowed(text),
                None => Cow::Owned(arguments.to_string()),
            },
        }
    };
}

refusals! {
    /// A header that may appear once appears more than once (`Authorization`, `Host`,
    /// `Origin`): each layer could read another one.
    RepeatedHeader { name: HeaderName }
        => BAD_REQUEST, "repeated-header", "Bad Request",
           "the {name} header appears more than once; send it once";
    /// User information (`user@host`) in `Host`, `Origin` or the request URL.
    UserInformation { place: &'static str }
        => BAD_REQUEST, "user-information", "Bad Request",
           "{place} carries user information (user@host); send the host alone";
    /// A `Host` that is neither loopback nor the public URL's (DNS rebinding).
    HostNotAllowed
        => FORBIDDEN, "host-not-allowed", "Forbidden", "Host header not allowed";
    /// An `Origin` that is neither loopback nor the public URL's.
    OriginNotAllowed
        => FORBIDDEN, "origin-not-allowed", "Forbidden", "Origin not allowed";
    /// A body past the cap.
    BodyTooLarge { max: usize }
        => PAYLOAD_TOO_LARGE, "body-too-large", "Payload Too Large",
           "the request body exceeds {max} bytes; send a smaller one (serve --max-body-bytes \
            raises the cap)";
    /// A body that did not arrive within its deadline.
    BodyTimeout { seconds: f64 }
        => REQUEST_TIMEOUT, "body-timeout", "Request Timeout",
           "the request body did not arrive within {seconds} s; send it at once";
    /// A body that broke off or whose chunked encoding is invalid.
    BodyUnreadable
        => BAD_REQUEST, "body-unreadable", "Bad Request",
           "the request body could not be read (the connection broke off or the chunked \
            encoding is invalid)";
    /// A JSON body with more values, or deeper nesting, than any call needs.
    BodyTooComplex { values: usize, depth: usize }
        => PAYLOAD_TOO_LARGE, "body-too-complex", "Payload Too Large",
           "the JSON request body holds more than {values} values or nests deeper than \
            {depth} levels; send fewer (split a large write into several calls)";
    /// No MCP endpoint under this wiki id: the wiki does not exist or its endpoint is
    /// disabled (the same answer for both, given before any authentication).
    UnknownWiki
        => NOT_FOUND, "unknown-wiki", "Not Found",
           "no MCP endpoint is served for this wiki (it does not exist or is disabled)";
    /// Nothing is served at this path.
    NotFound
        => NOT_FOUND, "not-found", "Not Found", "nothing is served at this path";
    /// A request without credentials where the guest is not admitted.
    TokenRequired { resource_metadata: Option<String> }
        => UNAUTHORIZED, "token-required", "Unauthorized",
           "this endpoint requires a bearer token: ask an administrator for one (`wiki-mcp token \
            create`, or the admin page's Tokens form), or, on a wiki's endpoint, ask them to open \
            the wiki to callers without a token (`wiki-mcp config set --wiki WIKI guest=true`, or \
            the admin page's Guest access box)",
           [WWW_AUTHENTICATE = challenge(false, resource_metadata.as_deref())];
    /// A bearer token that is invalid or revoked (or another scheme than `Bearer`).
    InvalidToken { resource_metadata: Option<String> }
        => UNAUTHORIZED, "invalid-token", "Unauthorized",
           "the bearer token is invalid or revoked",
           [WWW_AUTHENTICATE = challenge(true, resource_metadata.as_deref())];
    /// A session narrowing (`X-MCP-Readonly`, `X-MCP-Tools`, `?readonly=`, `?tools=`) that
    /// cannot be read: the text says what it named and what is accepted.
    BadNarrowing { text: String }
        => BAD_REQUEST, "bad-narrowing", "Bad Request", "{text}";
    /// An API token past the expiry it was created with.
    ExpiredToken { resource_metadata: Option<String> }
        => UNAUTHORIZED, "expired-token", "Unauthorized",
           "the API token expired; an administrator creates a new one (`wiki-mcp token create`, \
            or the admin page's Tokens form)",
           [WWW_AUTHENTICATE = challenge(true, resource_metadata.as_deref())];
    /// An API token scoped to other wikis than the one whose endpoint it was sent to.
    TokenNotForWiki { wikis: String }
        => FORBIDDEN, "token-not-for-wiki", "Forbidden",
           "this API token may be used only on the wikis {wikis}; use it there, or ask an \
            administrator for a token that includes this wiki (`wiki-mcp token create --wiki`, \
            or the admin page's Tokens form)",
           [WWW_AUTHENTICATE = insufficient_scope()];
    /// A valid token whose user does not administer the farm, where only a farm
    /// administrator may look.
    FarmAdminRequired
        => FORBIDDEN, "farm-admin-required", "Forbidden",
           "only a farm administrator's token (the admin right on the main wiki) may read this";
    /// The caller's (or the client address's) token bucket is empty.
    RateLimited { retry_after: u64 }
        => TOO_MANY_REQUESTS, "rate-limited", "Too Many Requests",
           "retry in {retry_after} s", [RETRY_AFTER = retry_after];
    /// A GET on the MCP endpoint whose `Accept` does not list `text/event-stream`.
    NotAcceptable
        => NOT_ACCEPTABLE, "not-acceptable", "Not Acceptable",
           "a GET on this endpoint opens an event stream of tool-list changes: send Accept: text/event-stream";
    /// A change stream beyond the caller's or the server's limit.
    TooManyStreams { text: String }
        => TOO_MANY_REQUESTS, "too-many-streams", "Too Many Requests", "{text}",
           [RETRY_AFTER = 5];
    /// A POSTed JSON-RPC response that no question of this replica waits for.
    AnswerUnexpected
        => CONFLICT, "answer-unexpected", "Conflict",
           "no question waits here for this answer (same id, Mcp-Session-Id and token): it was \
            answered already, its call ended (time limit, cancelled, client gone), or another \
            replica asked it (a load balancer must send a session's requests to one replica); \
            nothing was saved: call the tool again to be asked again";
    /// A POSTed JSON-RPC response whose result is no elicitation result.
    AnswerMalformed
        => BAD_REQUEST, "answer-malformed", "Bad Request",
           "this answer is not an elicitation result: send a result whose action is accept, \
            decline or cancel, or a JSON-RPC error";
    /// This client address has as many connections open as it may.
    TooManyConnections
        => SERVICE_UNAVAILABLE, "too-many-connections", "Service Unavailable",
           "too many open connections from your address; close some",
           [RETRY_AFTER = 1];
    /// The store does not answer now (the database is down or restarting).
    StoreUnavailable
        => SERVICE_UNAVAILABLE, "store-unavailable", "Service Unavailable",
           "the wiki store is temporarily unavailable: retry in a few seconds",
           [RETRY_AFTER = 2];
    /// The store failed other than by being unreachable (the log says why).
    StoreFailed
        => SERVICE_UNAVAILABLE, "store-failed", "Service Unavailable",
           "the wiki store failed; the server log says why";
    /// The server is shutting down: this replica takes no new request.
    ShuttingDown
        => SERVICE_UNAVAILABLE, "shutting-down", "Service Unavailable",
           "the server is shutting down; retry on another replica or in a moment",
           [RETRY_AFTER = 1];
    /// Something that cannot fail did (logged).
    Internal
        => INTERNAL_SERVER_ERROR, "internal-error", "Internal Server Error",
           "the answer could not be built; the server log says why";
    /// A signed link that is invalid, expired, or whose holder may no longer see its page.
    LinkRefused
        => FORBIDDEN, "link-refused", "Link refused",
           "This link is invalid, has expired, or no longer grants access. Ask for a fresh link.";
    /// A signed link's document or translation is gone.
    DocumentNotFound
        => NOT_FOUND, "document-not-found", "Not found",
           "This document (or translation) does not exist.";
    /// A signed link's attachment is gone.
    AttachmentNotFound
        => NOT_FOUND, "attachment-not-found", "Not found", "This attachment does not exist.";
    /// A signed comparison names a revision that does not exist.
    RevisionNotFound
        => NOT_FOUND, "revision-not-found", "Not found",
           "One of these revisions does not exist.";
    /// Every rendering slot stayed taken.
    RenderingBusy
        => SERVICE_UNAVAILABLE, "rendering-busy", "Busy",
           "The server is busy rendering other pages. Retry in a few seconds.",
           [RETRY_AFTER = 5];
    /// An admin form without its session's CSRF token.
    FormRefused
        => FORBIDDEN, "form-refused", "Form refused",
           "This form was not sent from a current admin page (missing or stale security token, \
            or the session ended). Open the page again and resubmit.";
    /// A signed-in user who administers nothing any more (the session is closed).
    NoLongerAdministrator
        => FORBIDDEN, "no-longer-administrator", "Not an administrator",
           "This user no longer administers any wiki; the session is closed.";
    /// An identity provider's sign-in whose identity is linked to no wiki user (the log says
    /// which identity, and how to link it).
    UnlinkedIdentity
        => FORBIDDEN, "unlinked-identity", "Not an administrator",
           "The identity provider signed you in, but your account is not linked to a wiki user \
            who administers the farm or a wiki. Ask a farm administrator to link it (the server \
            log names your account), then sign in again.";
    /// An identity provider's sign-in of a user who administers nothing.
    NotAdministrator { user: String }
        => FORBIDDEN, "not-an-administrator", "Not an administrator",
           "You are signed in at the identity provider as {user}, but {user} does not administer \
            the farm or any wiki. Ask a farm administrator for the admin right, then sign in \
            again.";
    /// A farm-wide admin page (users, groups, rights) asked by an administrator of some wikis
    /// only.
    FarmAdministratorsOnly
        => FORBIDDEN, "farm-administrators-only", "Farm administrators only",
           "Users, groups and rights rules are managed by the farm's administrators only (the \
            admin right on the main wiki).";
    /// An admin page about a wiki that does not exist or that the user does not administer.
    NoSuchWiki
        => NOT_FOUND, "no-such-wiki", "No such wiki",
           "This wiki does not exist, or you do not administer it.";
    /// The admin page's sign-in at an identity provider when none is configured.
    NoIdentityProvider
        => NOT_FOUND, "no-identity-provider", "No identity provider",
           "This server signs administrators in with API tokens only (serve with \
            --oidc-client-id to sign in at the identity provider).";
    /// The identity provider could not be reached to start a sign-in.
    IdentityProviderUnavailable
        => SERVICE_UNAVAILABLE, "identity-provider-unavailable", "Identity provider unavailable",
           "The identity provider could not be reached. Try again in a moment, or sign in with \
            an API token; the server log says why.";
    /// Too many sign-ins at the identity provider are under way to record another.
    SignInsBusy
        => SERVICE_UNAVAILABLE, "sign-ins-busy", "Too many sign-ins under way",
           "Too many sign-ins at the identity provider are under way. Try again in a few \
            minutes, or sign in with an API token.";
    /// A sign-in callback without its pending sign-in (not started here, used, or too old).
    SignInExpired
        => BAD_REQUEST, "sign-in-expired", "Sign-in expired",
           "This sign-in was not started in this browser, was already used, or took longer than \
            ten minutes. Start again from the sign-in page.";
    /// The identity provider did not sign the person in.
    SignInDenied
        => UNAUTHORIZED, "sign-in-denied", "Sign-in failed",
           "The identity provider did not sign you in. Start again, or sign in with an API \
            token.";
    /// The identity provider could not be reached to complete a sign-in.
    SignInUnreachable
        => UNAUTHORIZED, "sign-in-unreachable", "Sign-in failed",
           "The identity provider could not be reached to complete the sign-in. Try again in a \
            moment; the server log says why.";
    /// A sign-in that failed otherwise (the log says why).
    SignInIncomplete
        => UNAUTHORIZED, "sign-in-incomplete", "Sign-in failed",
           "The sign-in could not be completed (the server log says why). Start again from the \
            sign-in page.";
}

impl Refusal {
    /// The 503 of a request the store could not answer: [`Refusal::StoreUnavailable`] when the
    /// failure is transient (retry soon), else [`Refusal::StoreFailed`].
    pub(crate) fn of_store(error: &crate::Error) -> Self {
        if matches!(error, crate::Error::Store(store) if store.is_transient()) {
            Refusal::StoreUnavailable
        } else {
            Refusal::StoreFailed
        }
    }

    /// The 429 for a wait of `wait` (whole seconds in `Retry-After`, rounded up, at least 1).
    pub(crate) fn rate_limited(wait: std::time::Duration) -> Self {
        Refusal::RateLimited {
            retry_after: super::limits::retry_after_seconds(wait),
        }
    }

    /// The whole response as HTTP/1.1 bytes, for answering on a raw socket before any
    /// connection is served (`Connection: close`).
    pub(crate) fn to_http1(&self) -> Vec<u8> {
        let body = self.body();
        let mut headers = HeaderMap::new();
        self.add_headers(&mut headers);
        let mut out = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
             Connection: close\r\n",
            self.status().as_u16(),
            self.status().canonical_reason().unwrap_or(""),
            body.len()
        );
        for (name, value) in &headers {
            if let Ok(value) = value.to_str() {
                out.push_str(&format!("{name}: {value}\r\n"));
            }
        }
        out.push_str("\r\n");
        out.push_str(&body);
        out.into_bytes()
    }

    /// Puts the declared headers into `response`, and the refusal itself into its extensions,
    /// where the front door finds it to count and log it (`gate.rs`): for a response that
    /// renders the refusal in other clothes (an HTML page).
    pub(crate) fn attach(self, response: &mut Response) {
        self.add_headers(response.headers_mut());
        response.extensions_mut().insert(self);
    }

    /// The plain-text body: `<title>: <text>` and a newline.
    pub fn body(&self) -> String {
        format!("{self}\n")
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.title(), self.text())
    }
}

impl std::error::Error for Refusal {}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut response = (self.status(), self.body()).into_response();
        response.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        self.attach(&mut response);
        response
    }
}

/// The refusal code of a response this server refused, if it is one.
pub fn refusal_code(headers: &HeaderMap) -> Option<&str> {
    headers.get(REFUSAL_HEADER)?.to_str().ok()
}

/// Inserts `name: value`; a value that is no valid header (never, for the declared ones) is
/// left out rather than sent broken.
fn insert(headers: &mut HeaderMap, name: HeaderName, value: impl fmt::Display) {
    if let Ok(value) = HeaderValue::try_from(value.to_string()) {
        headers.insert(name, value);
    }
}

/// The `Bearer` challenge (RFC 6750 §3): `error="invalid_token"` when a presented token was
/// refused, `resource_metadata` (RFC 9728) when an authorization server is configured.
/// RFC 6750's challenge for a valid token that does not reach what was asked.
fn insufficient_scope() -> String {
    format!("Bearer realm=\"{REALM}\", error=\"insufficient_scope\"")
}

fn challenge(invalid_token: bool, resource_metadata: Option<&str>) -> String {
    let mut challenge = format!("Bearer realm=\"{REALM}\"");
    if invalid_token {
        challenge.push_str(", error=\"invalid_token\"");
    }
    if let Some(url) = resource_metadata {
        challenge.push_str(&format!(", resource_metadata=\"{url}\""));
    }
    challenge
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// One of every refusal.
    fn all() -> Vec<Refusal> {
        vec![
            Refusal::RepeatedHeader {
                name: http::header::HOST,
            },
            Refusal::UserInformation { place: "the URL" },
            Refusal::HostNotAllowed,
            Refusal::OriginNotAllowed,
            Refusal::BodyTooLarge { max: 10 },
            Refusal::BodyTimeout { seconds: 1.5 },
            Refusal::BodyUnreadable,
            Refusal::BodyTooComplex {
                values: 1,
                depth: 1,
            },
            Refusal::UnknownWiki,
            Refusal::NotFound,
            Refusal::TokenRequired {
                resource_metadata: None,
            },
            Refusal::InvalidToken {
                resource_metadata: Some("https://x/m".into()),
            },
            Refusal::BadNarrowing {
                text: "?tools= names no tool".into(),
            },
            Refusal::ExpiredToken {
                resource_metadata: None,
            },
            Refusal::TokenNotForWiki {
                wikis: "main".into(),
            },
            Refusal::FarmAdminRequired,
            Refusal::RateLimited { retry_after: 3 },
            Refusal::TooManyConnections,
            Refusal::AnswerUnexpected,
            Refusal::AnswerMalformed,
            Refusal::StoreUnavailable,
            Refusal::StoreFailed,
            Refusal::ShuttingDown,
            Refusal::Internal,
            Refusal::LinkRefused,
            Refusal::DocumentNotFound,
            Refusal::AttachmentNotFound,
            Refusal::RevisionNotFound,
            Refusal::RenderingBusy,
            Refusal::FormRefused,
            Refusal::NoLongerAdministrator,
            Refusal::UnlinkedIdentity,
            Refusal::NotAdministrator { user: "ann".into() },
            Refusal::FarmAdministratorsOnly,
            Refusal::NoSuchWiki,
            Refusal::NoIdentityProvider,
            Refusal::IdentityProviderUnavailable,
            Refusal::SignInsBusy,
            Refusal::SignInExpired,
            Refusal::SignInDenied,
            Refusal::SignInUnreachable,
            Refusal::SignInIncomplete,
        ]
    }

    #[test]
    fn codes_and_texts_tell_every_refusal_apart() {
        let all = all();
        let codes: HashSet<_> = all.iter().map(Refusal::code).collect();
        assert_eq!(codes.len(), all.len(), "a code is declared twice");
        let bodies: HashSet<_> = all.iter().map(Refusal::body).collect();
        assert_eq!(bodies.len(), all.len(), "two refusals say the same");
        for refusal in &all {
            assert!(
                refusal.status().is_client_error() || refusal.status().is_server_error(),
                "{refusal:?}"
            );
            assert!(!refusal.text().contains('{'), "{refusal:?}");
        }
    }

    #[test]
    fn a_response_carries_its_status_code_text_and_declared_headers() {
        let response = Refusal::RateLimited { retry_after: 3 }.into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(refusal_code(response.headers()), Some("rate-limited"));
        assert_eq!(
            response.headers().get(RETRY_AFTER),
            Some(&HeaderValue::from_static("3"))
        );
        let response = Refusal::InvalidToken {
            resource_metadata: Some("https://x/m".into()),
        }
        .into_response();
        assert_eq!(
            response.headers().get(WWW_AUTHENTICATE),
            Some(&HeaderValue::from_static(
                "Bearer realm=\"wiki-mcp\", error=\"invalid_token\", resource_metadata=\"https://x/m\""
            ))
        );
        assert_eq!(
            Refusal::BodyTooLarge { max: 10 }.body(),
            "Payload Too Large: the request body exceeds 10 bytes; send a smaller one (serve \
             --max-body-bytes raises the cap)\n"
        );
    }

    #[test]
    fn the_raw_answer_is_a_complete_response() {
        let bytes = Refusal::TooManyConnections.to_http1();
        let text = String::from_utf8_lossy(&bytes);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or_default();
        assert!(
            head.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
            "{text}"
        );
        assert!(
            head.contains(&format!("Content-Length: {}", body.len())),
            "{text}"
        );
        assert!(head.contains("retry-after: 1"), "{text}");
        assert!(
            head.contains("x-wiki-mcp-refusal: too-many-connections"),
            "{text}"
        );
    }
}
