//! The recent-audit view: the latest tool calls of every server of the farm (tool, user, wiki,
//! outcome, the failure's reason category, duration; never arguments nor error messages),
//! filtered by the query string (`audit_query.rs`: exact text, a UTC time window) and paged by
//! row number, for the wikis the administrator administers. Read from the
//! farm's audit record (`AdminStore::audit_page`), which every replica writes a moment after
//! each call (`crate::audit`); the `audit` log lines are the full record.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::response::Response;
use http::StatusCode;

use super::AdminState;
use super::audit_query::{AuditQuery, MAX_SIZE, RawQuery};
use super::auth::Admin;
use super::html::{self, escape};
use crate::audit::retention;
use mcp_runtime::reason::ErrorKind;
use time::OffsetDateTime;
use wiki_store::model::admin::{AuditCursor, AuditFilter};
use wiki_tool_sdk::instant::iso_instant;

/// `GET /admin/audit?wiki=&tool=&user=&outcome=&reason=&from=&to=&size=&before=&after=`.
pub(crate) async fn index(
    State(state): State<Arc<AdminState>>,
    Query(raw): Query<RawQuery>,
    admin: Admin,
) -> Response {
    let query = match AuditQuery::read(&raw) {
        Ok(query) => query,
        Err(text) => {
            return html::message(
                &admin.prefix,
                StatusCode::BAD_REQUEST,
                "Audit filter refused",
                Some(&admin.nav("/admin/audit")),
                &text,
            );
        }
    };
    let wikis: Vec<String> = admin
        .wikis
        .iter()
        .map(|id| id.as_str().to_owned())
        .collect();
    let given = |text: &str| (!text.is_empty()).then(|| text.to_owned());
    let (wiki_f, tool_f, user_f, outcome_f, reason_f) = (
        given(&query.wiki),
        given(&query.tool),
        given(&query.user),
        given(&query.outcome),
        given(&query.reason),
    );
    let (from_ms, to_ms, cursor, size) = (query.from_ms, query.to_ms, query.cursor, query.size);
    let mut calls = match state
        .on_store("read the audit record", move |store| {
            let filter = AuditFilter {
                wikis: Some(&wikis),
                wiki: wiki_f.as_deref(),
                tool: tool_f.as_deref(),
                user: user_f.as_deref(),
                outcome: outcome_f.as_deref(),
                reason: reason_f.as_deref(),
                from_ms,
                to_ms,
            };
            // One row more than the page tells whether there is a further page that way.
            store.audit_page(&filter, cursor, size + 1)
        })
        .await
    {
        Ok(calls) => calls,
        Err(response) => return response,
    };
    let further = calls.len() > size as usize;
    if further {
        // The extra row is the one farthest from the cursor.
        match cursor {
            AuditCursor::After(_) => {
                calls.remove(0);
            }
            AuditCursor::Newest | AuditCursor::Before(_) => calls.truncate(size as usize),
        }
    }
    // A cursor came from a row shown on the page beyond it, so that way there is a page.
    let (newer, older) = match cursor {
        AuditCursor::Newest => (false, further),
        AuditCursor::Before(_) => (true, further),
        AuditCursor::After(_) => (further, true),
    };
    let prefix = escape(&admin.prefix);
    let link = |rel: &str, text: &str, cursor: AuditCursor| {
        format!(
            "<a rel=\"{rel}\" href=\"{prefix}/admin/audit?{}\">{text}</a>",
            escape(&query.at(cursor))
        )
    };
    let mut pager = String::new();
    if newer {
        pager.push_str(&link("first", "Newest", AuditCursor::Newest));
        if let Some(first) = calls.first() {
            pager.push_str(&link("prev", "← Newer", AuditCursor::After(first.id)));
        }
    }
    if let (true, Some(last)) = (older, calls.last()) {
        pager.push_str(&link("next", "Older →", AuditCursor::Before(last.id)));
    }
    if !pager.is_empty() {
        pager = format!("<nav class=\"pager\" aria-label=\"Pages\">{pager}</nav>");
    }
    let mut rows = String::new();
    for row in &calls {
        let call = &row.call;
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
    .map(|(value, label)| option(&query.outcome, value, label))
    .collect();
    let reasons: String = std::iter::once(option(&query.reason, "", "any"))
        .chain(
            ErrorKind::ALL
                .iter()
                .map(|kind| option(&query.reason, kind.as_str(), kind.as_str())),
        )
        .collect();
    let size_text = query.size.to_string();
    let sizes: String = [20, 50, 100, MAX_SIZE]
        .iter()
        .map(|size| size.to_string())
        .chain((![20, 50, 100, MAX_SIZE].contains(&query.size)).then(|| size_text.clone()))
        .map(|size| option(&size_text, &size, &size))
        .collect();
    let field = |id: &str, label: &str, control: String| {
        format!("<div><label for=\"f-{id}\">{label}</label>{control}</div>")
    };
    let text = |id: &str, kind: &str, value: &str| {
        format!(
            "<input type=\"{kind}\" id=\"f-{id}\" name=\"{id}\" value=\"{}\">",
            escape(value)
        )
    };
    let select =
        |id: &str, options: &str| format!("<select id=\"f-{id}\" name=\"{id}\">{options}</select>");
    let fields = [
        field("wiki", "Wiki", text("wiki", "text", &query.wiki)),
        field("tool", "Tool", text("tool", "text", &query.tool)),
        field("user", "User", text("user", "text", &query.user)),
        field("outcome", "Outcome", select("outcome", &outcomes)),
        field("reason", "Reason", select("reason", &reasons)),
        field(
            "from",
            "From (UTC)",
            text("from", "datetime-local", &query.from),
        ),
        field("to", "Until (UTC)", text("to", "datetime-local", &query.to)),
        field("size", "Rows per page", select("size", &sizes)),
    ]
    .concat();
    let body = format!(
        "<h1>Recent tool calls</h1><p class=\"muted\">The calls of every server of this \
         farm, newest first, recorded within a second (the newest {kept} calls of the last \
         {days} days are kept; arguments are never recorded). The \
         <code>audit</code> log lines are the full record. Changes to users, groups and \
         rights show here too, the command (<code>user create</code>, <code>rights allow</code>, \
         ...) as the tool and who made it as the user (<code>command line</code> for \
         <code>wiki-mcp</code> commands).</p>\
         <form method=\"get\" action=\"{prefix}/admin/audit\" class=\"card\">\
         <div class=\"filters\">{fields}</div>\
         <p><button type=\"submit\">Filter</button></p></form>{pager}\
         <div class=\"card scroll\"><table><thead><tr><th scope=\"col\">Finished</th><th scope=\"col\">Wiki</th>\
         <th scope=\"col\">Tool</th><th scope=\"col\">User</th><th scope=\"col\">Outcome</th>\
         <th scope=\"col\">Reason</th><th scope=\"col\">Duration</th></tr></thead><tbody>{rows}</tbody></table></div>{pager}",
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
