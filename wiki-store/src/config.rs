//! Store configuration: size limits and pool size.

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

/// How a store is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreConfig {
    /// Size caps.
    pub limits: Limits,
    /// Reader connections in the pool (at least one); writes use one more, dedicated connection.
    pub readers: usize,
    /// The default language of new documents that do not name one.
    pub default_locale: Locale,
    /// How long a connection waits for a lock held by another process, in milliseconds.
    pub busy_timeout_ms: u32,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            limits: Limits::default(),
            readers: 4,
            default_locale: Locale::english(),
            busy_timeout_ms: 5_000,
        }
    }
}
