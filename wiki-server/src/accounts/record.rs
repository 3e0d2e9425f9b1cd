//! An account change in the audit record: a row of the farm's record (the admin page's audit
//! view shows it, with who made it) and a line on tracing target `audit`, the same fields a tool
//! call's carry: the command as `tool`, the wiki it concerns, the `user` who made it, `outcome`
//! (`ok`, `error` when refused, `failed` when the store failed) and `reason`.

use std::time::Duration;

use wiki_store::Store;
use wiki_store::model::admin::AuditCall;

use super::{AccountChange, ChangeError};

/// Records `change`, made by `actor`, which ended with `outcome` after `took`. A row the store
/// cannot keep is said in the log, which stays the durable record.
pub(crate) fn change(
    store: &dyn Store,
    change: &AccountChange,
    actor: &str,
    outcome: &Result<(), ChangeError>,
    took: Duration,
) {
    let (ended, reason) = match outcome {
        Ok(()) => ("ok", None),
        Err(error @ ChangeError::Refused { .. }) => ("error", Some(error.reason().as_str())),
        Err(error @ ChangeError::Store(_)) => ("failed", Some(error.reason().as_str())),
    };
    let wiki = change.wiki();
    let duration_ms = i64::try_from(took.as_millis()).unwrap_or(i64::MAX);
    tracing::info!(
        target: "audit",
        tool = change.command(),
        wiki = %wiki,
        user = %actor,
        outcome = ended,
        reason = reason.unwrap_or("-"),
        duration_ms,
        request_id = "-",
        "account change"
    );
    let row = AuditCall {
        at_ms: now_ms(),
        wiki: wiki.to_string(),
        tool: change.command().to_owned(),
        user: actor.to_owned(),
        outcome: ended.to_owned(),
        reason: reason.map(str::to_owned),
        duration_ms,
    };
    if let Err(error) = store.append_audit(&[row], crate::audit::retention()) {
        tracing::warn!(%error, "the account change could not be added to the audit record: it is in the log only");
    }
}

/// Milliseconds since the epoch, now.
fn now_ms() -> i64 {
    let now = time::OffsetDateTime::now_utc();
    i64::try_from(now.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}
