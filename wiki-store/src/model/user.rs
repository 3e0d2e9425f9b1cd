//! Users and groups of the farm.
//!
//! Users and groups are farm-wide (one namespace for every wiki); rights are per wiki. The guest
//! user is built in: it always exists, cannot be created, deleted or given a token, and is the
//! identity of every request without a credential.

use time::OffsetDateTime;

use crate::error::{InvalidInput, StoreError};

/// The name of the built-in guest user.
pub const GUEST_USER: &str = "guest";

/// The built-in group of every registered user (the guest excluded), as XWiki's XWikiAllGroup:
/// "allow view to all-users" is how a wiki opens to everyone who logs in. It has no stored
/// members; it can be named in rules and nested in other groups.
pub const ALL_USERS_GROUP: &str = "all-users";

/// The longest user or group name.
pub const MAX_PRINCIPAL_NAME: usize = 64;

/// A registered user (or the guest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// The unique name, as in rules, tokens and authorship.
    pub name: String,
    /// A human name for listings, if one was given.
    pub display_name: Option<String>,
    /// When the user was created (the guest: the Unix epoch).
    pub created: OffsetDateTime,
}

impl User {
    /// The built-in guest user.
    pub fn guest() -> Self {
        User {
            name: GUEST_USER.to_owned(),
            display_name: Some("Guest".to_owned()),
            created: OffsetDateTime::UNIX_EPOCH,
        }
    }

    /// Whether this is the guest.
    pub fn is_guest(&self) -> bool {
        self.name == GUEST_USER
    }
}

/// A group and its direct members (nested groups are listed as groups, not expanded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The unique group name.
    pub name: String,
    /// Users directly in the group.
    pub users: Vec<String>,
    /// Groups directly in the group (their members belong to this group too).
    pub groups: Vec<String>,
}

/// Checks a user or group name: 1 to 64 characters, ASCII letters, digits, `_`, `-`, `.` and `@`,
/// starting with a letter or digit.
///
/// Names appear in audit lines, rules and command output, so they are kept to characters that
/// cannot forge a line, hide text or be confused with another name.
pub fn validate_principal_name(what: &'static str, name: &str) -> Result<(), StoreError> {
    let refuse = |reason: &str| {
        StoreError::Invalid(InvalidInput::Name {
            what,
            reason: reason.to_owned(),
        })
    };
    if name.is_empty() || name.len() > MAX_PRINCIPAL_NAME {
        return Err(refuse("must have 1 to 64 characters"));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(refuse("must start with a letter or a digit"));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '@'))
    {
        return Err(refuse(
            "may only contain ASCII letters, digits, '_', '-', '.' and '@'",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_names_are_checked() {
        for good in ["alice", "Bob_2", "a.b-c@d", "9"] {
            assert!(validate_principal_name("user name", good).is_ok(), "{good}");
        }
        let long = "a".repeat(MAX_PRINCIPAL_NAME + 1);
        for bad in ["", "-x", ".x", "a b", "a\nb", "é", "a/b", long.as_str()] {
            assert!(
                validate_principal_name("user name", bad).is_err(),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn the_guest_is_recognised() {
        assert!(User::guest().is_guest());
    }
}
