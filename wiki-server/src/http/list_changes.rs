//! List change announcements: who listens, when their tool list or their skills changed, and
//! the bounds on listening.
//!
//! A client hears `notifications/tools/list_changed` and `notifications/resources/list_changed`
//! (its skills, whose `SKILL.md` files are its resources) on a 2025-11-25 standalone GET stream
//! (`listen_stream.rs`) or on a 2026-07-28 `subscriptions/listen` stream (the handler's
//! `listen`, for what the client subscribed to). Both open a [`Listener`] here. A caller's list
//! depends on its wiki's configuration, on whether it is the guest, and on what narrows it (its
//! token's scope, its session's own narrowing), and its skills on the pages of the skills space
//! it may view, so each listener keeps what its own list and skills were (the skills as a stamp,
//! `crate::skills::skills_stamp`) and is told only when that changed.
//!
//! What changed is learnt from the store's change feed, on every replica alike: while anyone
//! listens, one task per server reads the store's commit marker every [`TICK`] (in memory:
//! SQLite's `data_version`, PostgreSQL's notified sequence; any process's commit moves it) and
//! wakes every listener when it moved. A woken listener asks the directory again, as a request
//! would: the manager applies the change (a new configuration, rights, tokens), the listener's
//! token is resolved anew, and its list is compared with the last one; a listener of skills reads
//! its skills' stamp again (one metadata read of the skills space per commit seen, never the
//! files' bytes). A token that was revoked
//! or expired, a user removed, a wiki disabled or gone, closes the stream; so does the server's
//! shutdown. With nobody listening, the task stops.
//!
//! Bounds: [`ListenLimits`] caps open streams per caller (a user, or the guest per address) and
//! in total; streams carry keep-alives (SSE comments) so idle connections are kept or found
//! dead; and a listener checks its credentials every [`RECHECK`] even when nothing changes, so
//! an OIDC token's expiry ends its stream too.

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use parking_lot::Mutex;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::directory::Directory;
use crate::server::{Caller, WikiServer};
use crate::skills;

/// How often the store's commit marker is read while anyone listens: a change is heard well
/// within a second.
pub(crate) const TICK: Duration = Duration::from_millis(100);

/// How often a listener checks its credentials when nothing changed.
pub(crate) const RECHECK: Duration = Duration::from_secs(30);

/// How often an idle stream carries a keep-alive.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How long a client may treat a `tools/list` answer as fresh (`ttlMs`) when this server
/// announces list changes: a listening client hears of a change within a second, and one that
/// does not listen refetches within a minute.
pub const LIST_TTL: Duration = Duration::from_secs(60);

/// How many change streams may be open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListenLimits {
    /// On this server, in all.
    pub total: usize,
    /// Per caller: one user (whatever its tokens), or the guest from one address.
    pub per_caller: usize,
}

impl Default for ListenLimits {
    /// 1024 in all, 4 per caller: a client needs one per endpoint it uses.
    fn default() -> Self {
        ListenLimits {
            total: 1024,
            per_caller: 4,
        }
    }
}

/// Why a stream could not be opened: the limit that is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TooManyStreams {
    /// This caller's.
    Caller(usize),
    /// The server's.
    Server(usize),
}

impl TooManyStreams {
    /// The refusal's sentence, saying what to do.
    pub(crate) fn text(self) -> String {
        match self {
            TooManyStreams::Caller(limit) => format!(
                "this caller already has {limit} change streams open on this server, the most \
                 it may; close one (or reuse it) before listening again"
            ),
            TooManyStreams::Server(limit) => format!(
                "this server already serves {limit} change streams, the most it may; retry \
                 later, or re-list tools when needed instead of listening"
            ),
        }
    }
}

/// What a listener is told about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Topics {
    /// Changes of the caller's tool list.
    pub(crate) tools: bool,
    /// Changes of the caller's skills.
    pub(crate) skills: bool,
}

impl Topics {
    /// Both: what a 2025-11-25 GET stream carries.
    pub(crate) const ALL: Topics = Topics {
        tools: true,
        skills: true,
    };
}

/// What a listener heard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Heard {
    /// What changed of what the listener is told about (at least one is true): announce it.
    Changed(Topics),
    /// The server is shutting down: end the stream.
    ShuttingDown,
    /// Nothing happened for [`KEEP_ALIVE`]: send a keep-alive.
    Idle,
    /// The caller is no longer admitted (token revoked or expired, user removed, wiki
    /// disabled or gone): end the stream.
    NotAdmitted,
}

