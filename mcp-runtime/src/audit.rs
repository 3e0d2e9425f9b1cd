//! The audit trail: one event per tool call, on tracing target `audit`.
//!
//! Fields are typed and fixed: `tool`, `wiki`, `user` (the name, or `guest`), `outcome`
//! (`ok` | `error` | `failed`) and `duration_ms`. The arguments are never logged: they carry page
//! content and search terms, which an operator's log must not collect.

use std::fmt;
use std::time::Duration;

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The tool returned its output.
    Ok,
    /// The tool returned an agent-facing error (bad arguments, refused access, not found…).
    Error,
    /// The tool panicked or ran out of time: an internal failure.
    Failed,
}

impl Outcome {
    /// The audit value.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Error => "error",
            Outcome::Failed => "failed",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Writes the audit event of one call.
pub fn record(tool: &str, wiki: &str, user: &str, outcome: Outcome, duration: Duration) {
    tracing::info!(
        target: "audit",
        tool = %tool,
        wiki = %wiki,
        user = %user,
        outcome = %outcome,
        duration_ms = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX),
        "MCP tool call"
    );
}
