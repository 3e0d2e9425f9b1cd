//! The recent-audit view: the latest tool calls this server ran (tool, user, wiki, outcome,
//! the failure's reason category, duration; never arguments nor error messages), filtered by the query string, for the wikis the administrator
//! administers. Held in memory ([`crate::audit::RecentCalls`]); the `audit` log lines are the
//! durable record.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::response::Response;
use http::StatusCode;
use serde::Deserialize;

use super::AdminState;
use super::auth::Admin;
use super::html::{self, escape};
use crate::audit::RECENT_CALLS;
use crate::instant::iso_instant;
use mcp_runtime::reason::ErrorKind;

/// Rows shown at most.
const MAX_SHOWN: usize = 200;

/// The filters, each optional; text filters match exactly, and are bounded.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Filter {
    #[serde(default)]
    wiki: String,
    #[serde(default)]
    tool: String,
    #[serde(default)]
    user: String,
    #[serde(default)]
    outcome: String,
    #[serde(default)]
    reason: String,
}

fn bounded(text: &str) -> &str {
    let text = text.trim();
    match text.char_indices().nth(100) {
        Some((cut, _)) => &text[..cut],
        None => text,
    }
}

/// `GET /admin/audit?wiki=&tool=&user=&outcome=&reason=`.
pub(crate) async fn index(
    State(state): State<Arc<AdminState>>,
    Query(filter): Query<Filter>,
    admin: Admin,
) -> Response {
    let wiki = bounded(&filter.wiki);
    let tool = bounded(&filter.tool);
    let user = bounded(&filter.user);
    let outcome = bounded(&filter.outcome);
    let reason = bounded(&filter.reason);
    let calls = state
        .shared
        .manager()
        .recent_calls()
        .newest(MAX_SHOWN, |call| {
            admin.wikis.iter().any(|id| id.as_str() == call.wiki)
                && (wiki.is_empty() || call.wiki == wiki)
                && (tool.is_empty() || call.tool == tool)
                && (user.is_empty() || call.user == user)
                && (outcome.is_empty() || call.outcome.as_str() == outcome)
                && (reason.is_empty() || call.reason.map(ErrorKind::as_str) == Some(reason))
        });
    let mut rows = String::new();
    for call in &calls {
        let class = match call.outcome.as_str() {
            "ok" => "tag on",
            _ => "tag",
        };
        let _ = write!(
            rows,
            "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td>\
             <td><span class=\"{class}\">{}</span></td><td>{}</td><td>{} ms</td></tr>",
            escape(&iso_instant(call.at)),
            escape(&call.wiki),
            escape(&call.tool),
            escape(&call.user),
            call.outcome.as_str(),
            call.reason.map_or("", ErrorKind::as_str),
            call.duration_ms,
        );
    }
    if calls.is_empty() {
        rows.push_str("<tr><td colspan=\"7\" class=\"muted\">No call matches.</td></tr>");
    }
    let option = |chosen: &str, value: &str, label: &str| {
        let selected = if chosen == value { " selected" } else { "" };
        format!("<option value=\"{value}\"{selected}>{label}</option>")
    };
    let outcomes: String = [
        ("", "any"),
        ("ok", "ok"),
        ("error", "error"),
        ("failed", "failed"),
        ("cancelled", "cancelled"),
        ("timeout", "timeout"),
    ]
    .iter()
    .map(|(value, label)| option(outcome, value, label))
    .collect();
    let reasons: String = std::iter::once(option(reason, "", "any"))
        .chain(
            ErrorKind::ALL
                .iter()
                .map(|kind| option(reason, kind.as_str(), kind.as_str())),
        )
        .collect();
    let body = format!(
        "<h1>Recent tool calls</h1><p class=\"muted\">The latest {RECENT_CALLS} calls this server \
         ran, newest first (at most {MAX_SHOWN} shown; arguments are never recorded). The \
         <code>audit</code> log lines are the full record.</p>\
         <form method=\"get\" action=\"/admin/audit\" class=\"card\">\
         <label for=\"f-wiki\">Wiki</label><input type=\"text\" id=\"f-wiki\" name=\"wiki\" value=\"{}\">\
         <label for=\"f-tool\">Tool</label><input type=\"text\" id=\"f-tool\" name=\"tool\" value=\"{}\">\
         <label for=\"f-user\">User</label><input type=\"text\" id=\"f-user\" name=\"user\" value=\"{}\">\
         <label for=\"f-outcome\">Outcome</label><select id=\"f-outcome\" name=\"outcome\">{outcomes}</select>\
         <label for=\"f-reason\">Reason</label><select id=\"f-reason\" name=\"reason\">{reasons}</select>\
         <p><button type=\"submit\">Filter</button></p></form>\
         <div class=\"card\"><table><thead><tr><th scope=\"col\">Finished</th><th scope=\"col\">Wiki</th>\
         <th scope=\"col\">Tool</th><th scope=\"col\">User</th><th scope=\"col\">Outcome</th>\
         <th scope=\"col\">Reason</th><th scope=\"col\">Duration</th></tr></thead><tbody>{rows}</tbody></table></div>",
        escape(wiki),
        escape(tool),
        escape(user),
    );
    html::page(
        StatusCode::OK,
        "Audit",
        Some(&admin.nav("/admin/audit")),
        &body,
    )
}
