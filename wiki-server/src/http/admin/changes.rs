//! Account changes posted from the admin pages (users, groups, rights): the form's CSRF token
//! and a farm administrator checked first, then the change built from the form and made by
//! [`crate::accounts`], as `wiki-mcp user|group|rights` make it (same validation, same refusal
//! of a change leaving the farm without an administrator, same audit record, naming the
//! signed-in administrator). A refusal is answered with the page and a banner saying why and
//! what to do; nothing was written.

use std::sync::Arc;

use axum::response::{IntoResponse, Redirect, Response};
use http::{HeaderMap, StatusCode};
use wiki_store::Store;

use super::AdminState;
use super::auth::{Admin, admin_posting, unavailable};
use super::html::{self, escape};
use crate::accounts::{AccountChange, ChangeError};
use crate::http::Refusal;

/// The refusal of a page or form reserved to farm administrators.
pub(crate) fn only_farm_admins(admin: &Admin, current: &str) -> Response {
    html::refusal(
        &admin.prefix,
        Some(&admin.nav(current)),
        &Refusal::FarmAdministratorsOnly,
    )
}

/// An error banner saying `text`.
pub(crate) fn error_banner(text: &str) -> String {
    format!("<div class=\"error\" role=\"alert\">{}</div>", escape(text))
}

/// A notice banner saying `text`.
pub(crate) fn notice_banner(text: &str) -> String {
    format!(
        "<div class=\"notice\" role=\"status\">{}</div>",
        escape(text)
    )
}

/// How a posted change ended, for the page to answer.
enum Posted {
    /// Made: redirect (303) to a page saying so.
    Done,
    /// Refused: answer the page with this banner (422); nothing was written.
    Refused(String),
}

/// Checks the post (`csrf` for the session, a farm administrator), then builds the change with
/// `build` and makes it as the signed-in administrator. `Err` is the response to send as is
/// (the form refused, not a farm administrator, the store unavailable).
async fn post(
    state: &Arc<AdminState>,
    headers: &HeaderMap,
    csrf: &str,
    current: &str,
    build: impl FnOnce(&dyn Store) -> Result<AccountChange, ChangeError> + Send + 'static,
) -> Result<(Admin, Posted), Response> {
    let admin = admin_posting(state, headers, Some(csrf)).await?;
    if !admin.farm {
        return Err(only_farm_admins(&admin, current));
    }
    let store: Arc<dyn Store> = Arc::clone(state.store());
    let actor = admin.session.user.clone();
    let made = tokio::task::spawn_blocking(move || {
        let change = build(&*store).map_err(|error| ("Not changed".to_owned(), error))?;
        change
            .apply(&*store, &actor)
            .map_err(|error| (format!("Cannot {}", change.attempt()), error))
    })
    .await;
    let posted = match made {
        Ok(Ok(())) => Posted::Done,
        Ok(Err((attempt, ChangeError::Refused { text, .. }))) => {
            Posted::Refused(error_banner(&format!("{attempt}: {text}.")))
        }
        Ok(Err((_, ChangeError::Store(error)))) => {
            tracing::error!(%error, "the admin page could not change an account");
            return Err(unavailable(state));
        }
        Err(error) => {
            tracing::error!(%error, "the admin page's account change did not complete");
            return Err(unavailable(state));
        }
    };
    Ok((admin, posted))
}

/// The answer to a posted change: a redirect to `done` (a page saying it is made), or the page
/// `render` draws with the refusal's banner (422).
async fn answer<F, Fut>(
    state: &Arc<AdminState>,
    posted: Result<(Admin, Posted), Response>,
    done: &str,
    render: F,
) -> Response
where
    F: FnOnce(Admin, String) -> Fut,
    Fut: std::future::Future<Output = Response>,
{
    match posted {
        Err(response) => response,
        Ok((_, Posted::Done)) => Redirect::to(&state.at(done)).into_response(),
        Ok((admin, Posted::Refused(banner))) => {
            let mut response = render(admin, banner).await;
            if response.status() == StatusCode::OK {
                *response.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
            }
            response
        }
    }
}

/// A posted change from start to answer: [`post`], then [`answer`] with a redirect to `done`
/// or the page `render` draws with the refusal.
pub(crate) async fn submit<F, Fut>(
    state: &Arc<AdminState>,
    headers: &HeaderMap,
    csrf: &str,
    (current, done): (&str, &str),
    build: impl FnOnce(&dyn Store) -> Result<AccountChange, ChangeError> + Send + 'static,
    render: F,
) -> Response
where
    F: FnOnce(Admin, String) -> Fut,
    Fut: std::future::Future<Output = Response>,
{
    let posted = post(state, headers, csrf, current, build).await;
    answer(state, posted, done, render).await
}

/// The answer to a post naming no change the page makes.
pub(crate) fn no_such_change() -> Response {
    StatusCode::NOT_FOUND.into_response()
}

/// What a refused form held, shown back in its fields so a person corrects it rather than
/// typing it again. Keyed by the field's `id` on the page.
#[derive(Debug, Default)]
pub(crate) struct Typed(Vec<(&'static str, String)>);

impl Typed {
    pub(crate) fn new(fields: Vec<(&'static str, String)>) -> Self {
        Typed(fields)
    }

    fn get(&self, id: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(field, _)| *field == id)
            .map(|(_, value)| value.as_str())
    }

    /// ` value="…"` for the text field `id`, or nothing.
    pub(crate) fn value(&self, id: &str) -> String {
        match self.get(id) {
            Some(value) if !value.is_empty() => format!(" value=\"{}\"", escape(value)),
            _ => String::new(),
        }
    }

    /// ` checked` for the choice `value` of the field `id` when it was chosen, or when nothing
    /// was and it is the `default`.
    pub(crate) fn checked(&self, id: &str, value: &str, default: bool) -> &'static str {
        match self.get(id) {
            Some(chosen) if chosen == value => " checked",
            None if default => " checked",
            _ => "",
        }
    }

    /// ` selected` for the option `value` of the field `id` when it was chosen.
    pub(crate) fn selected(&self, id: &str, value: &str) -> &'static str {
        if self.get(id) == Some(value) {
            " selected"
        } else {
            ""
        }
    }
}
