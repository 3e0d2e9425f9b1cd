//! The routes that are not MCP: `GET /healthz` for process supervisors, `GET /readyz` for load
//! balancers, and `GET /`, which tells a person who opens the server's address in a browser
//! what it is.
//!
//! None says anything a caller could not already know: no wiki names (an anonymous caller may
//! not be allowed to learn them), no version, no store details. `/healthz` is liveness: the
//! process accepts and answers requests, whatever its database does (restarting a replica does
//! not bring its database back). `/readyz` is readiness: 503 while the store cannot be reached,
//! 200 again by itself once it can ([`super::readiness`]).

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

/// The readiness path.
pub(crate) const READY_PATH: &str = "/readyz";

/// `/`, `/healthz` and `/readyz`.
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/", get(index))
        .route(HEALTH_PATH, get(health))
        .route(READY_PATH, get(ready))
}

async fn health() -> Response {
    not_cached((StatusCode::OK, "ok\n").into_response())
}

async fn ready(State(shared): State<Arc<Shared>>) -> Response {
    not_cached(match shared.readiness.refusal(shared.manager()).await {
        None => (StatusCode::OK, "ready\n").into_response(),
        Some(refusal) => refusal.into_response(),
    })
}

/// A probe's answer is about now: no cache may keep it.
fn not_cached(mut response: Response) -> Response {
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
         <li><code>{base}{READY_PATH}</code>: readiness (503 while the database cannot be \
         reached), for load balancers.</li>\
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
