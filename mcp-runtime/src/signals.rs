//! What a request tells a running tool besides its arguments: whether to stop
//! ([`CancellationToken`]: `notifications/cancelled`, the client going away, the call timeout)
//! and where its progress goes ([`ProgressSink`], when the request carried a `progressToken`).
//!
//! The transport puts both on the [`ToolCall`](crate::call::ToolCall); the call path hands them
//! to the tool through its [`ToolContext`](crate::ToolContext) (`ctx.cancellation()`,
//! `ctx.progress(..)`). Reporting progress is free when no token was sent, and throttled when
//! one was: at most one notification per [`PROGRESS_INTERVAL`], except the first and the last
//! (`done == total`), which are always sent, so even a fast scan says once how far it got.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};

use crate::declaration::BoxFuture;

pub use tokio_util::sync::CancellationToken;

/// The least time between two progress notifications of one call (at most ~10 per second).
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// The longest a call's answer waits for its queued progress notifications to be sent.
const FLUSH_LIMIT: Duration = Duration::from_secs(1);

/// One progress report, as `notifications/progress` carries it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressUpdate {
    /// How much is done; it grows with every report.
    pub progress: f64,
    /// How much there is in all, when known.
    pub total: Option<f64>,
    /// What is happening, in a person's words.
    pub message: Option<String>,
}

/// Where a call's progress goes: the transport's side (a notification to the peer that sent
/// the request, on that request's stream). Called at most once per [`PROGRESS_INTERVAL`]
/// (plus the first and the last): keep it cheap and never block.
pub trait ProgressSink: Send + Sync + 'static {
    /// Sends one report.
    fn send(&self, update: ProgressUpdate);

    /// Resolves once every report sent so far has reached the transport. The call path awaits
    /// it before answering: a transport that closes the request's stream with the answer (the
    /// stateless HTTP reply) would otherwise drop the reports still queued. Sinks that write
    /// synchronously need not override it.
    fn flushed(&self) -> BoxFuture<'static, ()> {
        Box::pin(std::future::ready(()))
    }
}

/// An rmcp peer and the request's progress token: `notifications/progress` to that peer, sent
/// by one task per call, in order (a task per report could overtake one another, and a client
/// would see progress go down), so the tool never waits for the transport.
pub struct PeerProgress {
    token: ProgressToken,
    queue: tokio::sync::mpsc::UnboundedSender<PeerMessage>,
}

/// What the sending task of a [`PeerProgress`] receives, in order.
enum PeerMessage {
    /// A notification to send.
    Report(ProgressNotificationParam),
    /// Everything before this was sent: say so.
    Flushed(tokio::sync::oneshot::Sender<()>),
}

impl PeerProgress {
    /// Progress for the request of `token`, to `peer`; its sending task ends once the call's
    /// reporter is dropped. Call it on the runtime.
    pub fn new(peer: Peer<RoleServer>, token: ProgressToken) -> Self {
        let (queue, mut messages) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(message) = messages.recv().await {
                match message {
                    PeerMessage::Report(param) => {
                        if let Err(error) = peer.notify_progress(param).await {
                            tracing::debug!(%error, "a progress notification could not be sent");
                        }
                    }
                    // The caller may have stopped waiting: nothing to tell then.
                    PeerMessage::Flushed(done) => drop(done.send(())),
                }
            }
        });
        Self { token, queue }
    }
}

impl ProgressSink for PeerProgress {
    fn send(&self, update: ProgressUpdate) {
        let mut param = ProgressNotificationParam::new(self.token.clone(), update.progress);
        param.total = update.total;
        param.message = update.message;
        // Closed only once the peer's task ended: nothing left to report to.
        let _ = self.queue.send(PeerMessage::Report(param));
    }

    fn flushed(&self) -> BoxFuture<'static, ()> {
        let (done, sent) = tokio::sync::oneshot::channel();
        let queued = self.queue.send(PeerMessage::Flushed(done)).is_ok();
        Box::pin(async move {
            if queued {
                // An error means the task ended: nothing is left to send either way. Bounded,
                // so a client that stops reading cannot hold the answer past the call's budget.
                let _ = tokio::time::timeout(FLUSH_LIMIT, sent).await;
            }
        })
    }
}

/// A call's throttled progress reporter: what `ctx.progress(..)` uses, and what a tool hands
/// to the blocking work it starts (`ctx.progress_reporter()`: `'static`, cheap to clone).
/// Without a `progressToken` in the request it holds nothing and reports cost a branch.
#[derive(Clone, Default)]
pub struct ProgressReporter {
    inner: Option<Progress>,
}

#[derive(Clone)]
struct Progress {
    sink: Arc<dyn ProgressSink>,
    last: Arc<Mutex<Option<Instant>>>,
}

impl fmt::Debug for ProgressReporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProgressReporter")
            .field("active", &self.inner.is_some())
            .finish()
    }
}

impl ProgressReporter {
    /// A reporter to `sink`, or one that reports nowhere.
    pub(crate) fn new(sink: Option<Arc<dyn ProgressSink>>) -> Self {
        Self {
            inner: sink.map(|sink| Progress {
                sink,
                last: Arc::new(Mutex::new(None)),
            }),
        }
    }

    /// Whether reports go anywhere (the request carried a progress token).
    pub fn is_active(&self) -> bool {
        self.inner.is_some()
    }

