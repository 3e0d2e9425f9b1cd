//! Farm-wide leases (see [`crate::model::lease`]).

use std::time::Duration;

use crate::Result;

/// Named leases shared by every process of a farm: at most one holder per name at a time.
///
/// Each call is one statement (or transaction) on the database, so two processes asking at
/// once cannot both win. Neither is a change of content: no change event, the change sequence
/// stays where it is.
pub trait LeaseStore {
    /// Takes the lease `name` for `holder` for `ttl` from now when it is free, expired or
    /// already `holder`'s (a renewal); `false`, changing nothing, while another holder's lease
    /// runs. Name and holder are 1 to [`MAX_LEASE_ID`](crate::model::lease::MAX_LEASE_ID)
    /// bytes; `ttl` is 1 ms to [`MAX_LEASE_TTL`](crate::model::lease::MAX_LEASE_TTL)
    /// ([`crate::InvalidInput::Lease`] otherwise).
    fn try_lease(&self, name: &str, holder: &str, ttl: Duration) -> Result<bool>;

    /// Gives the lease up if `holder` holds it (expired or not), so a successor need not wait
    /// for it to expire; whether it was `holder`'s.
    fn release_lease(&self, name: &str, holder: &str) -> Result<bool>;
}
