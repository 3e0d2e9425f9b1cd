//! Users and their identities at the identity provider (farm administrators only): creating and
//! deleting users as `wiki-mcp user create|delete` do (`changes.rs`), who each user is at which
//! issuer, linking an identity to a user and removing a link, as `wiki-mcp user link|unlink` do.
//!
//! The page says the rule it manages: a token signs in the user its issuer and subject are
//! linked to, never a user whose name its claims carry (`crate::oidc`).

use std::fmt::Write as _;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, RawQuery, State};
use axum::response::{IntoResponse, Redirect, Response};
use http::{HeaderMap, StatusCode};
use serde::Deserialize;
use wiki_store::StoreError;
use wiki_store::model::identity::Identities;
use wiki_store::model::user::User;

use crate::accounts::AccountChange;
use wiki_tool_sdk::instant::utc_minute;

use super::AdminState;
use super::auth::{Admin, admin_posting};
use super::changes::{self, Typed, error_banner, notice_banner};
use super::html::{self, csrf_field, escape};

/// Users listed at most (by name); beyond, the page says how many are not shown.
const MAX_LISTED: usize = 500;

#[derive(Deserialize)]
pub(crate) struct Link {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    user: String,
    #[serde(default)]
    issuer: String,
    #[serde(default)]
    subject: String,
}

#[derive(Deserialize)]
pub(crate) struct Unlink {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    issuer: String,
    #[serde(default)]
    subject: String,
}

fn only_farm_admins(admin: &Admin) -> Response {
    changes::only_farm_admins(admin, "/admin/users")
}

/// What the create and delete forms post.
#[derive(Deserialize)]
pub(crate) struct Account {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    display_name: String,
}

/// The issuer field: the server's issuers to choose from, or free text without any.
fn issuer_field(state: &AdminState) -> String {
    let issuers: Vec<String> = state
        .shared
        .directory()
        .oidc()
        .map(|oidc| {
            oidc.verifier()
                .issuers()
                .iter()
                .map(|issuer| issuer.as_str().to_owned())
                .collect()
        })
        .unwrap_or_default();
    if issuers.is_empty() {
        return "<input type=\"text\" id=\"issuer\" name=\"issuer\" required \
                placeholder=\"https://idp.example.com\">"
            .to_owned();
    }
    let options: String = issuers
        .iter()
        .map(|issuer| format!("<option>{}</option>", escape(issuer)))
        .collect();
    format!("<select id=\"issuer\" name=\"issuer\">{options}</select>")
}

