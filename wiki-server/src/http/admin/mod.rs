//! `/admin`: the administrators' web page, on the MCP listener.
//!
//! Sign-in takes an API token whose user administers the farm (the admin right on the main
//! wiki) or at least one wiki, or, when an OIDC client is configured, an OpenID Connect login
//! at the identity provider naming such a user (`oidc_login.rs`); it opens a session (`session.rs`: an `HttpOnly`,
//! `SameSite=Strict` cookie, `Secure` behind https, idle and absolute expiry). Every page
//! re-reads the rights, so a withdrawn admin right ends what the session may do at once; every
//! POST must carry the session's CSRF token, or it is refused (403) before anything is read.
//! The Host/Origin check in front of every route refuses cross-site posts too.
//!
//! Sessions, pending OIDC sign-ins and the audit record are in the farm's database, so the page
//! works behind a load balancer without sticky sessions. The routes are served at `/admin`; a
//! public URL with a path (`https://host/wiki-mcp/`, behind a proxy that strips it) puts that
//! path before every link, form action, redirect and cookie path the pages send
//! ([`AdminState::at`]).
//!
//! The pages (server-rendered, no script, every value escaped, every list bounded):
//! - `wikis.rs`: the wikis the user administers; per wiki its endpoint and MCP configuration
//!   (enabled, guest access, description, tools by category with write tools marked, cross-wiki
//!   reach on the main wiki, the space filter), saved through the store call `wiki-mcp config`
//!   makes, so every server applies it on its next request;
//! - `tokens.rs`: API tokens (a farm admin's: everyone's; a wiki admin's: their own) with last
//!   use, created (shown once) and revoked;
//! - `audit.rs`: the recorded tool calls (tool, user, wiki, outcome, duration), filtered by text
//!   and time and paged (`audit_query.rs` reads the query);
//! - `users.rs` (farm administrators): users created and deleted as `wiki-mcp user
//!   create|delete` do, and each user's identities at the identity provider, linked and
//!   unlinked as `wiki-mcp user link|unlink` do;
//! - `groups.rs` and `rights.rs` (farm administrators): groups and their members, and each
//!   wiki's rights rules and a user's effective rights, as `wiki-mcp group` and `wiki-mcp
//!   rights` manage them.
//!
//! Account changes (`changes.rs`) go through [`crate::accounts`], as the command line's do: the
//! same validation, refusals and audit record, naming the administrator who made them.

mod audit;
mod audit_query;
mod auth;
mod changes;
mod groups;
mod html;
mod oidc_login;
mod on_store;
mod rights;
mod session;
mod signin;
mod tokens;
mod users;
mod wikis;

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};

use super::router::Shared;

/// What the admin handlers share: the application's state and how the public URL is shaped.
pub(crate) struct AdminState {
    shared: Arc<Shared>,
    /// Whether cookies get `Secure` (the public URL is https).
    secure: bool,
    /// The public URL's path prefix (`/wiki-mcp`), or empty.
    prefix: String,
    /// Sign-ins at the identity provider started per client network
    /// (`oidc_login::start`).
    login_starts: crate::http::limits::RateLimiter,
}

impl AdminState {
    /// `path` (one of the server's own, `/admin/...`) as the browser must ask for it: behind
    /// the public URL's path prefix.
    pub(crate) fn at(&self, path: &str) -> String {
        format!("{}{path}", self.prefix)
    }

    /// The store the pages read and write.
    pub(crate) fn store(&self) -> &Arc<dyn wiki_store::Store> {
        self.shared.manager().store()
    }
}

/// The `/admin` routes.
pub(crate) fn routes(shared: Arc<Shared>) -> Router<Arc<Shared>> {
    let secure = shared.base_url().scheme() == &http::uri::Scheme::HTTPS;
    let prefix = shared.base_url().path_prefix().to_owned();
    let state = Arc::new(AdminState {
        shared,
        secure,
        prefix,
        login_starts: oidc_login::start_limiter(),
    });
    Router::new()
        .route("/admin", get(wikis::index))
        .route("/admin/signin", get(signin::form).post(signin::submit))
        .route("/admin/signout", post(signin::signout))
        .route("/admin/oidc/start", get(oidc_login::start))
        .route("/admin/oidc/callback", get(oidc_login::callback))
        .route("/admin/wikis/{wiki}", get(wikis::show).post(wikis::save))
        .route("/admin/tokens", get(tokens::index).post(tokens::create))
        .route("/admin/tokens/revoke", post(tokens::revoke))
        .route("/admin/audit", get(audit::index))
        .route("/admin/users", get(users::index))
        .route("/admin/users/{op}", post(users::change))
        .route("/admin/users/link", post(users::link))
        .route("/admin/groups", get(groups::index))
        .route("/admin/groups/{op}", post(groups::change))
        .route("/admin/rights", get(rights::index))
        .route("/admin/rights/{op}", post(rights::change))
        .route("/admin/users/unlink", post(users::unlink))
        .with_state(state)
}
