//! What the administrators' web page keeps in the farm's database, so that every replica
//! serving the farm sees it: sign-in sessions, OpenID Connect sign-ins under way, and the
//! recent-audit record of tool calls.
//!
//! Secrets are kept as SHA-256 digests only: a session's cookie value and a pending sign-in's
//! state never reach the database in clear, so a copy of it opens no session.

/// The SHA-256 digest of a secret a browser holds (a session cookie, a pending sign-in).
pub type SecretDigest = [u8; 32];

/// A signed-in administrator's session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminSession {
    /// The digest of the cookie's random id.
    pub digest: SecretDigest,
    /// The signed-in user.
    pub user: String,
    /// When it was opened (milliseconds since the epoch).
    pub created_ms: i64,
    /// When it was last used.
    pub last_used_ms: i64,
    /// It ends once unused this long (milliseconds).
    pub idle_ms: i64,
    /// It ends at this instant, however busy.
    pub expires_ms: i64,
}

impl AdminSession {
    /// Whether the session is still open at `now_ms`.
    pub fn alive_at(&self, now_ms: i64) -> bool {
        now_ms < self.expires_ms && now_ms < self.last_used_ms.saturating_add(self.idle_ms)
    }
}

/// One finished tool call as the audit view shows it: never its arguments nor its error text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditCall {
    /// When it finished (milliseconds since the epoch).
    pub at_ms: i64,
    /// The wiki it was made on.
    pub wiki: String,
    /// The tool.
    pub tool: String,
    /// The caller (`guest` for the guest).
    pub user: String,
    /// How it ended (`ok`, `error`, `timeout`, ...).
    pub outcome: String,
    /// Why it failed (the error's category), `None` when it ended `ok`.
    pub reason: Option<String>,
    /// How long it ran, in milliseconds.
    pub duration_ms: i64,
}

/// How much of the audit record a farm keeps: rows beyond either bound are pruned as new ones
/// arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuditRetention {
    /// The newest rows kept at most.
    pub rows: u32,
    /// Rows older than this (milliseconds before the newest append) are dropped.
    pub max_age_ms: i64,
}

impl Default for AuditRetention {
    /// The newest 10,000 calls of the last 7 days.
    fn default() -> Self {
        AuditRetention {
            rows: 10_000,
            max_age_ms: 7 * 24 * 60 * 60 * 1000,
        }
    }
}

/// Which audit rows a view wants; every field that is `Some` must match exactly.
#[derive(Debug, Clone, Copy, Default)]
pub struct AuditFilter<'a> {
    /// Only calls on these wikis (`None`: any wiki).
    pub wikis: Option<&'a [String]>,
    /// Only calls on this wiki.
    pub wiki: Option<&'a str>,
    /// Only calls of this tool.
    pub tool: Option<&'a str>,
    /// Only calls by this user.
    pub user: Option<&'a str>,
    /// Only calls that ended so.
    pub outcome: Option<&'a str>,
    /// Only calls that failed for this reason.
    pub reason: Option<&'a str>,
    /// Only calls that finished at or after this instant (milliseconds since the epoch).
    pub from_ms: Option<i64>,
    /// Only calls that finished before this instant (milliseconds since the epoch).
    pub to_ms: Option<i64>,
}

/// Where a page of the audit record starts. Rows are numbered in the order they were recorded
/// and never renumbered, so a page bounded by a row's number shows the same rows however many
/// calls arrive meanwhile (unlike an offset, which shifts with every new row).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AuditCursor {
    /// The newest rows.
    #[default]
    Newest,
    /// The rows recorded just before the row with this number (the next, older page).
    Before(i64),
    /// The rows recorded just after the row with this number (the previous, newer page).
    After(i64),
}

/// One row of the audit record: the call and its number, which [`AuditCursor`] pages by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditRow {
    /// The row's number: it increases with every call recorded.
    pub id: i64,
    /// The call.
    pub call: AuditCall,
}
