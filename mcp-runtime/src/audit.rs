//! The audit trail: one record per tool call, the middleware's last step.
//!
//! The middleware hands each finished call to the server's [`Audit`] sink. The framework's own,
//! [`LogAudit`], writes one event on tracing target `audit` with typed, fixed fields: `tool`,
//! `user` (the name, or `guest`), `outcome` (`ok` | `error` | `failed` | `cancelled` | `timeout`),
//! `reason` (for a call that did not end `ok`: its [`ErrorKind`], e.g. `bad_argument`,
//! `not_found`, `conflict`; `-` for an `ok` call) and `duration_ms`. A
//! server whose calls have more to say (the wiki server adds `wiki`) brings its own sink, which
//! reads what it needs from the call's context extensions. Whatever the sink, the arguments are
//! never handed to it: they carry page content and search terms, which an operator's log must
//! not collect.

use std::fmt;
use std::time::Duration;

use crate::context::ToolContext;
use crate::reason::ErrorKind;

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The tool returned its output.
    Ok,
    /// The tool returned an agent-facing error (bad arguments, refused access, not found…).
    Error,
    /// The tool panicked, or its result broke its output schema: an internal failure.
    Failed,
    /// The client cancelled the call (or went away) before it finished.
    Cancelled,
    /// The call ran past the server's timeout and was cancelled.
    Timeout,
    /// The person asked to confirm the call declined it: nothing was done.
    Declined,
    /// The call needed a confirmation it could not get (a client that cannot ask, a forged,
    /// replayed, expired or foreign confirmation): nothing was done.
    Unconfirmed,
    /// The call answered a question for the person (an input-required result) and waits for
    /// the client's retry: nothing was done yet.
    InputRequired,
}

impl Outcome {
    /// The audit value.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Error => "error",
            Outcome::Failed => "failed",
            Outcome::Cancelled => "cancelled",
            Outcome::Timeout => "timeout",
            Outcome::Declined => "declined",
            Outcome::Unconfirmed => "unconfirmed",
            Outcome::InputRequired => "input_required",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the middleware reports of one finished call: never its arguments.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct AuditRecord<'a> {
    /// The tool's id.
    pub tool: &'a str,
    /// The call's context: the caller, and the server's extensions.
    pub context: &'a ToolContext,
    /// How it ended.
    pub outcome: Outcome,
    /// Why it failed (the error's category), `None` when it returned its output. Never the
    /// message: it may quote the arguments.
    pub reason: Option<ErrorKind>,
    /// How long it ran, refusals and parsing included.
    pub duration: Duration,
}

impl AuditRecord<'_> {
    /// [`AuditRecord::duration`] in whole milliseconds, saturating.
    pub fn duration_ms(&self) -> u64 {
        u64::try_from(self.duration.as_millis()).unwrap_or(u64::MAX)
    }

    /// [`AuditRecord::reason`] as the audit value: the category, or `-` for a call that ended
    /// `ok`.
    pub fn reason_str(&self) -> &'static str {
        self.reason.map_or("-", ErrorKind::as_str)
    }
}

/// Where the middleware reports every call. It runs on the request path, once per call: keep it
/// cheap (emit an event; let the subscriber do the writing).
pub trait Audit: Send + Sync + 'static {
    /// Records one finished call.
    fn record(&self, record: &AuditRecord<'_>);
}

/// The framework's audit sink: one `audit` event with `tool`, `user`, `outcome`, `reason`,
/// `duration_ms`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogAudit;

impl Audit for LogAudit {
    fn record(&self, record: &AuditRecord<'_>) {
        tracing::info!(
            target: "audit",
            tool = %record.tool,
            user = %record.context.user_or_guest(),
            outcome = %record.outcome,
            reason = %record.reason_str(),
            duration_ms = record.duration_ms(),
            "MCP tool call"
        );
    }
}