async fn render(
    state: &AdminState,
    admin: &Admin,
    status: StatusCode,
    banner: &str,
    typed: &Typed,
) -> Response {
    let read = state
        .on_store("list users and identities", |store| {
            Ok((store.list_users()?, store.identities()?))
        })
        .await;
    let (users, identities): (Vec<User>, Identities) = match read {
        Ok(read) => read,
        Err(response) => return response,
    };
    let csrf = csrf_field(&admin.session.csrf);
    let base = escape(&admin.prefix);
    let mut rows = String::new();
    for user in users.iter().take(MAX_LISTED) {
        let mut cells = String::new();
        for link in identities
            .links
            .iter()
            .filter(|link| link.user == user.name)
        {
            let _ = write!(
                cells,
                "<div class=\"wrap\"><code>{subject}</code> at {issuer} \
                 <form method=\"post\" action=\"{base}/admin/users/unlink\" style=\"display:inline\">{csrf}\
                 <input type=\"hidden\" name=\"issuer\" value=\"{issuer}\">\
                 <input type=\"hidden\" name=\"subject\" value=\"{subject}\">\
                 <button class=\"danger\" type=\"submit\" aria-label=\"Unlink {subject} at {issuer}\">Unlink</button></form></div>",
                subject = escape(&link.subject),
                issuer = escape(&link.issuer),
            );
        }
        for adoption in identities.adoptions.iter().filter(|a| a.user == user.name) {
            let _ = write!(
                cells,
                "<div class=\"muted\">claimable by name by a token of {} until {} UTC</div>",
                escape(&adoption.issuer),
                utc_minute(adoption.expires)
            );
        }
        if cells.is_empty() {
            cells.push_str("<span class=\"muted\">none</span>");
        }
        let display = user
            .display_name
            .as_deref()
            .map(|display| format!("<div class=\"muted\">{}</div>", escape(display)))
            .unwrap_or_default();
        let _ = write!(
            rows,
            "<tr><td>{}{display}</td><td>{cells}</td></tr>",
            escape(&user.name)
        );
    }
    let more = users.len().saturating_sub(MAX_LISTED);
    let more = if more > 0 {
        format!("<p class=\"muted\">{more} more users are not shown.</p>")
    } else {
        String::new()
    };
    let pending = if identities.upgrade_pending {
        "<div class=\"error\" role=\"alert\">This farm's users signed in by name before \
         identities were linked: servers with an identity provider refuse to start until \
         <code>wiki-mcp oidc adopt</code> has run.</div>"
    } else {
        ""
    };
    let body = format!(
        "<h1>Users</h1>{banner}{pending}\
         <p>A token from the identity provider signs in the user its <strong>issuer and \
         subject</strong> are linked to, never a user whose name its claims carry. A new \
         identity gets a user of its own at its first sign-in only when the server runs with \
         <code>--oidc-create-users</code>, and never a name that is already a user's: link \
         such a person here (the server log names the identity it refused).</p>\
         <form method=\"post\" action=\"{base}/admin/users/create\" class=\"card\">{csrf}<h2>Create a user</h2>\
         <label for=\"new-name\">User name</label><input type=\"text\" id=\"new-name\" name=\"name\"{new_name} required \
         autocomplete=\"off\" aria-describedby=\"new-name-help\">\
         <p id=\"new-name-help\" class=\"muted\">Letters, digits, <code>_</code>, <code>-</code>, <code>.</code> and \
         <code>@</code>. The user has no rights until a rule or a group gives them some.</p>\
         <label for=\"display-name\">Display name (optional)</label><input type=\"text\" id=\"display-name\" name=\"display_name\"{display_name}>\
         <p><button type=\"submit\">Create user</button></p></form>\
         <form method=\"post\" action=\"{base}/admin/users/link\" class=\"card\">{csrf}<h2>Link an identity</h2>\
         <label for=\"user\">User</label><input type=\"text\" id=\"user\" name=\"user\"{link_user} required>\
         <label for=\"issuer\">Issuer</label>{issuer}\
         <label for=\"subject\">Subject (<code>sub</code>)</label><input type=\"text\" id=\"subject\" name=\"subject\"{link_subject} required>\
         <p><button type=\"submit\">Link</button></p></form>\
         <div class=\"card scroll\"><table><thead><tr><th scope=\"col\">User</th>\
         <th scope=\"col\">Identities</th></tr></thead><tbody>{rows}</tbody></table>{more}</div>\
         <form method=\"post\" action=\"{base}/admin/users/delete\" class=\"card\">{csrf}<h2>Delete a user</h2>\
         <p class=\"muted\">Deleting a user deletes their tokens, group memberships, rights rules and \
         identity links with them. The last administrator of the farm cannot be deleted.</p>\
         <label for=\"delete-name\">User name, typed to confirm</label>\
         <input type=\"text\" id=\"delete-name\" name=\"name\" required autocomplete=\"off\">\
         <p><button class=\"danger\" type=\"submit\">Delete user</button></p></form>",
        issuer = issuer_field(state),
        new_name = typed.value("new-name"),
        display_name = typed.value("display-name"),
        link_user = typed.value("user"),
        link_subject = typed.value("subject"),
    );
    html::page(status, "Users", Some(&admin.nav("/admin/users")), &body)
}

/// `GET /admin/users`.
pub(crate) async fn index(
    State(state): State<Arc<AdminState>>,
    RawQuery(query): RawQuery,
    admin: Admin,
) -> Response {
    if !admin.farm {
        return only_farm_admins(&admin);
    }
    let banner = match query.as_deref() {
        Some("linked=1") => {
            notice_banner("Linked: the identity signs in as that user from its next request.")
        }
        Some("unlinked=1") => {
            notice_banner("Unlinked: the identity signs in as nobody from its next request.")
        }
        Some("created=1") => notice_banner(
            "Created: give the user rights (Rights) or a group (Groups), and a token (Tokens) \
             or an identity link (below).",
        ),
        Some("deleted=1") => {
            notice_banner("Deleted, with their tokens, memberships, rules and identity links.")
        }
        _ => String::new(),
    };
    render(&state, &admin, StatusCode::OK, &banner, &Typed::default()).await
}

