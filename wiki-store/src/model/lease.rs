//! Leases: named, farm-wide claims on a piece of background work, so that of the processes
//! serving one farm exactly one does it (the semantic indexer) and another takes over when the
//! holder dies.
//!
//! A lease is held by an opaque holder id (a random id per process) until it expires; the
//! holder renews it before then. Times are the database's clock on PostgreSQL (its replicas
//! may run on hosts whose clocks disagree) and the host's on SQLite (whose processes share
//! one host).

use std::time::Duration;

/// The longest a lease may be taken for: a holder renews well before, and a dead holder's
/// work waits at most this long for a successor.
pub const MAX_LEASE_TTL: Duration = Duration::from_secs(3600);

/// The longest lease name and holder id, in bytes.
pub const MAX_LEASE_ID: usize = 128;
