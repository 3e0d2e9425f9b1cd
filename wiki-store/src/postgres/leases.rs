//! The PostgreSQL implementation of [`crate::LeaseStore`]: each call is one statement. An
//! `INSERT ... ON CONFLICT DO UPDATE ... WHERE` locks the lease row (or inserts it) and decides
//! on its committed state, so of replicas asking at once exactly one takes a free lease. The
//! clock is the database's (`clock_timestamp()`): replicas on several hosts need not agree on
//! the time.

use std::time::Duration;

use crate::Result;
use crate::api::LeaseStore;
use crate::plan::lease::{validate_ids, validate_request};
use crate::postgres::PostgresStore;

/// Takes a free or expired lease, or renews one's own; returns a row only when it did.
const TAKE: &str = "WITH now AS (\
       SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms) \
     INSERT INTO leases AS l (name, holder, expires_ms) \
       SELECT $1, $2, now.ms + $3 FROM now \
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms \
     WHERE l.holder = excluded.holder \
       OR l.expires_ms <= (extract(epoch FROM clock_timestamp()) * 1000)::bigint \
     RETURNING l.holder";

impl LeaseStore for PostgresStore {
    fn try_lease(&self, name: &str, holder: &str, ttl: Duration) -> Result<bool> {
        let ttl_ms = validate_request(name, holder, ttl)?;
        self.write(|tx| {
            tx.nothing_changed();
            Ok(tx.query_opt(TAKE, &[&name, &holder, &ttl_ms])?.is_some())
        })
    }

    fn release_lease(&self, name: &str, holder: &str) -> Result<bool> {
        validate_ids(name, holder)?;
        self.write(|tx| {
            tx.nothing_changed();
            let released = tx.execute(
                "DELETE FROM leases WHERE name = $1 AND holder = $2",
                &[&name, &holder],
            )?;
            Ok(released > 0)
        })
    }
}
