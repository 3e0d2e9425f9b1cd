//! The statements behind [`crate::LeaseStore`]: each call is one statement. An
//! `INSERT ... ON CONFLICT DO UPDATE ... WHERE` locks the lease row (or inserts it) and decides
//! on its committed state, so of replicas asking at once exactly one takes a free lease. The
//! clock is the database's (`clock_timestamp()`): replicas on several hosts need not agree on
//! the time.

use crate::Result;
use crate::flow::leases::LeaseRows;
use crate::postgres::write::WriteTx;

impl LeaseRows for WriteTx<'_> {
    fn take_lease(&mut self, name: &str, holder: &str, ttl_ms: i64) -> Result<bool> {
        let taken = self.query_opt(
            "WITH now AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms) \
             INSERT INTO leases AS l (name, holder, expires_ms) SELECT $1, $2, now.ms + $3 FROM now \
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_ms = excluded.expires_ms \
             WHERE l.holder = excluded.holder \
               OR l.expires_ms <= (extract(epoch FROM clock_timestamp()) * 1000)::bigint \
             RETURNING l.holder",
            &[&name, &holder, &ttl_ms],
        )?;
        Ok(taken.is_some())
    }

    fn release_lease(&mut self, name: &str, holder: &str) -> Result<bool> {
        let released = self.execute(
            "DELETE FROM leases WHERE name = $1 AND holder = $2",
            &[&name, &holder],
        )?;
        Ok(released > 0)
    }
}
