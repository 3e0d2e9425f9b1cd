//! What the admin web page shares between the replicas of a farm.

use crate::Result;
use crate::model::admin::{
    AdminSession, AuditCall, AuditCursor, AuditFilter, AuditRetention, AuditRow, SecretDigest,
};

/// Admin sessions, pending OpenID Connect sign-ins and the recent-audit record, kept in the
/// farm's database so that a load balancer may send an administrator's requests to any replica.
///
/// None of these writes is a change of content: no change event, the change sequence stays
/// where it is (servers do not rebuild anything for them).
pub trait AdminStore {
    /// Stores a new session. Sessions no longer alive at `session.created_ms` are deleted
    /// first; then, while `max_live` sessions or more remain, the least recently used go, so
    /// the table stays bounded however many sign-ins arrive.
    fn open_admin_session(&self, session: &AdminSession, max_live: u32) -> Result<()>;

    /// The session whose cookie has this digest, if it is alive at `now_ms`; its last use
    /// becomes `now_ms`. A session found expired is deleted and `None` is returned. A digest
    /// naming no session writes nothing.
    fn touch_admin_session(
        &self,
        digest: &SecretDigest,
        now_ms: i64,
    ) -> Result<Option<AdminSession>>;

    /// Ends the session with this digest (sign-out); whether there was one.
    fn close_admin_session(&self, digest: &SecretDigest) -> Result<bool>;

    /// Ends every session of `user` (their admin right was withdrawn); how many there were.
    fn close_admin_sessions_of(&self, user: &str) -> Result<u64>;

    /// Records a sign-in under way at an identity provider until `expires_ms`: true. Those
    /// expired at `now_ms` are deleted first; when `max_pending` remain, nothing is recorded:
    /// false. The start is open to anyone, so the table must stay bounded under a flood, and a
    /// flood must not evict the sign-ins of people already at their identity provider.
    fn begin_admin_login(
        &self,
        digest: &SecretDigest,
        now_ms: i64,
        expires_ms: i64,
        max_pending: u32,
    ) -> Result<bool>;

    /// Takes the sign-in under way with this digest: true, and it is gone, when it was recorded
    /// and not expired at `now_ms`; false otherwise (unknown, used already, or expired). Of
    /// processes taking one at once, exactly one gets true.
    fn take_admin_login(&self, digest: &SecretDigest, now_ms: i64) -> Result<bool>;

    /// Appends finished calls to the audit record, in order, in one transaction, then prunes
    /// what `keep` no longer covers.
    fn append_audit(&self, calls: &[AuditCall], keep: AuditRetention) -> Result<()>;

    /// The newest recorded calls `filter` accepts, newest first, at most `limit`.
    fn recent_audit(&self, filter: &AuditFilter<'_>, limit: u32) -> Result<Vec<AuditCall>>;

    /// A page of the recorded calls `filter` accepts, newest first: at most `limit` rows next
    /// to `cursor` (the newest, or the nearest older or newer than a row).
    fn audit_page(
        &self,
        filter: &AuditFilter<'_>,
        cursor: AuditCursor,
        limit: u32,
    ) -> Result<Vec<AuditRow>>;
}
