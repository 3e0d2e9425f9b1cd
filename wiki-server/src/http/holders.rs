//! Who holds the open connections, per client network, and which one gives way when the total
//! cap is reached.
//!
//! A client is counted by its [`Network`] (an IPv6 address by its /64), like every per-client
//! bound: a host varying its IPv6 address within its /64 is still one holder.
//!
//! A per-address cap alone does not make the total cap fair: eight addresses at the per-address
//! cap (128 of 1024) fill it, and a ninth address would wait until one of them lets go, which an
//! attacker never does. So when every slot is taken, a newcomer whose address holds fewer
//! connections than the biggest holder's asks one of that holder's connections to close: an idle
//! keep-alive connection if it has one (it closes at once), else its oldest (it finishes its
//! request first, within a grace period). The newcomer then takes the slot that frees. A
//! newcomer whose address already holds as many as anyone is refused: it is the one to wait.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use parking_lot::Mutex;
use tokio_util::sync::CancellationToken;

use crate::http::limits::Network;

/// Open connections per client network, each with the token that asks it to close.
#[derive(Debug)]
pub(crate) struct Holders {
    max_per_address: usize,
    next_id: AtomicU64,
    open: Mutex<HashMap<Network, Vec<Held>>>,
}

/// One open connection as the table sees it.
#[derive(Debug)]
struct Held {
    id: u64,
    /// Cancelled to ask the connection to close (a child of the server's close token).
    evict: CancellationToken,
    /// Requests the connection is serving now (0: idle between keep-alive requests).
    busy: Arc<AtomicUsize>,
}

impl Held {
    fn evicted(&self) -> bool {
        self.evict.is_cancelled()
    }
}

impl Holders {
    pub(crate) fn new(max_per_address: usize) -> Self {
        Holders {
            max_per_address: max_per_address.max(1),
            next_id: AtomicU64::new(0),
            open: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one more connection from `address`, or `None` when it already has the maximum.
    /// Its token is a child of `close`, so closing the server closes it too.
    pub(crate) fn enter(
        holders: &Arc<Self>,
        address: IpAddr,
        close: &CancellationToken,
    ) -> Option<Holding> {
        let network = Network::of(address);
        let mut open = holders.open.lock();
        let held = open.entry(network).or_default();
        if held.len() >= holders.max_per_address {
            return None;
        }
        let id = holders.next_id.fetch_add(1, Ordering::Relaxed);
        let evict = close.child_token();
        let busy = Arc::new(AtomicUsize::new(0));
        held.push(Held {
            id,
            evict: evict.clone(),
            busy: Arc::clone(&busy),
        });
        Some(Holding {
            holders: Arc::clone(holders),
            network,
            id,
            evict,
            busy,
        })
    }

    /// With every slot taken: asks one connection of the biggest holder to close so that
    /// `newcomer` (already counted) may have its slot, and says whether it did. It does only
    /// when that holder has more connections than the newcomer's address (not counting those
    /// already asked to close), so shares even out and never swap back and forth.
    pub(crate) fn make_room_for(&self, newcomer: IpAddr) -> bool {
        let newcomer = Network::of(newcomer);
        let open = self.open.lock();
        let holding = |held: &Vec<Held>| held.iter().filter(|h| !h.evicted()).count();
        let newcomer_holds = open.get(&newcomer).map_or(0, holding);
        let biggest = open
            .iter()
            .filter(|(network, _)| **network != newcomer)
            .map(|(_, held)| (holding(held), held))
            .max_by_key(|(count, _)| *count);
        let Some((count, held)) = biggest else {
            return false;
        };
        if count <= newcomer_holds {
            return false;
        }
        // The oldest idle connection, else the oldest (`min_by_key` keeps the first of equals).
        let chosen = held
            .iter()
            .filter(|h| !h.evicted())
            .min_by_key(|h| h.busy.load(Ordering::Acquire) != 0);
        match chosen {
            Some(chosen) => {
                chosen.evict.cancel();
                true
            }
            None => false,
        }
    }

    fn leave(&self, network: Network, id: u64) {
        let mut open = self.open.lock();
        if let Some(held) = open.get_mut(&network) {
            held.retain(|h| h.id != id);
            if held.is_empty() {
                open.remove(&network);
            }
        }
    }
}

/// One counted connection; it leaves the table when dropped.
#[derive(Debug)]
pub(crate) struct Holding {
    holders: Arc<Holders>,
    network: Network,
    id: u64,
    evict: CancellationToken,
    busy: Arc<AtomicUsize>,
}

impl Holding {
    /// Cancelled when the connection is asked to close (eviction or server shutdown).
    pub(crate) fn closing(&self) -> &CancellationToken {
        &self.evict
    }

    /// Marks one request in progress until the returned guard is dropped.
    pub(crate) fn busy(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.busy)
    }
}

impl Drop for Holding {
    fn drop(&mut self) {
        self.holders.leave(self.network, self.id);
    }
}

/// One request in progress on a connection, from its head until its response body is done.
#[derive(Debug)]
pub(crate) struct InProgress(Arc<AtomicUsize>);

impl InProgress {
    pub(crate) fn start(busy: &Arc<AtomicUsize>) -> Self {
        busy.fetch_add(1, Ordering::AcqRel);
        InProgress(Arc::clone(busy))
    }
}

impl Drop for InProgress {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(last: u8) -> IpAddr {
        [10, 0, 0, last].into()
    }