/// The change streams of one server: see the module's documentation.
pub(crate) struct ListChanges {
    directory: Arc<Directory>,
    limits: ListenLimits,
    /// Moves whenever the store's commit marker moved.
    epoch: watch::Sender<u64>,
    /// Whether the marker-reading task runs. Read and changed only under this lock together
    /// with the epoch's receiver count, so a listener that arrives as the task stops starts a
    /// new one.
    watching: Mutex<bool>,
    open: Mutex<OpenStreams>,
    /// Cancelled when the server shuts down.
    closing: CancellationToken,
}

#[derive(Default)]
struct OpenStreams {
    total: usize,
    by_caller: HashMap<String, usize>,
}

impl std::fmt::Debug for ListChanges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ListChanges")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl ListChanges {
    /// The streams of the server over `directory`, within `limits`, ended when `closing` is
    /// cancelled.
    pub(crate) fn new(
        directory: Arc<Directory>,
        limits: ListenLimits,
        closing: CancellationToken,
    ) -> Arc<Self> {
        Arc::new(ListChanges {
            directory,
            limits,
            epoch: watch::Sender::new(0),
            watching: Mutex::new(false),
            open: Mutex::new(OpenStreams::default()),
            closing,
        })
    }

    /// Opens a stream for `caller`, admitted with the bearer `token` (`None`: the guest),
    /// counted under `key` (the user, or the guest's address), told about `topics`. `Err` when
    /// a limit is reached.
    pub(crate) async fn open(
        self: &Arc<Self>,
        caller: Caller,
        token: Option<String>,
        key: String,
        topics: Topics,
    ) -> Result<Listener, TooManyStreams> {
        self.count(&key)?;
        let epoch = self.epoch.subscribe();
        self.ensure_watching();
        let mut listener = Listener {
            hub: Arc::clone(self),
            key,
            caller,
            token,
            topics,
            epoch,
            server: None,
            listed: [0; 32],
            skills: None,
            recheck_at: Instant::now() + RECHECK,
            idle_at: Instant::now() + KEEP_ALIVE,
        };
        // What the list and the skills are now: later changes are compared with them.
        if let Admission::Admitted(server) = listener.admission().await {
            listener.listed = fingerprint(&server, &listener.caller);
            if topics.skills {
                listener.skills = listener.skills_stamp(&server).await;
            }
            listener.server = Some(server);
        }
        Ok(listener)
    }

    fn count(&self, key: &str) -> Result<(), TooManyStreams> {
        let mut open = self.open.lock();
        if open.total >= self.limits.total {
            return Err(TooManyStreams::Server(self.limits.total));
        }
        let mine = open.by_caller.entry(key.to_owned()).or_default();
        if *mine >= self.limits.per_caller {
            return Err(TooManyStreams::Caller(self.limits.per_caller));
        }
        *mine += 1;
        open.total += 1;
        Ok(())
    }

    fn release(&self, key: &str) {
        let mut open = self.open.lock();
        open.total = open.total.saturating_sub(1);
        if let Some(mine) = open.by_caller.get_mut(key) {
            *mine = mine.saturating_sub(1);
            if *mine == 0 {
                open.by_caller.remove(key);
            }
        }
    }

    /// Starts the task that reads the commit marker, unless it runs. The marker is read here
    /// first, before the new listener reads its list, so a commit in between is heard.
    fn ensure_watching(self: &Arc<Self>) {
        let mut watching = self.watching.lock();
        if *watching {
            return;
        }
        *watching = true;
        let marker = self.directory.manager().store().commit_marker().ok();
        tokio::spawn(watch_marker(Arc::downgrade(self), marker));
    }
}

/// Reads the store's commit marker every [`TICK`] and moves the epoch when it moved, while
/// anyone listens.
/// `seen` is the marker read when the task was started (`None`: it could not be read, and the
/// first read wakes everyone, to be safe).
async fn watch_marker(hub: Weak<ListChanges>, mut seen: Option<u64>) {
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(hub) = hub.upgrade() else {
            return;
        };
        {
            let mut watching = hub.watching.lock();
            if hub.epoch.receiver_count() == 0 || hub.closing.is_cancelled() {
                *watching = false;
                return;
            }
        }
        // A failed read (the database is away) is no change: listeners keep their lists.
        let Ok(marker) = hub.directory.manager().store().commit_marker() else {
            continue;
        };
        if seen != Some(marker) {
            hub.epoch
                .send_modify(|epoch| *epoch = epoch.wrapping_add(1));
            seen = Some(marker);
        }
    }
}

