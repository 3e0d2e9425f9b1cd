//! The change feed over any backend: the persistent sequence read through [`ChangeReads`], the
//! commit marker the backend keeps ([`Backend::commit_marker`]), this process's listeners.

use crate::Result;
use crate::api::{ChangeFeed, ChangeListener, Subscription};
use crate::backend::Backend;

/// What the change feed reads.
pub(crate) trait ChangeReads {
    /// The current change sequence value.
    fn change_seq(&mut self) -> Result<u64>;
}

impl<B: Backend> ChangeFeed for B {
    fn change_seq(&self) -> Result<u64> {
        self.read(|rows| rows.change_seq())
    }

    fn commit_marker(&self) -> Result<u64> {
        Backend::commit_marker(self)
    }

    fn subscribe(&self, listener: ChangeListener) -> Subscription {
        self.listeners().subscribe(listener)
    }

    fn pool_stats(&self) -> crate::PoolStats {
        Backend::pool_stats(self)
    }

    fn clock(&self) -> crate::Clock {
        self.config().clock.clone()
    }
}
