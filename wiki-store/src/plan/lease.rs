//! The rules of a lease request, checked before any statement.

use std::time::Duration;

use crate::model::lease::{MAX_LEASE_ID, MAX_LEASE_TTL};
use crate::{InvalidInput, Result};

/// Checks a lease name and holder.
pub(crate) fn validate_ids(name: &str, holder: &str) -> Result<()> {
    let fits = |id: &str| !id.is_empty() && id.len() <= MAX_LEASE_ID && !id.contains('\0');
    if !fits(name) {
        return Err(invalid("a lease name is 1 to 128 bytes, without NUL"));
    }
    if !fits(holder) {
        return Err(invalid("a lease holder is 1 to 128 bytes, without NUL"));
    }
    Ok(())
}

/// Checks a lease request; returns its time to live in milliseconds.
pub(crate) fn validate_request(name: &str, holder: &str, ttl: Duration) -> Result<i64> {
    validate_ids(name, holder)?;
    if ttl < Duration::from_millis(1) || ttl > MAX_LEASE_TTL {
        return Err(invalid("a lease lasts 1 ms to one hour"));
    }
    // At most an hour: fits.
    Ok(i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX))
}

fn invalid(reason: &'static str) -> crate::StoreError {
    InvalidInput::Lease { reason }.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_lifetimes_are_bounded() {
        assert!(validate_request("semantic-indexer", "p1", Duration::from_secs(15)).is_ok());
        assert!(validate_request("", "p1", Duration::from_secs(1)).is_err());
        assert!(validate_request("n", "", Duration::from_secs(1)).is_err());
        assert!(validate_request(&"n".repeat(129), "p", Duration::from_secs(1)).is_err());
        assert!(validate_request("n", "a\0b", Duration::from_secs(1)).is_err());
        assert!(validate_request("n", "p", Duration::ZERO).is_err());
        assert!(validate_request("n", "p", MAX_LEASE_TTL + Duration::from_millis(1)).is_err());
        assert_eq!(
            validate_request("n", "p", Duration::from_millis(1500)).ok(),
            Some(1500)
        );
    }
}
