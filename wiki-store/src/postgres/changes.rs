//! The change sequence and change events: the sequence is read from the database, the commit
//! marker is the feed's in-memory value (see [`crate::postgres::feed`]).

use crate::Result;
use crate::api::{ChangeFeed, ChangeListener, Subscription};
use crate::postgres::PostgresStore;
use crate::postgres::feed::read_seq;

impl ChangeFeed for PostgresStore {
    fn change_seq(&self) -> Result<u64> {
        self.read(read_seq)
    }

    /// The highest change sequence this store has seen committed, kept in memory by its own
    /// commits and the listening thread (notifications, or polls every 250 ms while it cannot
    /// listen): reading it costs no round trip, and a commit by another process moves it
    /// within a second. It moves with the change sequence and the vector sequence (the sum of
    /// the two), so a commit that changed neither (a no-op save, a token use, a lease) leaves
    /// it as it is.
    fn commit_marker(&self) -> Result<u64> {
        Ok(self.feed().marker())
    }

    fn subscribe(&self, listener: ChangeListener) -> Subscription {
        self.listeners().subscribe(listener)
    }
}
