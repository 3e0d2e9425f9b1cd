//! The admin pages' shared state (sessions, pending sign-ins, the audit log), over
//! [`AdminRows`] and [`AdminReads`].
//!
//! None of it is content: every write here leaves the change sequence alone (no cache hangs on
//! it, and the admin pages write on every request). Each store stays bounded by the write that
//! grows it: opening a session or a sign-in first forgets the expired ones and keeps only the
//! newest up to the limit; appending to the audit log trims it by age and by count.

use crate::Result;
use crate::api::AdminStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::model::admin::{
    AdminSession, AuditCall, AuditCursor, AuditFilter, AuditRetention, AuditRow, SecretDigest,
};

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

    /// How many sign-ins are pending.
    fn count_logins(&mut self) -> Result<i64>;

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

/// What the admin pages read.
/// The row-number bounds of a page at `cursor` (older than, newer than) and the order its rows
/// are read in: a newer page reads upwards from its cursor so that the rows next to it, not the
/// newest of all, fill the page.
pub(crate) fn cursor_bounds(cursor: AuditCursor) -> (Option<i64>, Option<i64>, &'static str) {
    match cursor {
        AuditCursor::Newest => (None, None, "DESC"),
        AuditCursor::Before(id) => (Some(id), None, "DESC"),
        AuditCursor::After(id) => (None, Some(id), "ASC"),
    }
}

/// Puts a page read in [`cursor_bounds`]'s order newest first.
pub(crate) fn newest_first(rows: &mut [AuditRow], cursor: AuditCursor) {
    if matches!(cursor, AuditCursor::After(_)) {
        rows.reverse();
    }
}

pub(crate) trait AdminReads {
    /// Whether a session with this digest is stored (alive or not).
    fn session_stored(&mut self, digest: &SecretDigest) -> Result<bool>;

    /// At most `limit` audit rows `filter` accepts next to `cursor`, newest first.
    fn audit_page(
        &mut self,
        filter: &AuditFilter<'_>,
        cursor: AuditCursor,
        limit: u32,
    ) -> Result<Vec<AuditRow>>;
}

impl<B: Backend> AdminStore for B {
    fn open_admin_session(&self, session: &AdminSession, max_live: u32) -> Result<()> {
        self.write(|tx| {
            tx.nothing_changed();
            tx.delete_expired_sessions(session.created_ms)?;
            // Room for the new one.
            tx.keep_recent_sessions(i64::from(max_live.saturating_sub(1)))?;
            tx.insert_session(session)
        })
    }

    fn touch_admin_session(
        &self,
        digest: &SecretDigest,
        now_ms: i64,
    ) -> Result<Option<AdminSession>> {
        // Any request may carry a cookie: one naming no session is answered by a read, so
        // anonymous requests never queue for the writer.
        if !self.read(|rows| rows.session_stored(digest))? {
            return Ok(None);
        }
        self.write(|tx| {
            tx.nothing_changed();
            let touched = tx.use_session(digest, now_ms)?;
            if touched.is_none() {
                tx.delete_session(digest)?;
            }
            Ok(touched)
        })
    }

    fn close_admin_session(&self, digest: &SecretDigest) -> Result<bool> {
        self.write(|tx| {
            tx.nothing_changed();
            tx.delete_session(digest)
        })
    }

    fn close_admin_sessions_of(&self, user: &str) -> Result<u64> {
        self.write(|tx| {
            tx.nothing_changed();
            tx.delete_sessions_of(user)
        })
    }

    fn begin_admin_login(
        &self,
        digest: &SecretDigest,
        now_ms: i64,
        expires_ms: i64,
        max_pending: u32,
    ) -> Result<bool> {
        self.write(|tx| {
            tx.nothing_changed();
            tx.delete_expired_logins(now_ms)?;
            if tx.count_logins()? >= i64::from(max_pending) {
                return Ok(false);
            }
            tx.upsert_login(digest, expires_ms)?;
            Ok(true)
        })
    }

    fn take_admin_login(&self, digest: &SecretDigest, now_ms: i64) -> Result<bool> {
        self.write(|tx| {
            tx.nothing_changed();
            Ok(tx
                .take_login(digest)?
                .is_some_and(|expires| now_ms < expires))
        })
    }

    /// Trims by age counted back from the newest call appended, then by count; nothing to
    /// append writes nothing.
    fn append_audit(&self, calls: &[AuditCall], keep: AuditRetention) -> Result<()> {
        let Some(newest) = calls.iter().map(|call| call.at_ms).max() else {
            return Ok(());
        };
        self.write(|tx| {
            tx.nothing_changed();
            tx.insert_audit(calls)?;
            tx.delete_audit_before(newest.saturating_sub(keep.max_age_ms))?;
            tx.keep_newest_audit(i64::from(keep.rows))
        })
    }

    fn recent_audit(&self, filter: &AuditFilter<'_>, limit: u32) -> Result<Vec<AuditCall>> {
        let rows = self.audit_page(filter, AuditCursor::Newest, limit)?;
        Ok(rows.into_iter().map(|row| row.call).collect())
    }

    fn audit_page(
        &self,
        filter: &AuditFilter<'_>,
        cursor: AuditCursor,
        limit: u32,
    ) -> Result<Vec<AuditRow>> {
        self.read(|rows| rows.audit_page(filter, cursor, limit))
    }
}
