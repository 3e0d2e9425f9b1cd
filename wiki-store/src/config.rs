//! Store configuration: size limits, the connection pool and its timeouts.

use crate::clock::Clock;
use crate::model::locale::Locale;

/// Size caps, checked before anything is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Longest document content, in characters.
    pub max_content_chars: usize,
    /// Longest title, in characters.
    pub max_title_chars: usize,
    /// Longest version comment, in characters.
    pub max_comment_chars: usize,
    /// Longest author or user name, in characters.
    pub max_author_chars: usize,
    /// Largest attachment, in bytes.
    pub max_attachment_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_content_chars: 1_000_000,
            max_title_chars: 768,
            max_comment_chars: 1024,
            max_author_chars: 255,
            max_attachment_bytes: 10 * 1024 * 1024,
        }
    }
}

/// How a store is opened. The same settings serve every backend; each field says what it means
/// for each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreConfig {
    /// Size caps.
    pub limits: Limits,
    /// Connections for reads and writes (at least one). SQLite: reader connections, and writes
    /// use one more, dedicated connection (SQLite has one writer at a time). PostgreSQL: the
    /// bound of the pool every call draws from (each replica of a farm holds its own), plus one
    /// connection that listens for other processes' commits.
    pub pool_size: usize,
    /// The default language of new documents that do not name one.
    pub default_locale: Locale,
    /// How long a statement waits for a lock held by another connection or process, in
    /// milliseconds (SQLite's busy timeout; PostgreSQL's `lock_timeout`, after which the write
    /// is retried as a concurrent one).
    pub lock_timeout_ms: u32,
    /// The longest a single statement may run, in milliseconds (PostgreSQL's
    /// `statement_timeout`; 0 means no limit). SQLite runs in-process and has no equivalent.
    pub statement_timeout_ms: u32,
    /// How long connecting to a database server may take, in milliseconds, and how long a call
    /// waits for a free pooled connection before the store reports itself unavailable
    /// (PostgreSQL; SQLite opens files).
    pub connect_timeout_ms: u32,
    /// How long a reading of the commit marker is reused, in milliseconds (SQLite: the probe's
    /// `data_version`, so another process's commit shows at most this late; 0 asks every time;
    /// the default is [`crate::sqlite::MARKER_WINDOW`]). PostgreSQL's marker is kept in memory
    /// by its notification thread and ignores it.
    pub commit_marker_window_ms: u32,
    /// Where the store reads the current time, for what it records (creations, saves) and
    /// what lapses (identity adoptions, token scopes, SQLite's leases; PostgreSQL's leases read
    /// the database's clock). The system's by default; tests move an
    /// [`crate::AdjustableClock`] instead of sleeping.
    pub clock: Clock,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            limits: Limits::default(),
            pool_size: 4,
            default_locale: Locale::english(),
            lock_timeout_ms: 5_000,
            statement_timeout_ms: 30_000,
            connect_timeout_ms: 5_000,
            commit_marker_window_ms: crate::sqlite::MARKER_WINDOW_MS,
            clock: Clock::system(),
        }
    }
}
