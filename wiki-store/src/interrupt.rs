//! Stopping a store call that is already running, from another thread: what a cancelled or
//! timed-out request needs, since the store is synchronous and its caller cannot unwind it.
//!
//! The caller opens a [`Scope`] on the thread that runs the store call ([`Interrupter::enter`])
//! and keeps the [`Interrupter`] (cheap to clone) where the stop signal arrives. While the scope
//! is open, every connection a backend checks out registers how to interrupt the statement
//! running on it (SQLite's `sqlite3_interrupt`, PostgreSQL's cancel request) and withdraws it
//! before the connection goes back to its pool, so a late interrupt never reaches another
//! caller's statement. [`Interrupter::interrupt`] fires every registered handle; the statement
//! fails, the backend reports [`StoreError::Interrupted`], and a write transaction rolls back.
//!
//! The scope is a thread-local, so no store trait method grows a parameter: a backend finds it
//! where it checks out a connection. Without a scope (admin commands, the change feed's own
//! thread) registration costs one thread-local read.
//!
//! An interrupt reaches the statement running at that moment. One fired between two statements
//! of a unit of work is caught when the next connection is checked out, before a write commits
//! (`check`), and by the next statement itself: PostgreSQL's checks the scope per statement,
//! and SQLite's pooled connections carry a progress handler that reads `fired` every thousand
//! VM instructions (a statement shorter than that still runs to its end).

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::Mutex;

use crate::{Result, StoreError};

thread_local! {
    /// The interrupter of the scope open on this thread, if any.
    static CURRENT: RefCell<Option<Interrupter>> = const { RefCell::new(None) };
}

/// How to interrupt the statement running on one checked-out connection.
type Handle = Box<dyn Fn() + Send + Sync>;

/// The stop switch of one unit of store work: [`enter`](Interrupter::enter) it on the thread
/// that runs the work, [`interrupt`](Interrupter::interrupt) it from anywhere.
#[derive(Clone, Default)]
pub struct Interrupter {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    fired: AtomicBool,
    handles: Mutex<Handles>,
}

#[derive(Default)]
struct Handles {
    next_id: u64,
    live: Vec<(u64, Handle)>,
}

impl std::fmt::Debug for Interrupter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interrupter")
            .field("interrupted", &self.is_interrupted())
            .finish_non_exhaustive()
    }
}

impl Interrupter {
    /// A switch that has not fired.
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens this switch's scope on the current thread until the returned guard is dropped:
    /// store calls made meanwhile on this thread can be interrupted.
    pub fn enter(&self) -> Scope {
        let previous = CURRENT.with(|current| current.replace(Some(self.clone())));
        Scope {
            previous,
            _on_this_thread: PhantomData,
        }
    }

    /// Interrupts the statements running under this switch's scope now, and makes every later
    /// store call in it fail with [`StoreError::Interrupted`]. Blocking: a PostgreSQL cancel
    /// opens a connection to the server, so call it off async workers. Idempotent.
    pub fn interrupt(&self) {
        self.shared.fired.store(true, Ordering::SeqCst);
        let handles = self.shared.handles.lock();
        for (_, handle) in &handles.live {
            handle();
        }
    }

    /// Whether [`Interrupter::interrupt`] was called.
    pub fn is_interrupted(&self) -> bool {
        self.shared.fired.load(Ordering::SeqCst)
    }
}

/// An open scope of an [`Interrupter`] on one thread; closing it restores the scope that was
/// open before (scopes nest).
#[must_use = "the scope closes when this guard is dropped"]
pub struct Scope {
    previous: Option<Interrupter>,
    /// A thread-local's guard must be dropped on the thread that made it.
    _on_this_thread: PhantomData<*const ()>,
}

impl Drop for Scope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|current| current.replace(previous));
    }
}

/// A connection's handle, registered with the scope open on this thread; withdrawn when
/// dropped. Drop it BEFORE the connection goes back to its pool.
pub(crate) struct Registration {
    shared: Arc<Shared>,
    id: u64,
}

impl Drop for Registration {
    fn drop(&mut self) {
        // Taking the lock also waits for an interrupt in progress, so none outlives this.
        self.shared
            .handles
            .lock()
            .live
            .retain(|(id, _)| *id != self.id);
    }
}

/// Registers the handle `make` builds (called only when a scope is open) for the connection a
/// backend just checked out. `Ok(None)` without a scope; [`StoreError::Interrupted`] when the
/// scope already fired, so no statement starts.
pub(crate) fn register<H>(make: impl FnOnce() -> H) -> Result<Option<Registration>>
where
    H: Fn() + Send + Sync + 'static,
{
    let Some(shared) = CURRENT.with(|current| {
        current
            .borrow()
            .as_ref()
            .map(|interrupter| Arc::clone(&interrupter.shared))
    }) else {
        return Ok(None);
    };
    if shared.fired.load(Ordering::SeqCst) {
        return Err(StoreError::Interrupted);
    }
    let handle: Handle = Box::new(make());
    let mut handles = shared.handles.lock();
    // Checked again under the lock: an interrupt either sees this handle or is seen here.
    if shared.fired.load(Ordering::SeqCst) {
        return Err(StoreError::Interrupted);
    }
    handles.next_id += 1;
    let id = handles.next_id;
    handles.live.push((id, handle));
    drop(handles);
    Ok(Some(Registration { shared, id }))
}

/// Whether the scope open on this thread has fired: a backend tells an interrupted statement
/// from one its server cancelled for another reason (a statement timeout) by it, and SQLite's
/// progress handler stops a running statement on it.
pub(crate) fn fired() -> bool {
    CURRENT.with(|current| {
        current
            .borrow()
            .as_ref()
            .is_some_and(Interrupter::is_interrupted)
    })
}

/// [`StoreError::Interrupted`] when the scope open on this thread has fired: a write checks it
/// right before committing, so an interrupt that came between statements still rolls it back.
pub(crate) fn check() -> Result<()> {
    if fired() {
        Err(StoreError::Interrupted)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A handle that counts its calls in `counter`.
    fn counting(counter: Arc<AtomicUsize>) -> impl Fn() + Send + Sync + 'static {
        move || {
            counter.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn handles_fire_only_while_registered_and_only_in_their_scope() {
        let interrupter = Interrupter::new();
        let calls = Arc::new(AtomicUsize::new(0));
        assert!(
            register(|| || ()).is_ok_and(|r| r.is_none()),
            "no scope, nothing registered"
        );
        let scope = interrupter.enter();
        let counter = Arc::clone(&calls);
        let registration = register(move || counting(counter));
        let registration = registration.ok().flatten();
        assert!(registration.is_some());
        drop(registration);
        interrupter.interrupt();
        assert_eq!(
            calls.load(Ordering::SeqCst),
            0,
            "a withdrawn handle is not called"
        );
        assert!(fired() && check().is_err());
        assert!(matches!(register(|| || ()), Err(StoreError::Interrupted)));
        drop(scope);
        assert!(!fired(), "the scope closed");
    }

    #[test]
    fn a_registered_handle_is_called_once_per_interrupt() {
        let interrupter = Interrupter::new();
        let calls = Arc::new(AtomicUsize::new(0));
        let _scope = interrupter.enter();
        let counter = Arc::clone(&calls);
        let _registration = register(move || counting(counter));
        std::thread::scope(|threads| {
            threads.spawn(|| interrupter.interrupt());
        });
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