    /// Reports `done` of `total` (when known): sent unless one was sent less than
    /// [`PROGRESS_INTERVAL`] ago; the first report and the last (`done >= total`) always go.
    /// `message` is built only when the report is sent.
    pub fn report(&self, done: u64, total: Option<u64>, message: impl FnOnce() -> String) {
        if let Some(progress) = &self.inner {
            progress.report(done, total, message);
        }
    }
}

impl Progress {
    fn report(&self, done: u64, total: Option<u64>, message: impl FnOnce() -> String) {
        let finished = total.is_some_and(|total| done >= total);
        let now = Instant::now();
        {
            let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
            let due = last.is_none_or(|then| now.duration_since(then) >= PROGRESS_INTERVAL);
            if !(due || finished) {
                return;
            }
            *last = Some(now);
        }
        // Progress values are counts; f64 holds every count a call can reach exactly.
        #[allow(clippy::cast_precision_loss)]
        self.sink.send(ProgressUpdate {
            progress: done as f64,
            total: total.map(|total| total as f64),
            message: Some(message()).filter(|message| !message.is_empty()),
        });
    }
}

/// What a tool hands a scan it runs off the async workers: its progress (items checked, said
/// as `what`, e.g. "candidates authorized", shown as "candidates authorized: 12", which reads
/// right for any count) and whether to stop. Each [`ScanSignals::step`]
/// counts one item, reports it (throttled) and says whether to go on; [`ScanSignals::finish`]
/// sends the final count, so a scanning call always sends at least one notification when
/// its request carried a progress token, however fast it was.
#[derive(Debug, Clone)]
pub struct ScanSignals {
    progress: ProgressReporter,
    cancellation: CancellationToken,
    what: &'static str,
    done: u64,
}

impl ScanSignals {
    /// Signals reporting to `progress`, stopping on `cancellation`, counting `what`.
    pub fn new(
        progress: ProgressReporter,
        cancellation: CancellationToken,
        what: &'static str,
    ) -> Self {
        Self {
            progress,
            cancellation,
            what,
            done: 0,
        }
    }

    /// Signals that report nowhere and never stop: for a scan outside any call (a test, a
    /// command-line tool).
    pub fn detached() -> Self {
        Self::new(
            ProgressReporter::default(),
            CancellationToken::new(),
            "items",
        )
    }

    /// Counts one item and reports the count; false once the call was cancelled (stop: the
    /// scan's result will not be read).
    pub fn step(&mut self) -> bool {
        if self.cancellation.is_cancelled() {
            return false;
        }
        self.done += 1;
        let (done, what) = (self.done, self.what);
        self.progress
            .report(done, None, || format!("{what}: {done}"));
        true
    }

    /// Whether the call was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    /// Items counted so far.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// Sends the final count (always sent when a token was given).
    pub fn finish(&self) {
        let (done, what) = (self.done, self.what);
        self.progress
            .report(done, Some(done), || format!("{what}: {done}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Recorded(Mutex<Vec<ProgressUpdate>>);

    impl ProgressSink for Arc<Recorded> {
        fn send(&self, update: ProgressUpdate) {
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(update);
        }
    }

    #[test]
    fn a_scan_reports_its_final_count_and_stops_once_cancelled() {
        let recorded = Arc::new(Recorded::default());
        let progress = ProgressReporter::new(Some(Arc::new(Arc::clone(&recorded))));
        let cancellation = CancellationToken::new();
        let mut scan = ScanSignals::new(progress, cancellation.clone(), "rows checked");
        assert!(scan.step() && scan.step());
        cancellation.cancel();
        assert!(!scan.step(), "a cancelled scan stops");
        scan.finish();
        let sent = recorded
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        assert_eq!(sent.first().map(|u| u.progress), Some(1.0));
        let last = sent.last().cloned();
        assert_eq!(
            last,
            Some(ProgressUpdate {
                progress: 2.0,
                total: Some(2.0),
                message: Some("rows checked: 2".to_owned())
            })
        );
        let mut detached = ScanSignals::detached();
        assert!(detached.step());
        detached.finish();
    }

    #[test]
    fn a_burst_sends_the_first_and_the_last_report_only() {
        let recorded = Arc::new(Recorded::default());
        let progress = ProgressReporter::new(Some(Arc::new(Arc::clone(&recorded))));
        for done in 0..=1000 {
            progress.report(done, Some(1000), String::new);
        }
        let sent = recorded.0.lock().unwrap_or_else(PoisonError::into_inner);
        let sent: Vec<f64> = sent.iter().map(|u| u.progress).collect();
        assert!(sent.len() <= 1000 / 10, "{sent:?}");
        assert_eq!(sent.first(), Some(&0.0));
        assert_eq!(sent.last(), Some(&1000.0));
    }

    #[test]
    fn reports_spaced_by_the_interval_all_go() {
        let recorded = Arc::new(Recorded::default());
        let progress = ProgressReporter::new(Some(Arc::new(Arc::clone(&recorded))));
        progress.report(1, None, || "one".to_owned());
        std::thread::sleep(PROGRESS_INTERVAL);
        progress.report(2, None, String::new);
        let sent = recorded
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        assert_eq!(
            sent,
            [
                ProgressUpdate {
                    progress: 1.0,
                    total: None,
                    message: Some("one".to_owned())
                },
                ProgressUpdate {
                    progress: 2.0,
                    total: None,
                    message: None
                }
            ]
        );
    }
}
