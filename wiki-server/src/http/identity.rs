//! Who is calling, on which wiki: resolved on every request, in the reference's order.
//!
//! 1. Unknown or disabled wiki: 404, before any authentication, so a disabled endpoint looks
//!    absent and says nothing about its credentials.
//! 2. `Authorization: Bearer <token>`: the token's user; an invalid, revoked or expired token (or
//!    another scheme): 401; an API token scoped to other wikis: 403. Failed attempts draw from
//!    the client address's rate bucket, so guessing tokens is throttled.
//! 3. No credentials: the guest, unless an authorization server is configured or the wiki's
//!    configuration turns the guest off; then 401 with `WWW-Authenticate`.
//! 4. The caller's rate bucket: 429 with `Retry-After` when empty.
//! 5. What narrows the caller: its API token's scope (read-only, tools), and the session's own
//!    narrowing (`narrowing.rs`; a name that is neither a tool nor a category: 400).
//!
//! The result is an [`Admitted`] caller, which the direct `tools/call` answer and the GET
//! change stream (`listen_stream.rs`) use as it is and which goes to rmcp's handler in the request's extensions; nothing is taken from a session. An authenticated request also gets a [`CancelScope`] (its token's
//! digest), under which its call can be cancelled by `notifications/cancelled` (`in_flight.rs`).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::header::AUTHORIZATION;
use http::{Extensions, HeaderMap, Method, Uri};
use time::OffsetDateTime;
use wiki_store::model::wiki::WikiId;

use super::direct::answer_tool_calls;
use super::directory::Bearer;
use super::in_flight::{CancelScope, Credential};
use super::limits::RateKey;
use super::listen_stream::standalone_stream;
use super::narrowing::session_limit;
use super::oauth::{resource_metadata, unauthorized};
use super::refusal::Refusal;
use super::router::Shared;
use crate::narrowing::{Limit, NarrowedBy, Narrowing};
use crate::server::{CallOrigin, Caller, RequestId, TraceParent, WikiServer};

/// What the `Authorization` header says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Credentials {
    /// No `Authorization` header.
    None,
    /// `Bearer <token>`.
    Bearer(String),
    /// Anything else (another scheme, an empty token, non-ASCII bytes): refused as invalid.
    Unusable,
}

pub(crate) fn credentials(headers: &HeaderMap) -> Credentials {
    let Some(value) = headers.get(AUTHORIZATION) else {
        return Credentials::None;
    };
    let Ok(value) = value.to_str() else {
        return Credentials::Unusable;
    };
    let mut parts = value.trim().splitn(2, ' ');
    let scheme = parts.next().unwrap_or_default();
    let token = parts.next().unwrap_or_default().trim();
    if scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() {
        Credentials::Bearer(token.to_owned())
    } else {
        Credentials::Unusable
    }
}

/// Who a request admitted to the MCP endpoint comes from, and the server of its wiki.
pub(crate) struct Admitted {
    pub(crate) caller: Caller,
    /// The server this request was admitted by, so the handler need not look it up again.
    pub(crate) server: Arc<WikiServer>,
    /// For an authenticated caller: under which its call can be cancelled.
    pub(crate) scope: Option<CancelScope>,
}

impl Admitted {
    /// Hands the caller, its server and its cancel scope to rmcp's handler through the
    /// request's extensions.
    pub(crate) fn into_extensions(self, extensions: &mut Extensions) {
        extensions.insert(self.caller);
        extensions.insert(self.server);
        if let Some(scope) = self.scope {
            extensions.insert(scope);
        }
    }
}

/// The middleware in front of the MCP service: the request's caller (or the refusal to
/// answer), then the direct answer of a plain `tools/call` or rmcp (`direct.rs`).
pub(crate) async fn mcp_endpoint(
    State(shared): State<Arc<Shared>>,
    Path(wiki): Path<String>,
    request: Request,
    next: Next,
) -> Response {
    let address = client_address(&request);
    let origin = CallOrigin {
        request_id: request.extensions().get::<RequestId>().cloned(),
        trace_parent: TraceParent::from_headers(request.headers()),
    };
    match identify(
        &shared,
        &wiki,
        request.headers(),
        request.uri(),
        address,
        origin,
    )
    .await
    {
        Ok(admitted) if request.method() == Method::GET => {
            standalone_stream(shared, admitted, request).await
        }
        Ok(admitted) => answer_tool_calls(shared, admitted, request, next).await,
        Err(refusal) => refusal.into_response(),
    }
}

