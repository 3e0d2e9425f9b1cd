//! The wiki server's audit sink: the framework's record plus the wiki the call was made on.
//!
//! One event per call on tracing target `audit`, typed and fixed fields: `tool`, `wiki`, `user`
//! (the name, or `guest`), `outcome` (`ok` | `error` | `failed`) and `duration_ms`; never the
//! arguments (see [`mcp_runtime::audit`]).

use mcp_runtime::audit::{Audit, AuditRecord};

use crate::context::WikiContext;

/// Writes the audit event of every call the manager runs.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct WikiAudit;

impl Audit for WikiAudit {
    fn record(&self, record: &AuditRecord<'_>) {
        let wiki = record.context.wiki().map_or("", |wiki| wiki.as_str());
        tracing::info!(
            target: "audit",
            tool = %record.tool,
            wiki = %wiki,
            user = %record.context.principal_name(),
            outcome = %record.outcome,
            duration_ms = record.duration_ms(),
            "MCP tool call"
        );
    }
}
