//! What went wrong with an account change, worded once for the command line and the admin page:
//! a refusal names the fix; a store failure is kept whole for the log (the page never shows it).

use std::fmt;

use mcp_runtime::reason::ErrorKind;
use wiki_store::{Entity, InvalidInput, StoreError};

/// Why an account change was not made. Either way nothing was written.
#[derive(Debug)]
pub enum ChangeError {
    /// Refused: bad input, a missing or existing account, or a lockout.
    Refused {
        /// Its category, as the audit record's `reason` column shows it.
        reason: ErrorKind,
        /// What is wrong and how to fix it.
        text: String,
    },
    /// The store failed: the database could not be reached or answered an error.
    Store(StoreError),
}

impl ChangeError {
    /// A refusal of `reason` saying `text`.
    pub(crate) fn refused(reason: ErrorKind, text: impl Into<String>) -> Self {
        ChangeError::Refused {
            reason,
            text: text.into(),
        }
    }

    /// The audit record's category.
    pub fn reason(&self) -> ErrorKind {
        match self {
            ChangeError::Refused { reason, .. } => *reason,
            ChangeError::Store(_) => ErrorKind::Unavailable,
        }
    }

    /// A store error the store raises for input (an unknown or taken name, a name breaking its
    /// grammar, a rule or membership that is not there) as a refusal naming the fix; any
    /// other stays a store failure.
    pub(crate) fn explained(self) -> Self {
        let ChangeError::Store(error) = self else {
            return self;
        };
        let text = match &error {
            StoreError::NotFound { entity, key } => match entity {
                Entity::User => format!("there is no user `{key}`: create it first"),
                Entity::Group => format!("there is no group `{key}`: create it first"),
                Entity::Wiki => format!("there is no wiki `{key}`: name one of the farm's wikis"),
                Entity::Membership => format!("{key} is not a member: nothing to remove"),
                Entity::Right => {
                    format!("no rule for {key} is stored: nothing to remove (list the rules to see them)")
                }
                _ => return ChangeError::Store(error),
            },
            StoreError::AlreadyExists { entity, key } => {
                return ChangeError::refused(
                    ErrorKind::Conflict,
                    format!("the {entity} `{key}` exists already: choose another name"),
                );
            }
            StoreError::Invalid(InvalidInput::GuestIsBuiltIn) => {
                "the guest is built in: it cannot be created or deleted (it is whoever sends no credentials)"
                    .to_owned()
            }
            StoreError::Invalid(invalid) => {
                return ChangeError::refused(ErrorKind::BadArgument, invalid.to_string());
            }
            _ => return ChangeError::Store(error),
        };
        let reason = match &error {
            StoreError::NotFound { .. } => ErrorKind::NotFound,
            _ => ErrorKind::BadArgument,
        };
        ChangeError::refused(reason, text)
    }
}

impl fmt::Display for ChangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangeError::Refused { text, .. } => f.write_str(text),
            ChangeError::Store(error) => write!(f, "the wiki store failed: {error}"),
        }
    }
}

impl std::error::Error for ChangeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ChangeError::Refused { .. } => None,
            ChangeError::Store(error) => Some(error),
        }
    }
}
