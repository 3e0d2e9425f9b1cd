//! The wiki server's audit sink: the framework's record plus the wiki the call was made on.
//!
//! One event per call on tracing target `audit`, typed and fixed fields: `tool`, `wiki`, `user`
//! (the name, or `guest`), `outcome` (`ok` | `error` | `failed` | `cancelled` | `timeout` |
//! `declined` | `unconfirmed` | `input_required`), `reason` (the failure's category, e.g.
//! `not_found`, `conflict`; `-` for `ok`) and `duration_ms`; never the arguments nor the error's
//! message (see [`mcp_runtime::audit`]). The same fields of the latest calls are also kept in
//! memory ([`RecentCalls`], bounded) for the admin page's audit view; the log stays the durable
//! record.

use std::collections::VecDeque;
use std::sync::Arc;

use mcp_runtime::audit::{Audit, AuditRecord, Outcome};
use mcp_runtime::reason::ErrorKind;
use parking_lot::Mutex;
use time::OffsetDateTime;

use crate::context::WikiContext;

/// Calls kept in memory for the audit view.
pub const RECENT_CALLS: usize = 1000;

/// One finished call, as the audit view shows it (never its arguments).
#[derive(Debug, Clone)]
pub struct CallRecord {
    /// When it finished.
    pub at: OffsetDateTime,
    /// The wiki it was made on.
    pub wiki: String,
    /// The tool.
    pub tool: String,
    /// The caller (`guest` for the guest).
    pub user: String,
    /// How it ended.
    pub outcome: Outcome,
    /// Why it failed, `None` when it ended `ok`.
    pub reason: Option<ErrorKind>,
    /// How long it ran, in milliseconds.
    pub duration_ms: u64,
}

/// The latest [`RECENT_CALLS`] calls of this process, newest last.
#[derive(Debug, Default)]
pub struct RecentCalls {
    calls: Mutex<VecDeque<CallRecord>>,
}

impl RecentCalls {
    fn push(&self, record: CallRecord) {
        let mut calls = self.calls.lock();
        if calls.len() >= RECENT_CALLS {
            calls.pop_front();
        }
        calls.push_back(record);
    }

    /// The kept calls that `keep` accepts, newest first, at most `limit`.
    pub fn newest(&self, limit: usize, keep: impl Fn(&CallRecord) -> bool) -> Vec<CallRecord> {
        self.calls
            .lock()
            .iter()
            .rev()
            .filter(|record| keep(record))
            .take(limit)
            .cloned()
            .collect()
    }
}

/// Writes the audit event of every call the manager runs, and keeps it among the recent calls.
#[derive(Debug, Clone, Default)]
pub(crate) struct WikiAudit {
    pub(crate) recent: Arc<RecentCalls>,
}

impl Audit for WikiAudit {
    fn record(&self, record: &AuditRecord<'_>) {
        let wiki = record.context.wiki().map_or("", |wiki| wiki.as_str());
        let user = record.context.principal_name();
        tracing::info!(
            target: "audit",
            tool = %record.tool,
            wiki = %wiki,
            user = %user,
            outcome = %record.outcome,
            reason = %record.reason_str(),
            duration_ms = record.duration_ms(),
            "MCP tool call"
        );
        self.recent.push(CallRecord {
            at: OffsetDateTime::now_utc(),
            wiki: wiki.to_owned(),
            tool: record.tool.to_owned(),
            user: user.to_owned(),
            outcome: record.outcome,
            reason: record.reason,
            duration_ms: record.duration_ms(),
        });
    }
}
