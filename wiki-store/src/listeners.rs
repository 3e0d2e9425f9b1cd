//! In-process change listeners, for every backend: the events of a committed write transaction,
//! stamped with the change sequence it advanced to, reach this process's subscribers after the
//! commit (a rolled-back transaction publishes nothing).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::api::{ChangeListener, Subscription};
use crate::model::change::{ChangeEvent, ChangeKind};
use crate::model::wiki::WikiId;

/// The registered listeners.
#[derive(Default)]
pub(crate) struct Listeners {
    next_id: AtomicU64,
    list: Mutex<Vec<(u64, ChangeListener)>>,
}

impl Listeners {
    pub(crate) fn subscribe(self: &Arc<Self>, listener: ChangeListener) -> Subscription {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.list.lock().push((id, listener));
        let weak = Arc::downgrade(self);
        Subscription::new(move || {
            if let Some(listeners) = weak.upgrade() {
                listeners.list.lock().retain(|(other, _)| *other != id);
            }
        })
    }

    /// Calls every listener with every event, outside the registry lock (a listener may
    /// subscribe or unsubscribe).
    fn publish(&self, events: &[ChangeEvent]) {
        if events.is_empty() {
            return;
        }
        let snapshot: Vec<ChangeListener> = self
            .list
            .lock()
            .iter()
            .map(|(_, l)| Arc::clone(l))
            .collect();
        for listener in snapshot {
            for event in events {
                listener(event);
            }
        }
    }
}

impl Listeners {
    /// Publishes the events a transaction queued, once it committed at change sequence `seq`.
    pub(crate) fn publish_committed(&self, seq: u64, queued: Vec<(WikiId, ChangeKind)>) {
        let events: Vec<ChangeEvent> = queued
            .into_iter()
            .map(|(wiki, kind)| ChangeEvent { seq, wiki, kind })
            .collect();
        self.publish(&events);
    }
}
