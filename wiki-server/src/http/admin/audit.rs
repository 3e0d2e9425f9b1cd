//! The recent-audit view: the latest tool calls of every server of the farm (tool, user, wiki,
//! outcome, the failure's reason category, duration; never arguments nor error messages),
//! filtered by the query string, for the wikis the administrator administers. Read from the
//! farm's audit record (`AdminStore::recent_audit`), which every replica writes a moment after
//! each call (`crate::audit`); the `audit` log lines are the full record.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::response::Response;
use http::StatusCode;
use serde::Deserialize;

use super::AdminState;
use super::auth::Admin;
use super::html::{self, escape};
use crate::audit::retention;
use mcp_runtime::reason::ErrorKind;
use time::OffsetDateTime;
use wiki_store::model::admin::AuditFilter;
use wiki_tool_sdk::instant::iso_instant;

/// Rows shown at most.
const MAX_SHOWN: u32 = 200;

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
    let wikis: Vec<String> = admin
        .wikis
        .iter()
        .map(|id| id.as_str().to_owned())
        .collect();
    let given = |text: &str| (!text.is_empty()).then(|| text.to_owned());
    let (wiki_f, tool_f, user_f, outcome_f, reason_f) = (
        given(wiki),
        given(tool),
        given(user),
        given(outcome),
        given(reason),
    );
    let calls = match state
        .on_store("read the audit record", move |store| {
            let filter = AuditFilter {
                wikis: Some(&wikis),
                wiki: wiki_f.as_deref(),
                tool: tool_f.as_deref(),
                user: user_f.as_deref(),
                outcome: outcome_f.as_deref(),
                reason: reason_f.as_deref(),
            };
            store.recent_audit(&filter, MAX_SHOWN)
        })
        .await
    {
        Ok(calls) => calls,
        Err(response) => return response,
    };
    let mut rows = String::new();
    for call in &calls {
        let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(call.at_ms) * 1_000_000)
            .unwrap_or(OffsetDateTime::UNIX_EPOCH);
        let class = match call.outcome.as_str() {
            "ok" => "tag on",
            _ => "tag",
        };
        let _ = write!(
            rows,
            "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td>\
             <td><span class=\"{class}\">{}</span></td><td>{}</td><td>{} ms</td></tr>",
            escape(&iso_instant(at)),
            escape(&call.wiki),
            escape(&call.tool),
            escape(&call.user),
            escape(&call.outcome),
            escape(call.reason.as_deref().unwrap_or("")),
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
    let prefix = escape(&admin.prefix);
    let body = format!(
        "<h1>Recent tool calls</h1><p class=\"muted\">The latest calls of every server of this \
         farm, newest first, recorded within a second (the newest {kept} calls of the last \
         {days} days are kept, at most {MAX_SHOWN} shown; arguments are never recorded). The \
         <code>audit</code> log lines are the full record.</p>\
         <form method=\"get\" action=\"{prefix}/admin/audit\" class=\"card\">\
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
        kept = retention().rows,
        days = retention().max_age_ms / (24 * 60 * 60 * 1000),
    );
    html::page(
        StatusCode::OK,
        "Audit",
        Some(&admin.nav("/admin/audit")),
        &body,
    )
}