/// One open change stream.
pub(crate) struct Listener {
    hub: Arc<ListChanges>,
    /// What it is counted under.
    key: String,
    caller: Caller,
    token: Option<String>,
    topics: Topics,
    epoch: watch::Receiver<u64>,
    /// The server the last list was read from: while the manager hands out the same one, the
    /// list has not changed.
    server: Option<Arc<WikiServer>>,
    /// The SHA-256 of the last list.
    listed: [u8; 32],
    /// The stamp of the last skills, when it listens to them and they could be read.
    skills: Option<[u8; 32]>,
    /// When the credentials are checked next, changes or not.
    recheck_at: Instant,
    /// When the stream needs a keep-alive, unless something is sent before.
    idle_at: Instant,
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.hub.release(&self.key);
    }
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("wiki", self.caller.wiki())
            .finish_non_exhaustive()
    }
}

/// Whether a listener's caller is still admitted.
enum Admission {
    Admitted(Arc<WikiServer>),
    NotAdmitted,
    /// The store did not answer: nothing is known, the stream stays.
    Unknown,
}

impl Listener {
    /// Waits for the next change of this caller's list or skills (what it is told about), the
    /// next keep-alive, or the end of the stream. Cancel-safe only at the end of a stream: a
    /// caller that drops this future for another reason may lose a change, so it waits for
    /// nothing else.
    pub(crate) async fn next(&mut self) -> Heard {
        loop {
            let committed = tokio::select! {
                () = self.hub.closing.cancelled() => return Heard::ShuttingDown,
                changed = self.epoch.changed() => {
                    if changed.is_err() {
                        return Heard::ShuttingDown;
                    }
                    true
                }
                () = tokio::time::sleep_until(self.recheck_at) => false,
                () = tokio::time::sleep_until(self.idle_at) => {
                    self.idle_at = Instant::now() + KEEP_ALIVE;
                    return Heard::Idle;
                }
            };
            self.recheck_at = Instant::now() + RECHECK;
            let server = match self.admission().await {
                Admission::Admitted(server) => server,
                Admission::NotAdmitted => return Heard::NotAdmitted,
                Admission::Unknown => continue,
            };
            let changed = Topics {
                tools: self.topics.tools && self.tools_changed(&server),
                // Pages are edited without the server changing: only a commit tells.
                skills: self.topics.skills && committed && self.skills_changed(&server).await,
            };
            self.server = Some(server);
            if changed.tools || changed.skills {
                self.idle_at = Instant::now() + KEEP_ALIVE;
                return Heard::Changed(changed);
            }
        }
    }

    /// Whether the tool list `server` gives this caller differs from the last one (which it
    /// becomes). While the manager hands out the same server, it does not.
    fn tools_changed(&mut self, server: &Arc<WikiServer>) -> bool {
        if self
            .server
            .as_ref()
            .is_some_and(|last| Arc::ptr_eq(last, server))
        {
            return false;
        }
        let listed = fingerprint(server, &self.caller);
        let changed = listed != self.listed;
        self.listed = listed;
        changed
    }

    /// Whether this caller's skills differ from the last ones read (which they become). When
    /// they cannot be read, nothing is known and nothing is announced.
    async fn skills_changed(&mut self, server: &WikiServer) -> bool {
        let Some(stamp) = self.skills_stamp(server).await else {
            return false;
        };
        let changed = self.skills.is_some_and(|last| last != stamp);
        self.skills = Some(stamp);
        changed
    }

    async fn skills_stamp(&self, server: &WikiServer) -> Option<[u8; 32]> {
        skills::skills_stamp(self.hub.directory.manager(), server, &self.caller).await
    }

    /// Asks the directory about this caller as a new request would.
    async fn admission(&self) -> Admission {
        let wiki = self.caller.wiki().clone();
        let resolution = match self.hub.directory.resolve(&wiki, self.token.clone()).await {
            Ok(resolution) => resolution,
            Err(error) => {
                tracing::debug!(%error, "a change stream could not check its caller");
                return Admission::Unknown;
            }
        };
        let Some(server) = resolution.server else {
            return Admission::NotAdmitted;
        };
        let admitted = match (&self.token, resolution.bearer) {
            (None, _) => server.guest_access(),
            (Some(_), None) => false,
            (Some(_), Some(bearer)) => {
                Some(bearer.user.as_str()) == self.caller.user_name()
                    && bearer.scope.as_deref().is_none_or(|scope| {
                        !scope.expired_at(OffsetDateTime::now_utc())
                            && scope.allows_wiki(wiki.as_str())
                    })
            }
        };
        if admitted {
            Admission::Admitted(server)
        } else {
            Admission::NotAdmitted
        }
    }
}

/// The SHA-256 of the `tools/list` answer `caller` gets from `server`.
fn fingerprint(server: &WikiServer, caller: &Caller) -> [u8; 32] {
    let list = server.list_for(caller);
    let json = serde_json::to_vec(&list.tools).unwrap_or_default();
    Sha256::digest(&json).into()
}
