//! The admin pages' shared state (sessions, pending sign-ins, the audit log), over
//! [`AdminRows`].
//!
//! None of it is content: every write here leaves the change sequence alone (no cache hangs on
//! it, and the admin pages write on every request). Each store stays bounded by the write that
//! grows it: opening a session or a sign-in first forgets the expired ones and keeps only the
//! newest up to the limit; appending to the audit log trims it by age and by count.

use crate::Result;
use crate::flow::Transaction;
use crate::model::admin::{AdminSession, AuditCall, AuditRetention, SecretDigest};

/// The admin tables as one write transaction reads and writes them.
pub(crate) trait AdminRows: Transaction {
    /// Deletes the sessions expired at `now_ms` (past their end or idle too long).
    fn delete_expired_sessions(&mut self, now_ms: i64) -> Result<()>;

    /// Deletes all but the `keep` most recently used sessions.
    fn keep_recent_sessions(&mut self, keep: i64) -> Result<()>;

    /// Stores a new session.
    fn insert_session(&mut self, session: &AdminSession) -> Result<()>;

    /// Marks the live session `digest` used at `now_ms` and returns it; `None` when it is
    /// missing or expired (and then left as it is).
    fn use_session(&mut self, digest: &SecretDigest, now_ms: i64) -> Result<Option<AdminSession>>;

    /// Deletes session `digest`; whether it was stored.
    fn delete_session(&mut self, digest: &SecretDigest) -> Result<bool>;

    /// Deletes every session of `user`; how many.
    fn delete_sessions_of(&mut self, user: &str) -> Result<u64>;

    /// Deletes the pending sign-ins expired at `now_ms`.
    fn delete_expired_logins(&mut self, now_ms: i64) -> Result<()>;

    /// Deletes all but the `keep` pending sign-ins that expire last.
    fn keep_latest_logins(&mut self, keep: i64) -> Result<()>;

    /// Stores (or renews) pending sign-in `digest`, expiring at `expires_ms`.
    fn upsert_login(&mut self, digest: &SecretDigest, expires_ms: i64) -> Result<()>;

    /// Deletes pending sign-in `digest` and returns when it expired, in one statement (of
    /// several takers of one sign-in, exactly one gets it).
    fn take_login(&mut self, digest: &SecretDigest) -> Result<Option<i64>>;

    /// Appends `calls` to the audit log, in order.
    fn insert_audit(&mut self, calls: &[AuditCall]) -> Result<()>;

    /// Deletes the audit rows older than `at_ms`.
    fn delete_audit_before(&mut self, at_ms: i64) -> Result<()>;

    /// Deletes all but the newest `keep` audit rows.
    fn keep_newest_audit(&mut self, keep: i64) -> Result<()>;
}

/// Opens a session, first forgetting expired ones and keeping at most `max_live` live ones (the
/// new one included).
pub(crate) fn open_session<T: AdminRows>(
    tx: &mut T,
    session: &AdminSession,
    max_live: u32,
) -> Result<()> {
    tx.nothing_changed();
    tx.delete_expired_sessions(session.created_ms)?;
    tx.keep_recent_sessions(i64::from(max_live.saturating_sub(1)))?;
    tx.insert_session(session)
}

/// Marks a live session used and returns it; an expired one is deleted and `None` returned.
pub(crate) fn touch_session<T: AdminRows>(
    tx: &mut T,
    digest: &SecretDigest,
    now_ms: i64,
) -> Result<Option<AdminSession>> {
    tx.nothing_changed();
    let touched = tx.use_session(digest, now_ms)?;
    if touched.is_none() {
        tx.delete_session(digest)?;
    }
    Ok(touched)
}

/// Closes one session; whether it was open.
pub(crate) fn close_session<T: AdminRows>(tx: &mut T, digest: &SecretDigest) -> Result<bool> {
    tx.nothing_changed();
    tx.delete_session(digest)
}

/// Closes every session of `user`; how many were open.
pub(crate) fn close_sessions_of<T: AdminRows>(tx: &mut T, user: &str) -> Result<u64> {
    tx.nothing_changed();
    tx.delete_sessions_of(user)
}

/// Records a pending sign-in, first forgetting expired ones and keeping at most `max_pending`
/// (the new one included).
pub(crate) fn begin_login<T: AdminRows>(
    tx: &mut T,
    digest: &SecretDigest,
    now_ms: i64,
    expires_ms: i64,
    max_pending: u32,
) -> Result<()> {
    tx.nothing_changed();
    tx.delete_expired_logins(now_ms)?;
    tx.keep_latest_logins(i64::from(max_pending.saturating_sub(1)))?;
    tx.upsert_login(digest, expires_ms)
}

/// Takes a pending sign-in once: whether it existed and had not expired at `now_ms`.
pub(crate) fn take_login<T: AdminRows>(
    tx: &mut T,
    digest: &SecretDigest,
    now_ms: i64,
) -> Result<bool> {
    tx.nothing_changed();
    Ok(tx
        .take_login(digest)?
        .is_some_and(|expires| now_ms < expires))
}

/// Appends `calls` to the audit log, then trims it to `keep`: by age, counted back from the
/// newest call appended, and by count. Nothing to append writes nothing.
pub(crate) fn append_audit<T: AdminRows>(
    tx: &mut T,
    calls: &[AuditCall],
    keep: AuditRetention,
) -> Result<()> {
    tx.nothing_changed();
    let Some(newest) = calls.iter().map(|call| call.at_ms).max() else {
        return Ok(());
    };
    tx.insert_audit(calls)?;
    tx.delete_audit_before(newest.saturating_sub(keep.max_age_ms))?;
    tx.keep_newest_audit(i64::from(keep.rows))
}
