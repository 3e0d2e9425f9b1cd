//! OAuth 2.0 protected-resource metadata (RFC 9728) and the `WWW-Authenticate` challenge.
//!
//! The server validates bearer tokens itself (its own API tokens). When an operator names an
//! external authorization server, the endpoint advertises it: a request without credentials gets
//! 401 with `WWW-Authenticate: Bearer resource_metadata="…"`, and the metadata document tells an
//! MCP client where to obtain a token. Without one, the metadata document does not exist (404)
//! and the guest is served, as in the reference.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use wiki_store::model::wiki::WikiId;

use super::refusal::Refusal;
use super::router::Shared;

/// Appended to an endpoint URL: where its RFC 9728 metadata lives.
pub(crate) const METADATA_SUFFIX: &str = "/.well-known/oauth-protected-resource";

/// `GET …/aiLLM/mcp/.well-known/oauth-protected-resource`: the metadata, or 404 when no
/// authorization server is configured or the wiki is not served.
pub(crate) async fn metadata(
    State(shared): State<Arc<Shared>>,
    Path(wiki): Path<String>,
) -> Response {
    let Ok(wiki) = WikiId::new(&wiki) else {
        return Refusal::UnknownWiki.into_response();
    };
    if shared.options.authorization_servers.is_empty() {
        return Refusal::NotFound.into_response();
    }
    match shared.resolve(wiki.clone(), None).await {
        Ok(resolution) if resolution.server.is_some() => Json(json!({
            "resource": shared.base_url().endpoint(&wiki),
            "authorization_servers": shared.options.authorization_servers,
            "bearer_methods_supported": ["header"],
        }))
        .into_response(),
        Ok(_) => Refusal::UnknownWiki.into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// The RFC 9728 metadata URL a challenge names, when an authorization server is configured.
pub(crate) fn resource_metadata(shared: &Shared, wiki: &WikiId) -> Option<String> {
    (!shared.options.authorization_servers.is_empty())
        .then(|| shared.base_url().resource_metadata(wiki))
}

/// 401 with the `Bearer` challenge; `resource_metadata` when an authorization server is
/// configured, `error="invalid_token"` when a presented token was refused (RFC 6750 §3.1).
pub(crate) fn unauthorized(shared: &Shared, wiki: &WikiId, invalid_token: bool) -> Refusal {
    let resource_metadata = resource_metadata(shared, wiki);
    if invalid_token {
        Refusal::InvalidToken { resource_metadata }
    } else {
        Refusal::TokenRequired { resource_metadata }
    }
}
