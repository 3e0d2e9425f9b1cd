//! The signing key of links, and the signature itself.

use std::fs;
use std::io::{self, Write as _};
use std::path::Path;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use wiki_store::{SecretStore, StoreError};

/// How long a link stays valid after a tool printed it: long enough to open it from an agent's
/// answer, short enough that a leaked link soon stops working.
pub const LINK_TTL: Duration = Duration::from_secs(60 * 60);

/// The farm secret a shared-database farm keeps its link key under ([`LinkKey::from_farm`]).
pub const LINK_KEY_SECRET: &str = "link-signing-key";

/// Bytes of key material (the HMAC-SHA256 block is larger; 32 bytes is its full strength).
const KEY_BYTES: usize = 32;

/// A farm's link-signing key. Cheap to share behind an `Arc`; its `Debug` never shows the bytes.
#[derive(Clone)]
pub struct LinkKey {
    bytes: [u8; KEY_BYTES],
}

impl std::fmt::Debug for LinkKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LinkKey(..)")
    }
}

impl LinkKey {
    /// A fresh random key (the OS generator): links signed with it die with the process.
    pub fn random() -> Self {
        let mut bytes = [0u8; KEY_BYTES];
        rand::fill(&mut bytes);
        Self { bytes }
    }

    /// The key stored at `path`, created there (owner read/write only) on first use, so links
    /// survive a restart and every process of one farm signs alike. A file of the wrong length
    /// is an error, never silently replaced (that would be a key rotation nobody asked for).
    pub fn load_or_create(path: &Path) -> io::Result<Self> {
        match fs::read(path) {
            Ok(bytes) => {
                let bytes: [u8; KEY_BYTES] = bytes.try_into().map_err(|_| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("{} is not a {KEY_BYTES}-byte link key", path.display()),
                    )
                })?;
                Ok(Self { bytes })
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                let key = Self::random();
                let mut options = fs::OpenOptions::new();
                options.write(true).create_new(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
                match options.open(path) {
                    Ok(mut file) => {
                        file.write_all(&key.bytes)?;
                        file.sync_all()?;
                        Ok(key)
                    }
                    // Another process created it first: use theirs.
                    Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                        Self::load_or_create(path)
                    }
                    Err(error) => Err(error),
                }
            }
            Err(error) => Err(error),
        }
    }

    /// The farm's key kept in the store under [`LINK_KEY_SECRET`], created there (from fresh
    /// random bytes) by whichever process asks first: every replica of a farm on a shared
    /// database signs and verifies alike, and no replica needs a shared disk. A stored value of
    /// the wrong length is an error, never replaced.
    pub fn from_farm(store: &dyn SecretStore) -> Result<Self, StoreError> {
        let proposed = Self::random();
        let stored = store.farm_secret(LINK_KEY_SECRET, &proposed.bytes)?;
        let bytes: [u8; KEY_BYTES] = stored.try_into().map_err(|_| {
            StoreError::backend(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the farm secret `{LINK_KEY_SECRET}` is not a {KEY_BYTES}-byte link key"),
            ))
        })?;
        Ok(Self { bytes })
    }

    /// The signature of `message`, URL-safe base64 without padding.
    pub(crate) fn sign(&self, message: &[u8]) -> String {
        URL_SAFE_NO_PAD.encode(self.mac(message).finalize().into_bytes())
    }

    /// Whether `signature` is this key's signature of `message` (compared in constant time).
    pub(crate) fn verify(&self, message: &[u8], signature: &str) -> bool {
        let Ok(signature) = URL_SAFE_NO_PAD.decode(signature) else {
            return false;
        };
        self.mac(message).verify_slice(&signature).is_ok()
    }

    /// A 32-byte key for another `purpose`, derived from this one (HMAC-SHA256 of the purpose):
    /// what else a farm signs (confirmation states) shares the link key's storage and
    /// rotation, and no derived key reveals this one or another.
    // The server's (its confirmation states), not a tool author's: hidden from the SDK's
    // documentation.
    #[doc(hidden)]
    pub fn derive(&self, purpose: &[u8]) -> [u8; KEY_BYTES] {
        self.mac(purpose).finalize().into_bytes().into()
    }

    fn mac(&self, message: &[u8]) -> Hmac<Sha256> {
        // HMAC takes keys of any length: this cannot fail for 32 bytes.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.bytes)
            .unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
        mac.update(message);
        mac
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_only_for_its_message_and_key() {
        let key = LinkKey::random();
        let signature = key.sign(b"view main:Sandbox.WebHome");
        assert!(key.verify(b"view main:Sandbox.WebHome", &signature));
        assert!(!key.verify(b"view main:Secret.Plans", &signature));
        assert!(!LinkKey::random().verify(b"view main:Sandbox.WebHome", &signature));
        assert!(!key.verify(b"view main:Sandbox.WebHome", "not base64 !"));
        assert!(!key.verify(b"view main:Sandbox.WebHome", ""));
    }

    #[test]
    fn the_stored_key_is_reused_and_private() -> io::Result<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("link.key");
        let first = LinkKey::load_or_create(&path)?;
        let again = LinkKey::load_or_create(&path)?;
        assert_eq!(first.bytes, again.bytes);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            assert_eq!(fs::metadata(&path)?.permissions().mode() & 0o777, 0o600);
        }
        fs::write(&path, b"short")?;
        assert!(LinkKey::load_or_create(&path).is_err());
        assert_eq!(format!("{first:?}"), "LinkKey(..)");
        Ok(())
    }
}
