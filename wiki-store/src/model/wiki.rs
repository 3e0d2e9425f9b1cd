//! Wikis of the farm.

use std::fmt;

use time::OffsetDateTime;

use crate::error::InvalidInput;

/// The id of the main wiki, which always exists and whose admins administer the farm.
pub const MAIN_WIKI: &str = "main";

/// A wiki id: `[a-z0-9][a-z0-9_-]{0,63}`, the form used in reference prefixes and URLs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WikiId(String);

impl WikiId {
    /// Validates a wiki id.
    pub fn new(id: &str) -> Result<Self, InvalidInput> {
        let mut chars = id.chars();
        let first_ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        let rest_ok =
            chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if first_ok && rest_ok && id.len() <= 64 {
            Ok(WikiId(id.to_owned()))
        } else {
            Err(InvalidInput::WikiId)
        }
    }

    /// The main wiki's id.
    pub fn main() -> Self {
        WikiId(MAIN_WIKI.to_owned())
    }

    /// Whether this is the main wiki.
    pub fn is_main(&self) -> bool {
        self.0 == MAIN_WIKI
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for WikiId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A wiki of the farm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wiki {
    /// Its id.
    pub id: WikiId,
    /// The name shown to people ("Sales Wiki").
    pub pretty_name: String,
    /// When it was created.
    pub created: OffsetDateTime,
}
