//! The wiki server's audit sink: the framework's record plus the wiki the call was made on.
//!
//! One event per call on tracing target `audit`, typed and fixed fields: `tool`, `wiki`, `user`
//! (the name, or `guest`), `outcome` (`ok` | `error` | `failed` | `cancelled` | `timeout` |
//! `declined` | `unconfirmed` | `input_required`), `reason` (the failure's category, e.g.
//! `not_found`, `conflict`; `-` for `ok`), `duration_ms` and `request_id` (the HTTP request's
//! `x-request-id`, `-` without one); never the arguments nor the error's
//! message (see [`mcp_runtime::audit`]).
//!
//! The same fields (less the user) make the call's OpenTelemetry span (`span.rs`).
//!
//! The same fields also go to the farm's database (`AdminStore::append_audit`), which the admin
//! page's audit view reads, so every replica's calls show on every replica. Not on the call
//! path: a call appends its record to a memory buffer under one short lock, and a thread of
//! this process writes the buffer in batches (`flush`: every `FLUSH_EVERY`, or at
//! once when `FLUSH_AT` records wait), pruning to [`AuditRetention::default`] (the
//! newest 10,000 calls of the last 7 days). A buffer that cannot be written (the database is
//! down) is dropped with a warning: the log stays the durable record. The latest calls of this
//! process are also kept in memory ([`RecentCalls`]) for tests and diagnostics.

pub(crate) mod flush;
mod span;

use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

use mcp_runtime::audit::{Audit, AuditRecord, Outcome};
use mcp_runtime::reason::ErrorKind;
use parking_lot::Mutex;
use time::OffsetDateTime;
use wiki_store::model::admin::{AuditCall, AuditRetention};

use wiki_tool_sdk::WikiContext;

use crate::server::{CallOrigin, ServedBy};

/// Calls of this process kept in memory.
pub const RECENT_CALLS: usize = 1000;

/// One finished call, as the audit records it (never its arguments).
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

impl CallRecord {
    /// The row the store keeps (built by the writer thread, off the call path).
    fn to_stored(&self) -> AuditCall {
        AuditCall {
            at_ms: i64::try_from(self.at.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX),
            wiki: self.wiki.clone(),
            tool: self.tool.clone(),
            user: self.user.clone(),
            outcome: self.outcome.as_str().to_owned(),
            reason: self.reason.map(|reason| reason.as_str().to_owned()),
            duration_ms: i64::try_from(self.duration_ms).unwrap_or(i64::MAX),
        }
    }
}

#[derive(Debug, Default)]
struct Kept {
    /// This process's latest calls, newest last.
    latest: VecDeque<Arc<CallRecord>>,
    /// Calls not yet written to the store, oldest first (the same records: a call allocates
    /// one record, whatever keeps it).
    pending: Vec<Arc<CallRecord>>,
    /// Calls dropped because the buffer was full since the last flush.
    dropped: u64,
}

/// The latest [`RECENT_CALLS`] calls of this process, and those waiting to be written to the
/// farm's audit record.
#[derive(Debug, Default)]
pub struct RecentCalls {
    kept: Mutex<Kept>,
    /// The flushing thread, woken when the buffer fills.
    flusher: OnceLock<std::thread::Thread>,
}

impl RecentCalls {
    fn push(&self, record: CallRecord) {
        let record = Arc::new(record);
        let wake = {
            let mut kept = self.kept.lock();
            if kept.latest.len() >= RECENT_CALLS {
                kept.latest.pop_front();
            }
            kept.latest.push_back(Arc::clone(&record));
            if kept.pending.len() >= flush::MAX_PENDING {
                kept.dropped += 1;
            } else {
                kept.pending.push(record);
            }
            kept.pending.len() == flush::FLUSH_AT
        };
        if wake && let Some(flusher) = self.flusher.get() {
            flusher.unpark();
        }
    }

    /// The calls waiting for the store, as its rows, and how many were dropped since the last
    /// take.
    fn take_pending(&self) -> (Vec<AuditCall>, u64) {
        let (pending, dropped) = {
            let mut kept = self.kept.lock();
            let dropped = std::mem::take(&mut kept.dropped);
            (std::mem::take(&mut kept.pending), dropped)
        };
        (
            pending.iter().map(|record| record.to_stored()).collect(),
            dropped,
        )
    }

    /// How many calls wait to be written to the farm's audit record.
    pub fn pending_len(&self) -> usize {
        self.kept.lock().pending.len()
    }

    /// This process's kept calls that `keep` accepts, newest first, at most `limit`.
    pub fn newest(&self, limit: usize, keep: impl Fn(&CallRecord) -> bool) -> Vec<CallRecord> {
        self.kept
            .lock()
            .latest
            .iter()
            .rev()
            .filter(|record| keep(record))
            .take(limit)
            .map(|record| CallRecord::clone(record))
            .collect()
    }
}

/// Writes the audit event of every call the manager runs, and keeps it for the store.
#[derive(Debug, Clone, Default)]
pub(crate) struct WikiAudit {
    pub(crate) recent: Arc<RecentCalls>,
}

impl Audit for WikiAudit {
    fn record(&self, record: &AuditRecord<'_>) {
        let wiki = record.context.wiki().map_or("", |wiki| wiki.as_str());
        let user = record.context.principal_name();
        let origin = record.context.extension::<CallOrigin>();
        let request_id = origin.map_or("-", CallOrigin::request_id_str);
        tracing::info!(
            target: "audit",
            tool = %record.tool,
            wiki = %wiki,
            user = %user,
            outcome = %record.outcome,
            reason = %record.reason_str(),
            duration_ms = record.duration_ms(),
            request_id,
            "MCP tool call"
        );
        span::send(record, wiki, origin);
        if let Some(served) = record.context.extension::<ServedBy>() {
            served
                .server
                .meters
                .record(record.tool, record.outcome, record.duration);
        }
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

/// How much of the audit record the farm keeps.
pub(crate) fn retention() -> AuditRetention {
    AuditRetention::default()
}
