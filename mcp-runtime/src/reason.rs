//! Why a call failed, in one short word an operator can count: the audit line's `reason`.
//!
//! The agent reads the [`ToolError`](crate::tool::ToolError)'s message; an operator's log and
//! the admin audit view get only its [`ErrorKind`], a closed list of categories with fixed
//! spellings, so a dashboard can group failures (a burst of `conflict`s, an `unavailable`
//! database) without the log ever holding a message that may quote page text or arguments.

use std::fmt;

/// The category of a failed call. A tool states it with
/// [`ToolError::with_kind`](crate::tool::ToolError::with_kind); what the framework produces itself
/// (argument parsing, the guest-write refusal, timeout, cancellation, panics) is categorized by
/// the framework.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The arguments are wrong: missing, malformed, out of range, contradicting each other.
    BadArgument,
    /// What the call names does not exist (or the caller may not learn that it does).
    NotFound,
    /// The caller may not do this (rights, guest, policy, a protected page).
    Forbidden,
    /// The target changed meanwhile (a stale or lost version race).
    Conflict,
    /// The request exceeds a size, count or work budget of the server.
    Budget,
    /// The call ran past the server's timeout.
    Timeout,
    /// The client cancelled the call before it finished.
    Cancelled,
    /// The tool failed inside (a panic, a result that broke its declared output).
    Internal,
    /// A service the tool needs (the database) is unreachable for now.
    Unavailable,
    /// A refusal its tool did not categorize.
    Other,
}

impl ErrorKind {
    /// Every category, in the order of the audit view's filter.
    pub const ALL: [ErrorKind; 10] = [
        ErrorKind::BadArgument,
        ErrorKind::NotFound,
        ErrorKind::Forbidden,
        ErrorKind::Conflict,
        ErrorKind::Budget,
        ErrorKind::Timeout,
        ErrorKind::Cancelled,
        ErrorKind::Internal,
        ErrorKind::Unavailable,
        ErrorKind::Other,
    ];

    /// The audit value (`reason=<this>`): lower-case, one word with underscores.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::BadArgument => "bad_argument",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Forbidden => "forbidden",
            ErrorKind::Conflict => "conflict",
            ErrorKind::Budget => "budget",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Internal => "internal",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::Other => "other",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_category_has_its_own_spelling() {
        let mut seen = std::collections::HashSet::new();
        for kind in ErrorKind::ALL {
            let spelling = kind.as_str();
            assert!(seen.insert(spelling), "{spelling} twice");
            assert!(
                spelling
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{spelling}"
            );
        }
    }
}
