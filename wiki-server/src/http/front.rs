//! The two routes that are not MCP: `GET /healthz` for process supervisors and load balancers,
//! and `GET /`, which tells a person who opens the server's address in a browser what it is.
//!
//! Neither says anything a caller could not already know: no wiki names (an anonymous caller may
//! not be allowed to learn them), no version, no store details. `/healthz` is liveness: the
//! process accepts and answers requests.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http::StatusCode;
use http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue};

use super::MCP_PATH;
use super::pages::escape_text;
use super::router::Shared;

/// The liveness path.
pub(crate) const HEALTH_PATH: &str = "/healthz";

/// `/` and `/healthz`.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/", get(index))
        .route(HEALTH_PATH, get(health))
}

async fn health() -> Response {
    let mut response = (StatusCode::OK, "ok\n").into_response();
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn index(State(shared): State<Arc<Shared>>) -> Response {
    let base = shared.base_url().to_string();
    let endpoint = format!("{base}{MCP_PATH}");
    let main = endpoint.replace("{wiki}", "main");
    let html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>wiki-mcp</title><style>\
         body{{font-family:sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}}\
         code{{background:#f6f6f6;padding:0 .2rem}}</style></head><body>\
         <h1>wiki-mcp</h1>\
         <p>This is an MCP (Model Context Protocol) server for wikis. It is meant for AI agents \
         and MCP clients, not for browsers.</p>\
         <ul>\
         <li><code>{endpoint}</code>: the MCP endpoint of one wiki (streamable HTTP: POST \
         JSON-RPC). Configure your MCP client with the URL of a wiki, e.g. <code>{main}</code>, \
         and a token (<code>Authorization: Bearer …</code>) from the server's administrator \
         (<code>wiki-mcp token create --user NAME</code>).</li>\
         <li><code>{base}/wikis/…</code>: pages opened by the signed links that tools print.</li>\
         <li><code>{base}/admin</code>: the administration page (sign-in required).</li>\
         <li><code>{base}{HEALTH_PATH}</code>: liveness, for process supervisors.</li>\
         </ul></body></html>\n",
        endpoint = escape_text(&endpoint),
        main = escape_text(&main),
        base = escape_text(&base),
    );
    let mut response = (StatusCode::OK, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
    );
    response
}
