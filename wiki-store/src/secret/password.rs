//! Password field values: kept as a salted digest, never returned.
//!
//! A class field of type Password is write-only: the store keeps `sha256$<salt>$<digest>` (both in
//! URL-safe base64) and every read path reports the value as masked. The store offers no way to
//! check a password against it: wiki users authenticate with API tokens, so this is not a login
//! verifier (that would need a slow, memory-hard KDF); it only ensures that what an agent or an
//! editor wrote can never be read back, from the API or from the database file.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::Rng;
use sha2::{Digest, Sha256};

/// The scheme tag at the start of every stored Password value.
pub const PASSWORD_SCHEME: &str = "sha256";

/// The stored form of a Password value: a fresh random salt and the digest of salt + value.
pub fn seal(value: &str) -> String {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let mut hasher = Sha256::new();
    hasher.update(salt);
    hasher.update(value.as_bytes());
    let digest = hasher.finalize();
    format!(
        "{PASSWORD_SCHEME}${}${}",
        URL_SAFE_NO_PAD.encode(salt),
        URL_SAFE_NO_PAD.encode(digest)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_values_hide_the_value_and_differ_per_write() {
        let a = seal("hunter2");
        let b = seal("hunter2");
        assert_ne!(a, b, "each write is salted afresh");
        assert!(!a.contains("hunter2"));
        assert!(a.starts_with("sha256$"));
        assert_eq!(a.split('$').count(), 3);
    }
}
