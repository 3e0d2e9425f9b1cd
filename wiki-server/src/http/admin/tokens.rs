//! API tokens: the list (with last use and scope), creation (the token shown once, on the
//! answer to the POST, never again; optionally scoped: read-only, some tools, some wikis, an
//! expiry, read as `wiki-mcp token create` reads them, `crate::token_scope`) and revocation.
//!
//! A farm administrator sees and manages every user's tokens; a wiki administrator only their
//! own (tokens are farm-wide credentials: a wiki admin minting one for another user would be a
//! way into that user's other wikis).

use std::fmt::Write as _;
use std::sync::Arc;

use axum::Form;
use axum::extract::{RawQuery, State};
use axum::response::{IntoResponse, Redirect, Response};
use http::{HeaderMap, StatusCode};
use serde::Deserialize;
use time::OffsetDateTime;
use wiki_store::StoreError;
use wiki_store::model::token::TokenInfo;

use super::AdminState;
use super::auth::{Admin, admin_posting, unavailable};
use super::html::{self, csrf_field, escape};
use crate::token_scope::{ScopeRequest, describe};
use wiki_tool_sdk::instant::utc_minute;

/// Tokens listed at most (newest first); beyond, the page says how many are not shown.
const MAX_LISTED: usize = 500;

/// The longest label accepted.
const MAX_LABEL_CHARS: usize = 200;

/// The longest list of tools or wikis accepted.
const MAX_LIST_CHARS: usize = 2000;

#[derive(Deserialize)]
pub(crate) struct Create {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    user: String,
    #[serde(default)]
    label: String,
    /// The read-only checkbox: present (`on`) when ticked.
    #[serde(default)]
    read_only: Option<String>,
    #[serde(default)]
    tools: String,
    #[serde(default)]
    wikis: String,
    #[serde(default)]
    expires: String,
}

#[derive(Deserialize)]
pub(crate) struct Revoke {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    prefix: String,
}

/// The tokens `admin` may see.
async fn visible(state: &AdminState, admin: &Admin) -> Result<Vec<TokenInfo>, Response> {
    let store = Arc::clone(state.shared.manager().store());
    let user = (!admin.farm).then(|| admin.session.user.clone());
    let listed = tokio::task::spawn_blocking(move || store.list_tokens(user.as_deref())).await;
    match listed {
        Ok(Ok(mut tokens)) => {
            tokens.sort_by_key(|token| std::cmp::Reverse(token.created));
            Ok(tokens)
        }
        Ok(Err(error)) => {
            tracing::error!(%error, "the admin page could not list tokens");
            Err(unavailable(state))
        }
        Err(_) => Err(unavailable(state)),
    }
}

