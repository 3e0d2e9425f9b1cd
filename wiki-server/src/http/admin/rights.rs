//! Rights rules (farm administrators only): a wiki's rules listed, allowed, denied and removed,
//! and a user's effective rights on a wiki, space or page with what decided each, as `wiki-mcp
//! rights allow|deny|remove|list|effective` do (`changes.rs`, [`crate::accounts`]: the place
//! and the right are read the same way).

use std::fmt::Write as _;
use std::sync::Arc;

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use http::{HeaderMap, StatusCode};
use serde::Deserialize;
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::wiki::MAIN_WIKI;

use super::AdminState;
use super::auth::Admin;
use super::changes::{self, Typed, error_banner, notice_banner};
use super::html::{self, csrf_field, escape};
use crate::accounts::{self, AccountChange, ChangeError};
use mcp_runtime::reason::ErrorKind;

/// Rules listed at most; beyond, the page says how many are not shown.
const MAX_LISTED: usize = 500;

/// What the page shows: the wiki whose rules are listed, and an effective-rights question.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Shown {
    #[serde(default)]
    wiki: String,
    #[serde(default)]
    user: String,
    #[serde(default)]
    space: String,
    #[serde(default)]
    page: String,
    #[serde(default)]
    done: String,
}

impl Shown {
    fn wiki(&self) -> &str {
        match self.wiki.trim() {
            "" => MAIN_WIKI,
            wiki => wiki,
        }
    }
}

/// A rule as the forms post it (set: with `effect`; remove: without).
#[derive(Deserialize)]
pub(crate) struct RuleForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    effect: String,
    #[serde(default)]
    right: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    subject: String,
    #[serde(default)]
    wiki: String,
    #[serde(default)]
    space: String,
    #[serde(default)]
    page: String,
}

impl RuleForm {
    fn subject(&self) -> Result<Subject, ChangeError> {
        let name = self.subject.trim().to_owned();
        match self.kind.as_str() {
            "user" => Ok(Subject::User(name)),
            "group" => Ok(Subject::Group(name)),
            _ => Err(ChangeError::refused(
                ErrorKind::BadArgument,
                "choose whether the rule is about a user or a group",
            )),
        }
    }

    fn scope(&self, store: &dyn wiki_store::Store) -> Result<RightScope, ChangeError> {
        accounts::rule_scope(
            store,
            &self.wiki,
            Some(self.space.as_str()),
            Some(self.page.as_str()),
        )
    }

    fn effect(&self) -> Result<Effect, ChangeError> {
        self.effect
            .parse()
            .map_err(|_| ChangeError::refused(ErrorKind::BadArgument, "choose allow or deny"))
    }

    /// Where the page goes back to: this rule's wiki.
    fn back(&self, done: &str) -> String {
        format!(
            "/admin/rights?wiki={}&done={done}",
            url::form_urlencoded::byte_serialize(self.wiki.trim().as_bytes()).collect::<String>()
        )
    }
}

/// The space or page of `scope` as the forms take them, and the place in words.
fn place(scope: &RightScope) -> (String, String, String) {
    match scope {
        RightScope::Wiki(_) => (String::new(), String::new(), "whole wiki".to_owned()),
        RightScope::Space { space, .. } => {
            let space = space.to_string();
            let shown = format!("space <code>{}</code>", escape(&space));
            (space, String::new(), shown)
        }
        RightScope::Page(reference) => {
            let page = reference.local();
            let shown = format!("page <code>{}</code>", escape(&page));
            (String::new(), page, shown)
        }
    }
}

