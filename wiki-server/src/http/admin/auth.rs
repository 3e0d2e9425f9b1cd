//! Who may use the admin page, decided on every request from the current rights.
//!
//! A farm administrator holds the admin right on the main wiki and administers every wiki; a
//! wiki administrator holds it on some wikis and sees only those. Anyone else is refused at
//! sign-in, and a session whose user lost the right is closed on its next request.

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::response::{IntoResponse, Redirect, Response};
use http::HeaderMap;
use http::request::Parts;
use wiki_store::model::rights::{Right, RightScope};
use wiki_store::model::wiki::WikiId;

use super::AdminState;
use super::html::{self, Nav};
use super::session::{self, Session, check_csrf};
use crate::http::Refusal;

/// What a signed-in administrator may administer.
#[derive(Debug, Clone)]
pub(crate) struct Admin {
    pub(crate) session: Session,
    /// Admin on the main wiki: every wiki, every user's tokens.
    pub(crate) farm: bool,
    /// The wikis administered, main first then by id.
    pub(crate) wikis: Vec<WikiId>,
    /// The public URL's path prefix, which the page's links carry.
    pub(crate) prefix: String,
}

impl Admin {
    pub(crate) fn nav<'a>(&'a self, current: &'a str) -> Nav<'a> {
        Nav {
            user: &self.session.user,
            csrf: &self.session.csrf,
            current,
            prefix: &self.prefix,
            farm: self.farm,
        }
    }

    pub(crate) fn administers(&self, wiki: &WikiId) -> bool {
        self.wikis.contains(wiki)
    }
}

/// Whether `user` administers the farm, and which wikis: `None` when none at all.
pub(crate) async fn administered(
    state: &AdminState,
    user: &str,
) -> Result<Option<(bool, Vec<WikiId>)>, Response> {
    let user = user.to_owned();
    let answer = state
        .on_store("read the rights", move |store| {
            let snapshot = store.rights_snapshot()?;
            let wikis = store.list_wikis()?;
            let farm = snapshot.can(&user, Right::Admin, &RightScope::Wiki(WikiId::main()));
            let ids: BTreeSet<(bool, WikiId)> = wikis
                .into_iter()
                .map(|wiki| wiki.id)
                .filter(|id| {
                    farm || snapshot.can(&user, Right::Admin, &RightScope::Wiki(id.clone()))
                })
                .map(|id| (!id.is_main(), id))
                .collect();
            Ok((farm, ids.into_iter().map(|(_, id)| id).collect::<Vec<_>>()))
        })
        .await?;
    match answer {
        (farm, wikis) if farm || !wikis.is_empty() => Ok(Some((farm, wikis))),
        _ => Ok(None),
    }
}

/// The page for a store that cannot be read (the log says why).
pub(crate) fn unavailable(state: &AdminState) -> Response {
    html::refusal(&state.prefix, None, &Refusal::StoreUnavailable)
}

/// The request's administrator, or the response to send instead: a redirect to sign-in when
/// there is no live session, 403 when its user administers nothing any more.
pub(crate) async fn admin(state: &AdminState, headers: &HeaderMap) -> Result<Admin, Response> {
    let Some(session) = session::current(state, headers).await? else {
        return Err(Redirect::to(&state.at("/admin/signin")).into_response());
    };
    authorize(state, session).await
}

/// What `session`'s user may administer now; their sessions closed when nothing.
async fn authorize(state: &AdminState, session: Session) -> Result<Admin, Response> {
    match administered(state, &session.user).await? {
        Some((farm, wikis)) => Ok(Admin {
            session,
            farm,
            wikis,
            prefix: state.prefix.clone(),
        }),
        None => {
            session::close_user(state, &session.user).await?;
            Err(html::refusal(
                &state.prefix,
                None,
                &Refusal::NoLongerAdministrator,
            ))
        }
    }
}

impl FromRequestParts<Arc<AdminState>> for Admin {
    type Rejection = Response;

    /// A GET handler's administrator: see [`admin`].
    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AdminState>,
    ) -> Result<Self, Self::Rejection> {
        admin(state, &parts.headers).await
    }
}

/// [`admin`], then the form's CSRF token checked: 403 when it is missing or wrong.
pub(crate) async fn admin_posting(
    state: &AdminState,
    headers: &HeaderMap,
    csrf: Option<&str>,
) -> Result<Admin, Response> {
    let Some(session) = session::current(state, headers).await? else {
        return Err(csrf_refused(state));
    };
    if !csrf.is_some_and(|csrf| check_csrf(&session, csrf)) {
        return Err(csrf_refused(state));
    }
    authorize(state, session).await
}

/// The refusal of a form without its session's CSRF token.
pub(crate) fn csrf_refused(state: &AdminState) -> Response {
    html::refusal(&state.prefix, None, &Refusal::FormRefused)
}