/// Steps 1 to 5 above for a request on `wiki` with `headers` and `uri`, from `address`.
async fn identify(
    shared: &Shared,
    wiki: &str,
    headers: &HeaderMap,
    uri: &Uri,
    address: IpAddr,
    origin: CallOrigin,
) -> Result<Admitted, Refusal> {
    let Ok(wiki) = WikiId::new(wiki) else {
        return Err(Refusal::UnknownWiki);
    };
    let credentials = credentials(headers);
    let token = match &credentials {
        Credentials::Bearer(token) => Some(token.clone()),
        Credentials::None | Credentials::Unusable => None,
    };
    let resolution = shared.resolve(wiki.clone(), token).await?;
    let Some(server) = resolution.server else {
        return Err(Refusal::UnknownWiki);
    };
    let mut scope = None;
    let mut narrowing = Narrowing::none();
    let caller = match (credentials, resolution.bearer) {
        (Credentials::Bearer(token), Some(bearer)) => {
            if let Some(limit) = token_scope(shared, &wiki, &bearer, address)? {
                narrowing = narrowing.with(limit);
            }
            // Only the same token on the same wiki may cancel this request's call.
            scope = Some(CancelScope::new(
                &shared.in_flight,
                Credential::new(&wiki, &token),
            ));
            Caller::user(wiki, bearer.user).with_origin(origin)
        }
        (presented @ (Credentials::Bearer(_) | Credentials::Unusable), _) => {
            let request_id = origin.request_id.as_ref();
            shared.refused_token(&presented, address, request_id, Some(&wiki));
            if let Some(response) = shared.throttle(RateKey::address(address)) {
                return Err(response);
            }
            return Err(unauthorized(shared, &wiki, true));
        }
        (Credentials::None, _) => {
            if !shared.options.authorization_servers.is_empty() || !server.guest_access() {
                return Err(unauthorized(shared, &wiki, false));
            }
            Caller::guest(wiki)
                .with_origin(origin)
                .from_address(address)
        }
    };
    let key = match caller.user_name() {
        Some(user) => RateKey::User(user.to_owned()),
        None => RateKey::address(address),
    };
    if let Some(response) = shared.throttle(key) {
        return Err(response);
    }
    let session = session_limit(headers, uri, shared.manager().registry())
        .map_err(|text| Refusal::BadNarrowing { text })?;
    if let Some(limit) = session {
        narrowing = narrowing.with(limit);
    }
    let caller = caller.narrowed(narrowing);
    Ok(Admitted {
        caller,
        server,
        scope,
    })
}

/// What a token's scope says on this request: an API token's is refused when it expired or is
/// not for this wiki, else it is the limit it puts on the caller's tools; an OIDC access token
/// granted reading only is read-only (`None` for a full token).
fn token_scope(
    shared: &Shared,
    wiki: &WikiId,
    bearer: &Bearer,
    address: IpAddr,
) -> Result<Option<Limit>, Refusal> {
    let Some(scope) = bearer.scope.as_deref() else {
        return Ok(bearer.oidc_reads_only.then_some(Limit {
            by: NarrowedBy::OidcScope,
            read_only: true,
            tools: None,
        }));
    };
    if scope.expired_at(OffsetDateTime::now_utc()) {
        // As an invalid token: a client retrying an expired one draws from the same bucket.
        if let Some(refusal) = shared.throttle(RateKey::address(address)) {
            return Err(refusal);
        }
        return Err(Refusal::ExpiredToken {
            resource_metadata: resource_metadata(shared, wiki),
        });
    }
    if !scope.allows_wiki(wiki.as_str()) {
        return Err(Refusal::TokenNotForWiki {
            wikis: scope.wikis.as_deref().unwrap_or_default().join(", "),
        });
    }
    Ok(Some(Limit {
        by: NarrowedBy::ApiToken,
        read_only: scope.read_only,
        tools: scope
            .tools
            .as_ref()
            .map(|tools| tools.iter().cloned().collect()),
    }))
}

/// The peer's address; unspecified when the router is served without connection info.
pub(crate) fn client_address(request: &Request) -> IpAddr {
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip())
}

#[cfg(test)]
mod tests {
    use http::HeaderValue;

    use super::*;

    fn headers(authorization: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Ok(value) = HeaderValue::from_str(authorization) {
            headers.insert(AUTHORIZATION, value);
        }
        headers
    }

    #[test]
    fn bearer_tokens_are_read_and_other_schemes_refused() {
        assert_eq!(credentials(&HeaderMap::new()), Credentials::None);
        assert_eq!(
            credentials(&headers("Bearer abc")),
            Credentials::Bearer("abc".into())
        );
        assert_eq!(
            credentials(&headers("bearer  abc ")),
            Credentials::Bearer("abc".into())
        );
        assert_eq!(credentials(&headers("Bearer ")), Credentials::Unusable);
        assert_eq!(credentials(&headers("Basic YTpi")), Credentials::Unusable);
    }
}