fn rule_row(base: &str, csrf: &str, rule: &RightRule) -> String {
    let (space, page, shown) = place(&rule.scope);
    let (kind, name) = match &rule.subject {
        Subject::User(name) => ("user", name),
        Subject::Group(name) => ("group", name),
    };
    let effect = match rule.effect {
        Effect::Allow => "<span class=\"tag on\">allow</span>",
        Effect::Deny => "<span class=\"tag\">deny</span>",
    };
    format!(
        "<tr><td>{effect}</td><td>{right}</td><td>{kind} {name}</td><td>{shown}</td><td>\
         <form method=\"post\" action=\"{base}/admin/rights/remove\" class=\"inline\">{csrf}\
         <input type=\"hidden\" name=\"wiki\" value=\"{wiki}\">\
         <input type=\"hidden\" name=\"space\" value=\"{space}\">\
         <input type=\"hidden\" name=\"page\" value=\"{page}\">\
         <input type=\"hidden\" name=\"right\" value=\"{right}\">\
         <input type=\"hidden\" name=\"kind\" value=\"{kind}\">\
         <input type=\"hidden\" name=\"subject\" value=\"{name}\">\
         <button class=\"secondary small\" type=\"submit\" \
         aria-label=\"Remove the {right} rule of {kind} {name}\">Remove</button></form></td></tr>",
        right = rule.right,
        name = escape(name),
        wiki = escape(rule.scope.wiki().as_str()),
        space = escape(&space),
        page = escape(&page),
    )
}

/// The effective-rights answer for `shown.user`, or a banner saying what to fix.
fn effective(store: &dyn wiki_store::Store, shown: &Shown) -> Result<String, ChangeError> {
    let user = shown.user.trim();
    let scope = accounts::rule_scope(
        store,
        shown.wiki(),
        Some(shown.space.as_str()),
        Some(shown.page.as_str()),
    )?;
    let snapshot = store.rights_snapshot().map_err(ChangeError::Store)?;
    let mut rows = String::new();
    for (right, verdict) in snapshot.effective(user, &scope) {
        let answer = if verdict.allowed {
            "<span class=\"tag on\">allowed</span>"
        } else {
            "<span class=\"tag\">denied</span>"
        };
        let _ = write!(
            rows,
            "<tr><td>{right}</td><td>{answer}</td><td>{}</td></tr>",
            escape(&accounts::explain(&verdict.reason))
        );
    }
    Ok(format!(
        "<h3>Rights of {} on {}</h3><div class=\"scroll\"><table><thead><tr>\
         <th scope=\"col\">Right</th><th scope=\"col\">Answer</th><th scope=\"col\">Decided by</th>\
         </tr></thead><tbody>{rows}</tbody></table></div>",
        escape(user),
        escape(&scope.to_string())
    ))
}

