//! Farm secrets: what a secret may be called and hold.
//!
//! A backend gets or creates a secret by checking the request ([`validate_secret`], before any
//! transaction), then inserting the proposal unless the name is taken and reading back what is
//! stored, in one transaction that changes nothing a server caches (the change sequence stays).

use crate::Result;
use crate::error::InvalidInput;

/// The longest secret name, in characters.
const MAX_NAME: usize = 64;

/// The shortest secret a farm keeps, in bytes: anything shorter is guessable.
pub(crate) const MIN_SECRET_BYTES: usize = 16;

/// The longest secret a farm keeps, in bytes.
pub(crate) const MAX_SECRET_BYTES: usize = 1024;

/// Checks a secret's name and proposed value before any transaction.
pub(crate) fn validate_secret(name: &str, proposed: &[u8]) -> Result<()> {
    let valid_name = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && name.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-')
        });
    if !valid_name {
        return Err(InvalidInput::FarmSecret {
            reason: "a name is 1 to 64 characters of a-z, 0-9, '.', '_' and '-', starting with a letter or digit",
        }
        .into());
    }
    if !(MIN_SECRET_BYTES..=MAX_SECRET_BYTES).contains(&proposed.len()) {
        return Err(InvalidInput::FarmSecret {
            reason: "a secret is 16 to 1024 bytes",
        }
        .into());
    }
    Ok(())
}

/// The names of the family `prefix` are those in `prefix..end` (byte order, which both backends
/// compare in): checks the prefix and returns `end`, `prefix` with its final `.` replaced by the
/// next byte, `/`.
pub(crate) fn family_range(prefix: &str) -> Result<String> {
    let Some(stem) = prefix.strip_suffix('.') else {
        return Err(InvalidInput::FarmSecret {
            reason: "a family prefix ends with '.'",
        }
        .into());
    };
    validate_secret(prefix, &[0; MIN_SECRET_BYTES])?;
    Ok(format!("{stem}/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_lowercase_words_and_secrets_are_not_guessable() {
        let key = [7u8; 32];
        assert!(validate_secret("link-signing", &key).is_ok());
        assert!(validate_secret("a.b_c-9", &key).is_ok());
        for bad in ["", "-x", "Link", "a b", "é", &"x".repeat(65)] {
            assert!(validate_secret(bad, &key).is_err(), "{bad:?}");
        }
        assert!(validate_secret("k", &[0; 15]).is_err());
        assert!(validate_secret("k", &[0; 16]).is_ok());
        assert!(validate_secret("k", &[0; 1025]).is_err());
    }
}
