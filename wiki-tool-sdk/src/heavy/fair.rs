//! The slots themselves: a count of free slots, and per [`Share`] a queue of jobs waiting for
//! one. A freed slot goes to the next share in turn that has a job waiting, not to the oldest
//! job: a share with ten jobs waiting and a share with one take turns. No share runs more than
//! half the slots (at least one) at once, even while the others are free: they are kept for
//! the next caller, who then starts at once instead of after one of the busy caller's jobs.
//! Background jobs (the semantic indexer) run one at a time in a slot of their own, beside the
//! calls' slots: a call never waits for one to finish. They start only while no call is short
//! of a slot, and a running one hears when a call becomes so ([`Permit::calls_waiting`]).
//!
//! A slot is granted under the lock, by sending on the waiter's channel; a waiter that gives up
//! (its wait ran out, its call was cancelled) takes its entry out under the same lock, or, when
//! it was granted meanwhile, gives the slot back. So no slot is ever lost to a waiter that left.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::oneshot;

use super::{NotRun, Share};

/// A process's heavy slots.
pub(crate) struct FairSlots {
    state: Mutex<State>,
    count: usize,
    wait: Duration,
    /// Jobs one share may have waiting; past it a call is told at once to wait for its own.
    max_waiting_per_share: usize,
}

struct State {
    free: usize,
    next_id: u64,
    /// Each share's waiting jobs, oldest first.
    waiting: HashMap<Arc<str>, VecDeque<Waiter>>,
    /// The shares with jobs waiting, in turn order.
    turn: VecDeque<Arc<str>>,
    /// Background jobs waiting, oldest first.
    background: VecDeque<Waiter>,
    /// Whether the background slot is taken.
    background_running: bool,
    /// Jobs running per share.
    running: HashMap<Arc<str>, usize>,
}

struct Waiter {
    id: u64,
    granted: oneshot::Sender<()>,
}

/// A job waiting for a slot; dropped before it was granted, it leaves its queue (or gives back
/// the slot granted as it left).
struct Waiting {
    slots: Arc<FairSlots>,
    key: Arc<str>,
    id: u64,
    armed: bool,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if self.armed {
            self.slots.give_up(&self.key, self.id);
        }
    }
}

/// A slot held; dropping it frees the slot for the next in turn.
pub(crate) struct Permit {
    slots: Arc<FairSlots>,
    holder: Holder,
}

/// Whose slot a [`Permit`] is.
enum Holder {
    /// One of the calls' slots, run for this share.
    Call(Arc<str>),
    /// The background slot.
    Background,
}

impl Permit {
    /// Whether a call's job waits because every call slot is taken. A background job asks
    /// between its batches and stops when one does, giving the CPU back to the calls.
    pub(crate) fn calls_waiting(&self) -> bool {
        self.slots.lock().calls_short_of_slots()
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut state = self.slots.lock();
        match &self.holder {
            Holder::Call(share) => state.release(share),
            Holder::Background => state.background_running = false,
        }
        self.slots.dispatch(&mut state);
    }
}

impl FairSlots {
    pub(crate) fn new(count: usize, wait: Duration) -> Arc<FairSlots> {
        Arc::new(FairSlots {
            state: Mutex::new(State {
                free: count,
                next_id: 0,
                waiting: HashMap::new(),
                turn: VecDeque::new(),
                background: VecDeque::new(),
                background_running: false,
                running: HashMap::new(),
            }),
            count,
            wait,
            max_waiting_per_share: count + 4,
        })
    }