    #[test]
    fn an_address_gets_its_slots_back_when_connections_close() {
        let close = CancellationToken::new();
        let holders = Arc::new(Holders::new(2));
        let first = Holders::enter(&holders, address(1), &close);
        let second = Holders::enter(&holders, address(1), &close);
        assert!(first.is_some() && second.is_some());
        assert!(Holders::enter(&holders, address(1), &close).is_none());
        assert!(Holders::enter(&holders, address(2), &close).is_some());
        drop(first);
        assert!(Holders::enter(&holders, address(1), &close).is_some());
        drop(second);
        assert!(holders.open.lock().get(&Network::of(address(1))).is_none());
    }

    #[test]
    fn addresses_of_one_ipv6_64_share_its_slots() {
        let close = CancellationToken::new();
        let holders = Arc::new(Holders::new(2));
        let host = |last: u16| IpAddr::from([0x2001, 0xdb8, 1, 2, 0, 0, 0, last]);
        let first = Holders::enter(&holders, host(1), &close);
        let second = Holders::enter(&holders, host(2), &close);
        assert!(first.is_some() && second.is_some());
        assert!(
            Holders::enter(&holders, host(3), &close).is_none(),
            "a third address of the same /64 is over its cap"
        );
        let neighbour = IpAddr::from([0x2001, 0xdb8, 1, 3, 0, 0, 0, 1]);
        assert!(Holders::enter(&holders, neighbour, &close).is_some());
    }

    #[test]
    fn the_biggest_holder_gives_up_an_idle_connection_first() {
        let close = CancellationToken::new();
        let holders = Arc::new(Holders::new(8));
        let big: Vec<Holding> = (0..3)
            .filter_map(|_| Holders::enter(&holders, address(1), &close))
            .collect();
        let busy = InProgress::start(&big[0].busy());
        let _small = Holders::enter(&holders, address(2), &close);
        let _newcomer = Holders::enter(&holders, address(3), &close);
        assert!(holders.make_room_for(address(3)));
        assert!(!big[0].closing().is_cancelled(), "a busy one is kept");
        assert!(big[1].closing().is_cancelled(), "the first idle one goes");
        drop(busy);
        // Now the biggest holds 2 against the newcomer's 1: one more goes, then shares are even.
        assert!(holders.make_room_for(address(3)));
        assert!(!holders.make_room_for(address(3)));
    }

    #[test]
    fn a_newcomer_holding_as_many_as_anyone_takes_nothing() {
        let close = CancellationToken::new();
        let holders = Arc::new(Holders::new(8));
        let _one = Holders::enter(&holders, address(1), &close);
        let _two = Holders::enter(&holders, address(2), &close);
        assert!(!holders.make_room_for(address(2)));
        let holders_alone = Arc::new(Holders::new(8));
        let _only = Holders::enter(&holders_alone, address(1), &close);
        assert!(!holders_alone.make_room_for(address(1)));
    }
}
