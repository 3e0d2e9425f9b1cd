//! Farm-wide secrets: values every process serving a farm must share.

use crate::Result;

/// Farm-wide secrets, such as the key that signs the links tools print: every replica serving a
/// farm must sign and verify with the same key, so it lives with the farm's data rather than in
/// one server's files.
///
/// A secret is created once and never changes through this API; reading it is not a change
/// (no change event, the change sequence stays where it is).
pub trait SecretStore {
    /// The secret called `name`: the value stored under it, or else `proposed`, stored now and
    /// returned. Atomic across processes: when several ask at once, exactly one proposal is
    /// stored and every caller gets that one. A caller proposes fresh random bytes, or the value
    /// it used before the farm kept secrets (a key file), so nothing signed with it breaks.
    ///
    /// `name` is 1 to 64 characters of `a-z`, `0-9`, `.`, `_` and `-`, starting with a letter or
    /// digit; `proposed` is 16 to 1024 bytes ([`crate::InvalidInput::FarmSecret`] otherwise).
    fn farm_secret(&self, name: &str, proposed: &[u8]) -> Result<Vec<u8>>;

    /// Deletes the secrets of the family `prefix` created before `created_before_ms`
    /// (milliseconds since the epoch), and says how many went: for records that matter only
    /// for a while, such as the nonce of a redeemed confirmation, useless once the state it
    /// redeemed has expired. No change event, like [`SecretStore::farm_secret`].
    ///
    /// `prefix` is a name's start ending with `.` (`confirm-redeemed.`), so pruning a family
    /// never reaches a secret outside it (the link key among them);
    /// [`crate::InvalidInput::FarmSecret`] otherwise.
    fn prune_farm_secrets(&self, prefix: &str, created_before_ms: i64) -> Result<u64>;
}