    /// The most jobs one share runs at once: half the slots, at least one.
    fn share_cap(&self) -> usize {
        self.count.div_ceil(2).max(1)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for a job of `share`: at once when one is free and no job waits, else in turn,
    /// within the wait.
    pub(crate) async fn acquire(self: &Arc<Self>, share: &Share) -> Result<Permit, NotRun> {
        let key = Arc::clone(share.key());
        let (id, granted) = {
            let mut state = self.lock();
            if state.free > 0 && state.turn.is_empty() && state.running(&key) < self.share_cap() {
                state.take(&key);
                return Ok(self.permit(Holder::Call(key)));
            }
            let waiting = state.waiting.get(&key).map_or(0, VecDeque::len);
            if waiting >= self.max_waiting_per_share {
                return Err(NotRun::Crowded { waiting });
            }
            let (sender, granted) = oneshot::channel();
            let id = state.enqueue(&key, sender);
            // A slot free for another share's waiter is handed out now, not at the next release.
            self.dispatch(&mut state);
            (id, granted)
        };
        // Dropped with this future too (a cancelled call): the entry leaves the queue then.
        let mut waiting = Waiting {
            slots: Arc::clone(self),
            key: Arc::clone(&key),
            id,
            armed: true,
        };
        match tokio::time::timeout(self.wait, granted).await {
            Ok(Ok(())) => {
                waiting.armed = false;
                Ok(self.permit(Holder::Call(key)))
            }
            // The sender is dropped only with the process's slots; not while it serves.
            Ok(Err(_)) => {
                waiting.armed = false;
                Err(NotRun::ShuttingDown)
            }
            Err(_elapsed) => Err(NotRun::Full {
                slots: self.count,
                waited: self.wait,
            }),
        }
    }

    /// Called when a waiter leaves before it was granted (or as it was): out of its queue, or
    /// its slot back.
    fn give_up(self: &Arc<Self>, key: &Arc<str>, id: u64) {
        let mut state = self.lock();
        if !state.remove_waiter(key, id) {
            // Granted meanwhile: the slot was counted for this waiter.
            state.release(key);
            self.dispatch(&mut state);
        }
    }

    /// The background slot, waiting (on this thread) until it is free and no call is short of
    /// a slot, or until `stop` says the job is no longer wanted.
    pub(crate) fn acquire_background(self: &Arc<Self>, stop: &dyn Fn() -> bool) -> Option<Permit> {
        let (id, mut granted) = {
            let mut state = self.lock();
            if state.background_can_start() && state.background.is_empty() {
                state.background_running = true;
                return Some(self.permit(Holder::Background));
            }
            let (sender, granted) = oneshot::channel();
            let id = state.next_id;
            state.next_id += 1;
            state.background.push_back(Waiter {
                id,
                granted: sender,
            });
            self.dispatch(&mut state);
            (id, granted)
        };
        loop {
            match granted.try_recv() {
                Ok(()) => return Some(self.permit(Holder::Background)),
                Err(oneshot::error::TryRecvError::Closed) => return None,
                Err(oneshot::error::TryRecvError::Empty) if stop() => {
                    let mut state = self.lock();
                    let before = state.background.len();
                    state.background.retain(|waiter| waiter.id != id);
                    if state.background.len() == before {
                        // Granted as it stopped: the slot was taken for it.
                        state.background_running = false;
                        self.dispatch(&mut state);
                    }
                    return None;
                }
                Err(oneshot::error::TryRecvError::Empty) => {
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        }
    }

    fn permit(self: &Arc<Self>, holder: Holder) -> Permit {
        Permit {
            slots: Arc::clone(self),
            holder,
        }
    }

    /// Hands free slots to waiters: calls' jobs in turn, then the background slot when no
    /// call is left short of one.
    fn dispatch(&self, state: &mut State) {
        while state.free > 0 {
            let Some((key, waiter)) = state.next_in_turn(self.share_cap()) else {
                break;
            };
            state.take(&key);
            if waiter.granted.send(()).is_err() {
                // Its receiver is gone (a waiter past its own give-up): the slot stays free.
                state.release(&key);
            }
        }
        while state.background_can_start() {
            let Some(waiter) = state.background.pop_front() else {
                return;
            };
            // A waiter whose receiver is gone (stopped) leaves the slot free for the next.
            state.background_running = waiter.granted.send(()).is_ok();
        }
    }
}

impl State {
    /// Whether a call's job waits while every call slot is taken. (Jobs waiting beside a free
    /// slot wait for their own share's turn, which background work does not delay.)
    fn calls_short_of_slots(&self) -> bool {
        self.free == 0 && !self.turn.is_empty()
    }

    /// Whether the background slot may start a job now.
    fn background_can_start(&self) -> bool {
        !self.background_running && !self.calls_short_of_slots()
    }

    fn take(&mut self, key: &Arc<str>) {
        self.free -= 1;
        *self.running.entry(Arc::clone(key)).or_default() += 1;
    }

    fn release(&mut self, key: &Arc<str>) {
        self.free += 1;
        if let Some(running) = self.running.get_mut(key) {
            *running -= 1;
            if *running == 0 {
                self.running.remove(key);
            }
        }
    }

    fn enqueue(&mut self, key: &Arc<str>, granted: oneshot::Sender<()>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let queue = self.waiting.entry(Arc::clone(key)).or_default();
        if queue.is_empty() {
            self.turn.push_back(Arc::clone(key));
        }
        queue.push_back(Waiter { id, granted });
        id
    }

    /// Takes waiter `id` of `key` out of its queue; false when it is not there (granted).
    fn remove_waiter(&mut self, key: &Arc<str>, id: u64) -> bool {
        let Some(queue) = self.waiting.get_mut(key) else {
            return false;
        };
        let before = queue.len();
        queue.retain(|waiter| waiter.id != id);
        let removed = queue.len() < before;
        if queue.is_empty() {
            self.waiting.remove(key);
            self.turn.retain(|turn| turn != key);
        }
        removed
    }

    /// Jobs `key` runs.
    fn running(&self, key: &Arc<str>) -> usize {
        self.running.get(key).copied().unwrap_or(0)
    }

    /// The next share in turn running fewer than `cap` jobs, and its oldest waiter.
    fn next_in_turn(&mut self, cap: usize) -> Option<(Arc<str>, Waiter)> {
        let position = self.turn.iter().position(|key| self.running(key) < cap)?;
        let key = self.turn.remove(position)?;
        let queue = self.waiting.get_mut(&key)?;
        let waiter = queue.pop_front()?;
        if queue.is_empty() {
            self.waiting.remove(&key);
        } else {
            self.turn.push_back(Arc::clone(&key));
        }
        Some((key, waiter))
    }
}