pub(crate) async fn render(
    state: &AdminState,
    admin: &Admin,
    status: StatusCode,
    banner: &str,
    shown: Shown,
    typed: &Typed,
) -> Response {
    let wiki_id = shown.wiki().to_owned();
    let read = state
        .on_store("list rights rules", move |store| {
            let rules = match accounts::existing_wiki(store, &wiki_id) {
                Ok(wiki) => Ok(store.list_rights(&wiki)?),
                Err(ChangeError::Store(error)) => return Err(error),
                Err(refused) => Err(refused.to_string()),
            };
            let answer = if shown.user.trim().is_empty() {
                Ok(String::new())
            } else {
                match effective(store, &shown) {
                    Ok(answer) => Ok(answer),
                    Err(ChangeError::Store(error)) => return Err(error),
                    Err(refused) => Err(refused.to_string()),
                }
            };
            Ok((rules, answer, shown))
        })
        .await;
    let (rules, answer, shown) = match read {
        Ok(read) => read,
        Err(response) => return response,
    };
    let mut status = status;
    let mut banner = banner.to_owned();
    let rules = match rules {
        Ok(rules) => rules,
        // A refused post names the unknown wiki already: said once.
        Err(text) if banner.is_empty() => {
            status = StatusCode::NOT_FOUND;
            banner = error_banner(&format!("{text}."));
            Vec::new()
        }
        Err(_) => Vec::new(),
    };
    let answer = match answer {
        Ok(answer) => answer,
        Err(text) => {
            status = StatusCode::BAD_REQUEST;
            banner.push_str(&error_banner(&format!("No answer: {text}.")));
            String::new()
        }
    };
    if status == StatusCode::OK && banner.is_empty() {
        banner = match shown.done.as_str() {
            "set" => notice_banner("Saved: the rule applies from the next request."),
            "removed" => notice_banner("Removed: the rule no longer applies."),
            _ => String::new(),
        };
    }
    let csrf = csrf_field(&admin.session.csrf);
    let base = escape(&admin.prefix);
    let wiki = escape(shown.wiki());
    let options: String = admin
        .wikis
        .iter()
        .map(|id| {
            let selected = if id.as_str() == shown.wiki() {
                " selected"
            } else {
                ""
            };
            format!("<option{selected}>{}</option>", escape(id.as_str()))
        })
        .collect();
    let rows: String = rules
        .iter()
        .take(MAX_LISTED)
        .map(|rule| rule_row(&base, &csrf, rule))
        .collect();
    let rows = if rows.is_empty() {
        "<tr><td colspan=\"5\" class=\"muted\">No rule: only administrators reach this wiki.</td></tr>"
            .to_owned()
    } else {
        rows
    };
    let more = rules.len().saturating_sub(MAX_LISTED);
    let more = if more > 0 {
        format!(
            "<p class=\"muted\">{more} more rules are not shown (<code>wiki-mcp rights list</code> lists them).</p>"
        )
    } else {
        String::new()
    };
    let rights: String = Right::ALL
        .iter()
        .map(|right| {
            let selected = typed.selected("right", right.as_str());
            format!("<option{selected}>{right}</option>")
        })
        .collect();
    let body = format!(
        "<h1>Rights</h1>{banner}\
         <form method=\"get\" action=\"{base}/admin/rights\" class=\"card\"><label for=\"wiki\">Wiki</label>\
         <select id=\"wiki\" name=\"wiki\">{options}</select><p><button class=\"secondary\" type=\"submit\">Show</button></p></form>\
         <p>A rule allows or denies one right (view, edit, delete, admin) to a user or a group on \
         the wiki, a space (with its pages and nested spaces) or a page; the nearest place with a \
         rule decides, and admin on the main wiki makes a farm administrator.</p>\
         <div class=\"card scroll\"><h2>Rules of {wiki}</h2><table><thead><tr><th scope=\"col\">Effect</th>\
         <th scope=\"col\">Right</th><th scope=\"col\">Who</th><th scope=\"col\">Where</th>\
         <th></th></tr></thead><tbody>{rows}</tbody></table>{more}</div>\
         <form method=\"post\" action=\"{base}/admin/rights/set\" class=\"card\">{csrf}<h2>Add a rule on {wiki}</h2>\
         <input type=\"hidden\" name=\"wiki\" value=\"{wiki}\">\
         <fieldset><legend>Effect</legend>\
         <label class=\"check\"><input type=\"radio\" name=\"effect\" value=\"allow\"{allow}> allow</label>\
         <label class=\"check\"><input type=\"radio\" name=\"effect\" value=\"deny\"{deny}> deny</label></fieldset>\
         <label for=\"right\">Right</label><select id=\"right\" name=\"right\">{rights}</select>\
         <fieldset><legend>To</legend>\
         <label class=\"check\"><input type=\"radio\" name=\"kind\" value=\"user\"{to_user}> a user</label>\
         <label class=\"check\"><input type=\"radio\" name=\"kind\" value=\"group\"{to_group}> a group</label></fieldset>\
         <label for=\"subject\">User or group name</label><input type=\"text\" id=\"subject\" name=\"subject\"{subject} required>\
         <label for=\"rule-space\">Space (optional: <code>Space.Sub</code>)</label><input type=\"text\" id=\"rule-space\" name=\"space\"{rule_space}>\
         <label for=\"rule-page\">Or page (optional: <code>Space.Page</code>)</label><input type=\"text\" id=\"rule-page\" name=\"page\"{rule_page}>\
         <p class=\"muted\">Neither: the rule is on the whole wiki.</p>\
         <p><button type=\"submit\">Save rule</button></p></form>\
         <form method=\"get\" action=\"{base}/admin/rights\" class=\"card\"><h2>Effective rights on {wiki}</h2>\
         <input type=\"hidden\" name=\"wiki\" value=\"{wiki}\">\
         <label for=\"who\">User (<code>guest</code> for requests without credentials)</label>\
         <input type=\"text\" id=\"who\" name=\"user\" required value=\"{user}\">\
         <label for=\"ask-space\">Space (optional)</label><input type=\"text\" id=\"ask-space\" name=\"space\" value=\"{space}\">\
         <label for=\"ask-page\">Or page (optional)</label><input type=\"text\" id=\"ask-page\" name=\"page\" value=\"{page}\">\
         <p><button type=\"submit\">Show rights</button></p>{answer}</form>",
        user = escape(&shown.user),
        space = escape(&shown.space),
        page = escape(&shown.page),
        allow = typed.checked("effect", "allow", true),
        deny = typed.checked("effect", "deny", false),
        to_user = typed.checked("kind", "user", true),
        to_group = typed.checked("kind", "group", false),
        subject = typed.value("subject"),
        rule_space = typed.value("rule-space"),
        rule_page = typed.value("rule-page"),
    );
    html::page(status, "Rights", Some(&admin.nav("/admin/rights")), &body)
}