async fn render(state: &AdminState, admin: &Admin, status: StatusCode, banner: &str) -> Response {
    let tokens = match visible(state, admin).await {
        Ok(tokens) => tokens,
        Err(response) => return response,
    };
    let csrf = csrf_field(&admin.session.csrf);
    let base = escape(&admin.prefix);
    let mut rows = String::new();
    let now = OffsetDateTime::now_utc();
    for token in tokens.iter().take(MAX_LISTED) {
        let last = token.last_used.map_or_else(
            || "never".to_owned(),
            |at| format!("{} UTC", utc_minute(at)),
        );
        let _ = write!(
            rows,
            "<tr><td><code>{prefix}</code></td><td>{user}</td><td>{label}</td><td>{created} UTC</td><td>{last}</td><td>{scope}</td>\
             <td><form method=\"post\" action=\"{base}/admin/tokens/revoke\">{csrf}\
             <input type=\"hidden\" name=\"prefix\" value=\"{prefix}\">\
             <button class=\"danger\" type=\"submit\" aria-label=\"Revoke token {prefix}\">Revoke</button></form></td></tr>",
            prefix = escape(&token.prefix),
            user = escape(&token.user),
            label = escape(&token.label),
            created = utc_minute(token.created),
            scope = escape(&describe(&token.scope, now)),
        );
    }
    let more = tokens.len().saturating_sub(MAX_LISTED);
    let more = if more > 0 {
        format!("<p class=\"muted\">{more} older tokens are not shown.</p>")
    } else {
        String::new()
    };
    let user_field = if admin.farm {
        format!(
            "<label for=\"user\">User</label><input type=\"text\" id=\"user\" name=\"user\" required value=\"{}\">",
            escape(&admin.session.user)
        )
    } else {
        format!(
            "<p class=\"muted\">For yourself ({}).</p>",
            escape(&admin.session.user)
        )
    };
    let body = format!(
        "<h1>API tokens</h1>{banner}\
         <form method=\"post\" action=\"{base}/admin/tokens\" class=\"card\">{csrf}<h2>New token</h2>{user_field}\
         <label for=\"label\">Label</label>\
         <input type=\"text\" id=\"label\" name=\"label\" maxlength=\"{MAX_LABEL_CHARS}\" placeholder=\"laptop, CI, …\" required>\
         <fieldset><legend>Narrower than its user (optional)</legend>\
         <label><input type=\"checkbox\" name=\"read_only\"> Read-only: no tool that changes content</label>\
         <label for=\"tools\">Only these tools or categories</label>\
         <input type=\"text\" id=\"tools\" name=\"tools\" maxlength=\"{MAX_LIST_CHARS}\" placeholder=\"get_document, Search and Navigation\">\
         <label for=\"wikis\">Only on these wikis</label>\
         <input type=\"text\" id=\"wikis\" name=\"wikis\" maxlength=\"{MAX_LIST_CHARS}\" placeholder=\"main, dev\">\
         <label for=\"expires\">Expires after</label>\
         <input type=\"text\" id=\"expires\" name=\"expires\" maxlength=\"40\" placeholder=\"30d, 12h, 2w\"></fieldset>\
         <p><button type=\"submit\">Create token</button></p></form>\
         <div class=\"card scroll\"><table><thead><tr><th scope=\"col\">Prefix</th><th scope=\"col\">User</th>\
         <th scope=\"col\">Label</th><th scope=\"col\">Created</th><th scope=\"col\">Last used</th><th scope=\"col\">Scope</th>\
         <th scope=\"col\"><span class=\"muted\">Action</span></th></tr></thead><tbody>{rows}</tbody></table>{more}</div>"
    );
    html::page(status, "Tokens", Some(&admin.nav("/admin/tokens")), &body)
}

/// `GET /admin/tokens`.
pub(crate) async fn index(
    State(state): State<Arc<AdminState>>,
    RawQuery(query): RawQuery,
    admin: Admin,
) -> Response {
    let banner = if query.as_deref() == Some("revoked=1") {
        "<div class=\"notice\" role=\"status\">Token revoked: it is refused from the next request on.</div>"
    } else {
        ""
    };
    render(&state, &admin, StatusCode::OK, banner).await
}

fn error_banner(text: &str) -> String {
    format!("<div class=\"error\" role=\"alert\">{}</div>", escape(text))
}