/// `POST /admin/users/link`.
pub(crate) async fn link(
    State(state): State<Arc<AdminState>>,
    headers: HeaderMap,
    Form(form): Form<Link>,
) -> Response {
    let admin = match admin_posting(&state, &headers, Some(&form.csrf)).await {
        Ok(admin) => admin,
        Err(response) => return response,
    };
    if !admin.farm {
        return only_farm_admins(&admin);
    }
    let (user, issuer, subject) = (
        form.user.trim().to_owned(),
        form.issuer.trim().to_owned(),
        form.subject.trim().to_owned(),
    );
    let store = Arc::clone(state.store());
    let (u, i, s) = (user.clone(), issuer.clone(), subject.clone());
    let linked = tokio::task::spawn_blocking(move || store.link_identity(&i, &s, &u)).await;
    let banner = match linked {
        Ok(Ok(_)) => {
            tracing::info!(%user, %issuer, %subject, by = %admin.session.user, "identity linked from the admin page");
            return Redirect::to(&state.at("/admin/users?linked=1")).into_response();
        }
        Ok(Err(StoreError::NotFound { .. })) => error_banner(&format!(
            "There is no user `{user}`: create it first (Create a user, above)."
        )),
        Ok(Err(StoreError::AlreadyExists { .. })) => {
            error_banner("That identity is linked to another user: unlink it there first.")
        }
        Ok(Err(StoreError::Invalid(invalid))) => error_banner(&format!("Not linked: {invalid}.")),
        Ok(Err(error)) => {
            tracing::error!(%error, "the admin page could not link an identity");
            error_banner("Not linked: the wiki store failed; the server log says why.")
        }
        Err(_) => return super::auth::unavailable(&state),
    };
    let typed = Typed::new(vec![("user", user), ("subject", subject)]);
    render(
        &state,
        &admin,
        StatusCode::UNPROCESSABLE_ENTITY,
        &banner,
        &typed,
    )
    .await
}

/// `POST /admin/users/unlink`.
pub(crate) async fn unlink(
    State(state): State<Arc<AdminState>>,
    headers: HeaderMap,
    Form(form): Form<Unlink>,
) -> Response {
    let admin = match admin_posting(&state, &headers, Some(&form.csrf)).await {
        Ok(admin) => admin,
        Err(response) => return response,
    };
    if !admin.farm {
        return only_farm_admins(&admin);
    }
    let (issuer, subject) = (form.issuer, form.subject);
    let (i, s) = (issuer.clone(), subject.clone());
    let removed = state
        .on_store("unlink an identity", move |store| {
            match store.unlink_identity(&i, &s) {
                Err(StoreError::Invalid(_)) => Ok(false),
                other => other,
            }
        })
        .await;
    match removed {
        Ok(true) => {
            tracing::info!(%issuer, %subject, by = %admin.session.user, "identity unlinked from the admin page");
            Redirect::to(&state.at("/admin/users?unlinked=1")).into_response()
        }
        Ok(false) => {
            let banner = error_banner("No such link: it may be removed already.");
            render(
                &state,
                &admin,
                StatusCode::NOT_FOUND,
                &banner,
                &Typed::default(),
            )
            .await
        }
        Err(response) => response,
    }
}

/// The page again with a refused change's `banner`.
async fn refused(state: &AdminState, admin: Admin, banner: String, typed: Typed) -> Response {
    render(state, &admin, StatusCode::OK, &banner, &typed).await
}

/// `POST /admin/users/{create,delete}`.
pub(crate) async fn change(
    State(state): State<Arc<AdminState>>,
    Path(op): Path<String>,
    headers: HeaderMap,
    Form(form): Form<Account>,
) -> Response {
    let name = form.name.trim().to_owned();
    let mut typed = Typed::default();
    let (change, done) = match op.as_str() {
        "create" => {
            typed = Typed::new(vec![
                ("new-name", name.clone()),
                ("display-name", form.display_name.clone()),
            ]);
            let display_name = Some(form.display_name);
            (AccountChange::CreateUser { name, display_name }, "created")
        }
        "delete" => (AccountChange::DeleteUser { name }, "deleted"),
        _ => return changes::no_such_change(),
    };
    let done = format!("/admin/users?{done}=1");
    changes::submit(
        &state,
        &headers,
        &form.csrf,
        ("/admin/users", &done),
        move |_| Ok(change),
        |admin, banner| refused(&state, admin, banner, typed),
    )
    .await
}
