//! The access doors: the ONLY way from an agent's reference to content.
//!
//! Every door applies the same steps in the same order, always as the authenticated user (or the
//! guest): the reach gate ([`reach`](Doors::check_reach)), the caller's rights (from the store's
//! rights snapshot), then the space filter of the SOURCE wiki's configuration. Existence is
//! checked after authorization so that protected pages do not leak. Single documents go through
//! [`Doors::authorize`], searches through [`Doors::search`], queries over many rows through
//! [`Doors::row_visible`] and the recycle bin through [`Doors::trash`] and
//! [`Doors::deleted_document`]; a tool that parses a reference and calls the store itself bypasses the
//! reach gate and the filter. Every write goes through the write door ([`Doors::write`],
//! [`write`](mod@write)): view and the operation's right before anything, the configuration refused,
//! base_version compare-and-set, `[AI] ` comments.

mod document;
mod reach;
mod reader;
mod rows;
mod search;
mod space;
mod trash;
pub mod write;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use mcp_runtime::signals::CancellationToken;
use wiki_store::interrupt::Interrupter;
use wiki_store::model::wiki::WikiId;
use wiki_store::rights::{Principal, RightsSnapshot};
use wiki_store::{Store, StoreError};

pub use document::AuthorizedReference;
pub use reach::ALL_WIKIS;
pub use reader::StoreReader;
pub use space::SpaceFilter;
pub use trash::{EXAMINED_CEILING, TrashPage};

use mcp_runtime::prelude::{ErrorKind, ToolError};

use crate::confirm::Confirm;

/// The doors of one call: who asks, from which wiki, with which reach, filter and rights.
/// Cheap to clone (shared state behind `Arc`s).
#[derive(Clone)]
pub struct Doors {
    store: Arc<dyn Store>,
    wiki: WikiId,
    reach: bool,
    principal: Arc<CallerPrincipal>,
    rights: Arc<RightsSnapshot>,
    filter: Arc<SpaceFilter>,
    /// What a write of this call must ask first, when it must ([`crate::confirm`]).
    confirmation: Option<Arc<dyn Confirm>>,
    /// The call's stop signal, bound by the first `ctx.doors()` of the call (the call path
    /// creates the token after the doors): when it fires, the store statement the call is
    /// running is interrupted. Unbound outside a served call (nothing to stop it then).
    cancellation: Arc<OnceLock<CancellationToken>>,
}

/// The caller of one call. The doors are built for every call, but the caller's groups (a walk
/// over the snapshot's memberships) are resolved only when a door first decides a right: a
/// call that decides none (`man`, many tools of a server of one's own) never pays for them.
struct CallerPrincipal {
    user: String,
    resolved: OnceLock<Principal>,
}

impl std::fmt::Debug for Doors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Doors")
            .field("wiki", &self.wiki)
            .field("user", &self.principal.user)
            .field("reach", &self.reach)
            .field("filter", &self.filter)
            .finish_non_exhaustive()
    }
}

impl Doors {
    /// The doors for `user` (the guest's name for the guest) on `wiki`: the server builds them
    /// per call from the wiki's configuration and the current rights snapshot, and hands them
    /// to the call ([`crate::serving::WikiCall`]).
    // The server's, not a tool author's: hidden from the SDK's documentation.
    #[doc(hidden)]
    pub fn new(
        store: Arc<dyn Store>,
        wiki: WikiId,
        user: &str,
        reach: bool,
        rights: Arc<RightsSnapshot>,
        filter: Arc<SpaceFilter>,
    ) -> Self {
        Self {
            principal: Arc::new(CallerPrincipal {
                user: user.to_owned(),
                resolved: OnceLock::new(),
            }),
            store,
            wiki,
            reach,
            rights,
            filter,
            confirmation: None,
            cancellation: Arc::default(),
        }
    }

    /// The caller with the groups it belongs to, resolved from the rights snapshot on first
    /// use.
    fn principal(&self) -> &Principal {
        self.principal
            .resolved
            .get_or_init(|| self.rights.principal(&self.principal.user))
    }

    /// The calling user's name (the guest's name for the guest).
    fn user(&self) -> &str {
        &self.principal.user
    }

    /// Binds the call's stop signal (the first binding wins: one call, one token).
    pub(crate) fn bind_cancellation(&self, cancellation: &CancellationToken) {
        self.cancellation.get_or_init(|| cancellation.clone());
    }

    /// These doors, for a call whose writes must be confirmed first (the server decides which
    /// calls must, and how they ask: [`crate::confirm`]).
    // The server's, not a tool author's: hidden from the SDK's documentation.
    #[doc(hidden)]
    pub fn with_confirmation(mut self, confirmation: Arc<dyn Confirm>) -> Self {
        self.confirmation = Some(confirmation);
        self
    }

    /// The wiki whose endpoint received the call.
    pub fn wiki(&self) -> &WikiId {
        &self.wiki
    }

    /// The store's clock, which the call's links are issued by.
    pub(crate) fn clock(&self) -> wiki_store::Clock {
        self.store.clock()
    }

    /// Whether this endpoint has cross-wiki reach.
    pub fn reach(&self) -> bool {
        self.reach
    }