/// `POST /admin/tokens`: creates a token and shows it once.
pub(crate) async fn create(
    State(state): State<Arc<AdminState>>,
    headers: HeaderMap,
    Form(form): Form<Create>,
) -> Response {
    let admin = match admin_posting(&state, &headers, Some(&form.csrf)).await {
        Ok(admin) => admin,
        Err(response) => return response,
    };
    let user = if admin.farm {
        form.user.trim().to_owned()
    } else {
        admin.session.user.clone()
    };
    let label = form.label.trim().to_owned();
    if label.is_empty() || label.chars().count() > MAX_LABEL_CHARS {
        let banner = error_banner(&format!(
            "Give the token a label of 1 to {MAX_LABEL_CHARS} characters (where it is used)."
        ));
        return render(&state, &admin, StatusCode::UNPROCESSABLE_ENTITY, &banner).await;
    }
    if [&form.tools, &form.wikis]
        .iter()
        .any(|list| list.chars().count() > MAX_LIST_CHARS)
    {
        let banner = error_banner(&format!(
            "A list of tools or wikis is at most {MAX_LIST_CHARS} characters."
        ));
        return render(&state, &admin, StatusCode::UNPROCESSABLE_ENTITY, &banner).await;
    }
    let store = Arc::clone(state.shared.manager().store());
    let registry = state.shared.manager().registry();
    let owner = user.clone();
    let created = tokio::task::spawn_blocking(move || {
        let known: Vec<_> = store
            .list_wikis()?
            .into_iter()
            .map(|wiki| wiki.id)
            .collect();
        let scope = ScopeRequest {
            read_only: form.read_only.is_some(),
            tools: Some(&form.tools),
            wikis: Some(&form.wikis),
            expires: Some(&form.expires),
        }
        .scope(registry, &known, OffsetDateTime::now_utc());
        Ok(scope.map(|scope| store.create_scoped_token(&owner, &label, &scope)))
    })
    .await;
    let banner = match created {
        Ok(Ok(Err(problem))) => error_banner(&format!("Not created. {problem}")),
        Ok(Ok(Ok(created))) => created_banner(&user, created, &admin),
        Ok(Err(error)) => created_banner(&user, Err(error), &admin),
        Err(_) => return unavailable(&state),
    };
    render(&state, &admin, StatusCode::OK, &banner).await
}

/// What the page says after a creation that reached the store.
fn created_banner(
    user: &str,
    created: Result<wiki_store::model::token::IssuedToken, StoreError>,
    admin: &Admin,
) -> String {
    match created {
        Ok(issued) => {
            tracing::info!(user = %user, prefix = %issued.info.prefix, by = %admin.session.user, "API token created from the admin page");
            format!(
                "<div class=\"notice\" role=\"status\"><p>Token for <strong>{}</strong> created. Copy it now: it is shown only once.</p>\
                 <p><code class=\"secret\" id=\"new-token\">{}</code></p></div>",
                escape(user),
                escape(issued.token.expose())
            )
        }
        Err(StoreError::NotFound { .. }) => error_banner(&format!(
            "There is no user `{user}`: create it first (`wiki-mcp user create`)."
        )),
        Err(StoreError::Invalid(invalid)) => error_banner(&format!("Not created: {invalid}.")),
        Err(error) => {
            tracing::error!(%error, "the admin page could not create a token");
            error_banner("Not created: the wiki store failed; the server log says why.")
        }
    }
}

/// `POST /admin/tokens/revoke`.
pub(crate) async fn revoke(
    State(state): State<Arc<AdminState>>,
    headers: HeaderMap,
    Form(form): Form<Revoke>,
) -> Response {
    let admin = match admin_posting(&state, &headers, Some(&form.csrf)).await {
        Ok(admin) => admin,
        Err(response) => return response,
    };
    let tokens = match visible(&state, &admin).await {
        Ok(tokens) => tokens,
        Err(response) => return response,
    };
    let prefix = form.prefix.trim().to_owned();
    if !tokens.iter().any(|token| token.prefix == prefix) {
        let banner = error_banner("No such token among yours: it may be revoked already.");
        return render(&state, &admin, StatusCode::NOT_FOUND, &banner).await;
    }
    let store = Arc::clone(state.shared.manager().store());
    let revoking = prefix.clone();
    match tokio::task::spawn_blocking(move || store.revoke_token(&revoking)).await {
        Ok(Ok(())) => {
            tracing::info!(%prefix, by = %admin.session.user, "API token revoked from the admin page");
            Redirect::to(&state.at("/admin/tokens?revoked=1")).into_response()
        }
        Ok(Err(error)) => {
            tracing::error!(%error, "the admin page could not revoke a token");
            render(
                &state,
                &admin,
                StatusCode::SERVICE_UNAVAILABLE,
                &error_banner("Not revoked: the wiki store failed; the server log says why."),
            )
            .await
        }
        Err(_) => unavailable(&state),
    }
}