/// `GET /admin/rights?wiki=&user=&space=&page=`.
pub(crate) async fn index(
    State(state): State<Arc<AdminState>>,
    Query(shown): Query<Shown>,
    admin: Admin,
) -> Response {
    if !admin.farm {
        return changes::only_farm_admins(&admin, "/admin/rights");
    }
    render(&state, &admin, StatusCode::OK, "", shown, &Typed::default()).await
}

/// The page of `wiki` again with a refused change's `banner`.
async fn refused(
    state: &AdminState,
    admin: Admin,
    banner: String,
    wiki: String,
    typed: Typed,
) -> Response {
    let shown = Shown {
        wiki,
        ..Shown::default()
    };
    render(state, &admin, StatusCode::OK, &banner, shown, &typed).await
}

/// `POST /admin/rights/set` (allow or deny) and `POST /admin/rights/remove`.
pub(crate) async fn change(
    State(state): State<Arc<AdminState>>,
    Path(op): Path<String>,
    headers: HeaderMap,
    Form(form): Form<RuleForm>,
) -> Response {
    let (remove, done) = match op.as_str() {
        "set" => (false, "set"),
        "remove" => (true, "removed"),
        _ => return changes::no_such_change(),
    };
    let (csrf, wiki, back) = (form.csrf.clone(), form.wiki.clone(), form.back(done));
    let typed = if remove {
        Typed::default()
    } else {
        Typed::new(vec![
            ("effect", form.effect.clone()),
            ("right", form.right.clone()),
            ("kind", form.kind.clone()),
            ("subject", form.subject.clone()),
            ("rule-space", form.space.clone()),
            ("rule-page", form.page.clone()),
        ])
    };
    let build = move |store: &dyn wiki_store::Store| -> Result<AccountChange, ChangeError> {
        let (scope, subject) = (form.scope(store)?, form.subject()?);
        let right = accounts::parse_right(&form.right)?;
        Ok(if remove {
            AccountChange::RemoveRight {
                scope,
                subject,
                right,
            }
        } else {
            AccountChange::SetRight(RightRule {
                scope,
                subject,
                right,
                effect: form.effect()?,
            })
        })
    };
    changes::submit(
        &state,
        &headers,
        &csrf,
        ("/admin/rights", &back),
        build,
        |admin, banner| refused(&state, admin, banner, wiki, typed),
    )
    .await
}