    /// Runs `f` on the store's reads off the async workers (`spawn_blocking`): the store is
    /// synchronous and a query must not stall the other requests of this worker. `f` gets a
    /// [`StoreReader`], never the store: a tool writes only through the write door. A panic
    /// inside `f` is resumed here, so the middleware reports it like any panic of the tool.
    pub async fn blocking<T, F>(&self, f: F) -> Result<T, ToolError>
    where
        T: Send + 'static,
        F: FnOnce(&StoreReader<'_>) -> T + Send + 'static,
    {
        self.with_store(move |store| f(&StoreReader::new(store)))
            .await
    }

    /// [`Doors::blocking`] with the whole store, for the doors' own queries and writes.
    ///
    /// When the call is cancelled or times out while `f` runs, the statement `f` is running is
    /// interrupted ([`wiki_store::interrupt`]): `f` gets [`StoreError::Interrupted`], a write
    /// rolls back, and the blocking thread is free again instead of finishing work nobody
    /// waits for.
    pub(crate) async fn with_store<T, F>(&self, f: F) -> Result<T, ToolError>
    where
        T: Send + 'static,
        F: FnOnce(&dyn Store) -> T + Send + 'static,
    {
        let store = Arc::clone(&self.store);
        let interrupter = Interrupter::new();
        let finished = CancellationToken::new();
        if let Some(cancellation) = self.cancellation.get() {
            watch(cancellation.clone(), finished.clone(), interrupter.clone());
        }
        let work = tokio::task::spawn_blocking(move || {
            let _finished = finished.drop_guard();
            let _scope = interrupter.enter();
            f(&*store)
        });
        match work.await {
            Ok(value) => Ok(value),
            Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
            Err(_) => Err(ToolError::new(
                "The server is shutting down; retry the call in a moment.",
            )
            .with_kind(ErrorKind::Unavailable)),
        }
    }
}

/// Interrupts `interrupter`'s store work when `cancellation` fires before `finished` does.
/// A task of its own: the call path drops the tool's future the moment the call is cancelled,
/// and the blocking work must hear of it even then. The interrupt itself blocks (a PostgreSQL
/// cancel request opens a connection), so it runs on the blocking pool.
fn watch(cancellation: CancellationToken, finished: CancellationToken, interrupter: Interrupter) {
    tokio::spawn(async move {
        tokio::select! {
            () = finished.cancelled() => {}
            () = cancellation.cancelled() => {
                if tokio::task::spawn_blocking(move || interrupter.interrupt()).await.is_err() {
                    tracing::debug!("a store interrupt could not run");
                }
            }
        }
    });
}

/// The agent-facing text for a failed store operation (one convention for every tool): a fixed
/// "Could not `<verb>`" that says to retry and, if it persists, to tell an administrator. The
/// cause goes to the log at WARN, never to the agent.
///
/// A transient failure ([`StoreError::is_transient`]) says what happened and that retrying is
/// the fix ([`transient_failure`]).
pub fn store_failure(verb: &str, error: &StoreError) -> ToolError {
    if let Some(refusal) = transient_failure(verb, error) {
        return refusal;
    }
    if let StoreError::Interrupted = error {
        return ToolError::new(format!(
            "Could not {verb}: the call was cancelled or ran out of time, and the store stopped \
             its work (a change in progress was not saved). Retry with a narrower request if it \
             timed out."
        ))
        .with_kind(ErrorKind::Cancelled);
    }
    tracing::warn!(%error, "could not {verb}");
    STORE_FAILED.fetch_add(1, Ordering::Relaxed);
    ToolError::new(format!(
        "Could not {verb}. Retry; if it keeps failing, tell an administrator (the details are \
         in the server log)."
    ))
    .with_kind(ErrorKind::Internal)
}

/// Store failures of this process's calls, as the doors reported them: (unavailable: the
/// database did not answer; failed: anything else but a conflict or a cancellation). Counted
/// process-wide, for a server's metrics.
pub fn store_errors() -> (u64, u64) {
    (
        STORE_UNAVAILABLE.load(Ordering::Relaxed),
        STORE_FAILED.load(Ordering::Relaxed),
    )
}

static STORE_UNAVAILABLE: AtomicU64 = AtomicU64::new(0);
static STORE_FAILED: AtomicU64 = AtomicU64::new(0);

/// The agent-facing text for a store failure that retrying fixes: the database not answering
/// (down, or a statement past its timeout), or a write given up to concurrent writers after the
/// store's bounded retries. `None` for any other failure.
pub fn transient_failure(verb: &str, error: &StoreError) -> Option<ToolError> {
    match error {
        StoreError::Unavailable(_) => {
            tracing::warn!(%error, "could not {verb}: the store is unavailable");
            STORE_UNAVAILABLE.fetch_add(1, Ordering::Relaxed);
            Some(
                ToolError::new(format!(
                    "Could not {verb}: the wiki's database is not answering right now. Retry the \
                 call in a few seconds; if it keeps failing, tell an administrator."
                ))
                .with_kind(ErrorKind::Unavailable),
            )
        }
        StoreError::ConcurrentSave { attempts } => {
            tracing::warn!(%error, "could not {verb}: concurrent writers");
            Some(
                ToolError::new(format!(
                    "Could not {verb}: other writers kept changing the same content at the same \
                 moment, and the store gave up after {attempts} attempts. Retry the call in a \
                 moment."
                ))
                .with_kind(ErrorKind::Conflict),
            )
        }
        _ => None,
    }
}
