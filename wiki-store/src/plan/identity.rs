//! The rules of identity links, checked before any statement.

use std::time::Duration;

use crate::error::{Entity, InvalidInput};
use crate::model::identity::{MAX_ISSUER, MAX_SUBJECT};
use crate::{Result, StoreError};

/// The longest an adoption may wait to be claimed.
pub(crate) const MAX_ADOPTION: Duration = Duration::from_secs(366 * 24 * 3600);

/// Checks an identity's issuer and subject.
pub(crate) fn validate_identity(issuer: &str, subject: &str) -> Result<()> {
    validate_issuer(issuer)?;
    if !fits(subject, MAX_SUBJECT) {
        return Err(invalid(
            "a subject is 1 to 1024 bytes, without control characters",
        ));
    }
    Ok(())
}

/// Checks an issuer.
pub(crate) fn validate_issuer(issuer: &str) -> Result<()> {
    if !fits(issuer, MAX_ISSUER) {
        return Err(invalid(
            "an issuer is 1 to 2048 bytes, without control characters",
        ));
    }
    Ok(())
}

/// Checks how long an adoption waits; returns it in milliseconds.
pub(crate) fn validate_lasting(lasting: Duration) -> Result<i64> {
    if lasting < Duration::from_secs(1) || lasting > MAX_ADOPTION {
        return Err(invalid("an adoption lasts one second to a year"));
    }
    Ok(i64::try_from(lasting.as_millis()).unwrap_or(i64::MAX))
}

fn fits(text: &str, max: usize) -> bool {
    !text.is_empty() && text.len() <= max && !text.chars().any(char::is_control)
}

fn invalid(reason: &'static str) -> StoreError {
    InvalidInput::Identity { reason }.into()
}

/// The refusal of linking an identity that signs in another user.
pub(crate) fn linked_elsewhere(issuer: &str, subject: &str) -> StoreError {
    StoreError::AlreadyExists {
        entity: Entity::IdentityLink,
        key: format!("{subject} at {issuer}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issuers_subjects_and_lifetimes_are_bounded() {
        assert!(validate_identity("https://id.example.com", "248289761001").is_ok());
        assert!(validate_identity("", "s").is_err());
        assert!(validate_identity("https://i", "").is_err());
        assert!(validate_identity("https://i", "a\0b").is_err());
        assert!(validate_identity("https://i\n", "s").is_err());
        assert!(validate_identity("https://i", &"s".repeat(MAX_SUBJECT + 1)).is_err());
        assert!(validate_identity(&"i".repeat(MAX_ISSUER + 1), "s").is_err());
        assert!(validate_lasting(Duration::ZERO).is_err());
        assert!(validate_lasting(MAX_ADOPTION + Duration::from_secs(1)).is_err());
        assert_eq!(validate_lasting(Duration::from_secs(2)).ok(), Some(2000));
    }
}
