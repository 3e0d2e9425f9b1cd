//! The server manager: one cached server per wiki, built lazily, rebuilt when its configuration
//! changes.
//!
//! - **Built once.** Two first requests for a wiki build its server once (`OnceCell` per slot);
//!   later requests share the `Arc`.
//! - **Fault boundaries.** Each tool's definition is built and meta-validated inside its own
//!   `catch_unwind`: a tool whose definition panics or whose schema is invalid is skipped with a
//!   WARN naming it, and the others serve.
//! - **Invalidation.** The store's change events invalidate precisely (a save of a wiki's
//!   configuration document: that wiki; of the main wiki's: every wiki, since reach lives there).
//!   Every request also makes sure it sees every commit made before it arrived, by any process:
//!   first the store's commit marker (SQLite's `data_version`: an in-memory read, on the
//!   request's own thread); only when it moved since the last check, the change sequence (a
//!   read on the blocking pool, shared by concurrent requests). When another process (an admin
//!   command) changed configuration, tokens or rights, the rights snapshot is reloaded and every
//!   server re-reads its inputs on its next request, keeping the old server when they did not
//!   change. In-flight calls finish on the server they started with (`Arc`).
//! - **Conflicts** in the registry (duplicate or reserved ids) make [`Manager::new`] fail: the
//!   server refuses to start rather than serve one tool in place of another.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use mcp_runtime::call::{CallSettings, panic_message};
use mcp_runtime::{Registry, SchemaVariant, ServedTool, ToolContext, ToolSet};
use parking_lot::{Mutex, RwLock};
use tokio::sync::OnceCell;
use wiki_store::api::Subscription;
use wiki_store::model::change::{ChangeEvent, ChangeKind};
use wiki_store::model::mcp_config::MCP_CONFIG_DOCUMENT;
use wiki_store::model::rights::{Right, RightScope};
use wiki_store::model::user::GUEST_USER;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::SpacePath;
use wiki_store::rights::RightsSnapshot;
use wiki_store::{Store, StoreError};

use super::Caller;
use super::endpoint::{EndpointInputs, WikiServer};
use super::freshness::FreshnessGate;
use super::policy::{MAN, effective_tools, guest_tools};
use crate::Error;
use crate::audit::flush::AuditFlusher;
use crate::audit::{RecentCalls, WikiAudit};
use crate::http::BaseUrl;
use crate::metrics::Metrics;
use crate::metrics::calls::ToolMeters;
use wiki_tool_sdk::access::{Doors, SpaceFilter};
use wiki_tool_sdk::serving::WikiCall;

use super::served::ServedBy;
use crate::registry::registry;
use wiki_tool_sdk::links::LinkKey;

/// The description sent as instructions when a wiki configures none.
pub const DEFAULT_DESCRIPTION: &str = "wiki-mcp server";

/// The hint appended to the instructions when `man` is served.
pub const MAN_HINT: &str = "Call the man tool with no arguments first: it lists the tools and \
     reference pages this endpoint offers, and `man <name>` documents each one.";

/// The per-call timeout when none is configured.
pub const DEFAULT_CALL_TIMEOUT: Duration = mcp_runtime::call::DEFAULT_CALL_TIMEOUT;

/// Server-wide settings every wiki shares.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServerSettings {
    /// How long one tool call may run before it ends in an `isError` result.
    pub call_timeout: Duration,
    /// Where clients reach this server: the base of links in tool output and on the pages,
    /// and, when it is a public URL (`serve --public-url`), the one non-loopback `Host` the
    /// HTTP transport accepts. `serve` sets the public URL, or the bound address; `None`: no
    /// links. The one place it is held: the HTTP transport reads it here.
    pub public_url: Option<BaseUrl>,
    /// Where the key that signs the links tools print (and that the link pages verify) comes
    /// from. The default is random per process; `serve` loads the farm's key: a file beside a
    /// SQLite farm ([`LinkKey::load_or_create`]), the store's farm secret on a shared database.
    pub link_key: LinkKeySource,
    /// How long the question of a confirmed write stays answerable on protocol 2026-07-28 (its
    /// request state's lifetime): [`crate::confirm::STATE_TTL`], five minutes. Tests shorten it
    /// to see an expired state refused without waiting minutes; a deployment has no reason to.
    pub confirmation_ttl: Duration,
    /// Values a tool crate's tools read from every call's context
    /// ([`ToolContext::extension`]), put there by whoever builds the server
    /// ([`ServerSettings::with_service`]): a tool crate's shared state (a loaded model, an
    /// index) reaches its tools this way, not through a global.
    pub services: http::Extensions,
    /// The space of every wiki whose pages are served as skills ([`crate::skills`]): `Skills`
    /// by default; `None` serves none.
    pub skills_space: Option<SpacePath>,
}

/// Where a server's link-signing key comes from.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum LinkKeySource {
    /// This key.
    Given(Arc<LinkKey>),
    /// The store's farm secret ([`LinkKey::from_farm`]), so every replica serving the farm
    /// signs and verifies alike. Read when the manager is made, or, while the database is
    /// unreachable, on the first request that finds it back.
    Farm,
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            call_timeout: DEFAULT_CALL_TIMEOUT,
            public_url: None,
            link_key: LinkKeySource::Given(Arc::new(LinkKey::random())),
            confirmation_ttl: crate::confirm::STATE_TTL,
            services: http::Extensions::new(),
            skills_space: SpacePath::parse(crate::skills::DEFAULT_SKILLS_SPACE).ok(),
        }
    }
}

impl ServerSettings {
    /// Sets the space served as skills ([`ServerSettings::skills_space`]); `None` serves none.
    pub fn with_skills_space(mut self, space: Option<SpacePath>) -> Self {
        self.skills_space = space;
        self
    }

    /// Sets the per-call timeout.
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// Sets where clients reach the server ([`ServerSettings::public_url`]).
    pub fn with_public_url(mut self, url: BaseUrl) -> Self {
        self.public_url = Some(url);
        self
    }

    /// Sets the link-signing key.
    pub fn with_link_key(mut self, key: LinkKey) -> Self {
        self.link_key = LinkKeySource::Given(Arc::new(key));
        self
    }

    /// Sets how long a confirmation question stays answerable ([`Self::confirmation_ttl`]).
    pub fn with_confirmation_ttl(mut self, ttl: Duration) -> Self {
        self.confirmation_ttl = ttl;
        self
    }

    /// Signs links with the farm's key kept in the store ([`LinkKeySource::Farm`]).
    pub fn with_farm_link_key(mut self) -> Self {
        self.link_key = LinkKeySource::Farm;
        self
    }

    /// Adds a service every call's context carries (one value per type; cheap to clone, so an
    /// `Arc` or a handle). A tool reads it with `ctx.extension::<T>()`.
    pub fn with_service<T: Clone + Send + Sync + 'static>(mut self, service: T) -> Self {
        self.services.insert(service);
        self
    }

    /// Adds every service of `services` (what the start-up hooks started:
    /// [`wiki_tool_sdk::startup::start_hooks`]).
    pub fn with_services(mut self, services: http::Extensions) -> Self {
        self.services.extend(services);
        self
    }
}

/// One cached server per wiki. Cheap to share (`Arc<Manager>`).
pub struct Manager {
    store: Arc<dyn Store>,
    registry: &'static Registry,
    settings: ServerSettings,
    /// What every call runs with: the settings' timeout, and the wiki audit sink.
    calls: CallSettings,
    /// The audit sink's memory of the latest calls.
    recent: Arc<RecentCalls>,
    /// This server's metrics (`/metrics`).
    metrics: Arc<Metrics>,
    state: Arc<State>,
    _subscription: Subscription,
    /// Writes the audit buffer to the store; last field, so it stops (with a last flush)
    /// after everything else is dropped.
    _audit: AuditFlusher,
}

impl std::fmt::Debug for Manager {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Manager")
            .field("settings", &self.settings)
            .field("generation", &self.state.generation.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// What the change listener shares with the manager.
struct State {
    /// Whether the change sequence, the rights and the link key were read once. A manager made
    /// while the database was unreachable is not: every request then retries the full check,
    /// and is refused (503) until it succeeds.
    ready: AtomicBool,
    /// The link-signing key, once known.
    link_key: OnceLock<Arc<LinkKey>>,
    /// Bumped to make every wiki's server re-read its inputs.
    generation: AtomicU64,
    /// The last change sequence value acted upon.
    seen_seq: AtomicU64,
    /// The store's commit marker read just before the last completed check: while the marker
    /// still reads this, nothing was committed since, and requests need no check.
    checked_marker: AtomicU64,
    slots: Mutex<HashMap<WikiId, Arc<Slot>>>,
    rights: RwLock<Arc<RightsSnapshot>>,
    freshness: FreshnessGate,
}

/// One wiki's server for one generation, built at most once.
struct Slot {
    generation: u64,
    /// The server of the previous generation, reused when its inputs did not change.
    previous: Option<Arc<WikiServer>>,
    server: OnceCell<Arc<WikiServer>>,
}

impl State {
    fn invalidate(&self, wiki: &WikiId) {
        self.slots.lock().remove(wiki);
    }

    fn invalidate_all(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// Publishes what a check read. Only the newest rights win when two checks raced; the
    /// marker is published after the state it vouches for, and readiness last.
    fn apply(&self, loaded: Loaded) {
        if let Some(key) = loaded.link_key {
            // Every replica reads the same stored key: a lost race set an equal one.
            let _ = self.link_key.set(Arc::new(key));
        }
        if let Some(rights) = loaded.rights {
            let mut current = self.rights.write();
            let first = !self.ready.load(Ordering::Acquire);
            if self.seen_seq.fetch_max(loaded.seq, Ordering::AcqRel) < loaded.seq || first {
                *current = Arc::new(rights);
                self.invalidate_all();
            }
        }
        if let Some(marker) = loaded.marker {
            self.checked_marker.store(marker, Ordering::Release);
        }
        self.ready.store(true, Ordering::Release);
    }

    fn on_change(&self, event: &ChangeEvent) {
        let is_config = |reference: &wiki_store::reference::DocumentReference| {
            reference.local() == MCP_CONFIG_DOCUMENT
        };
        match &event.kind {
            ChangeKind::DocumentSaved { reference, .. }
            | ChangeKind::DocumentDeleted { reference }
                if is_config(reference) =>
            {
                if event.wiki.is_main() {
                    self.invalidate_all();
                } else {
                    self.invalidate(&event.wiki);
                }
            }
            ChangeKind::WikiCreated | ChangeKind::WikiDeleted => self.invalidate(&event.wiki),
            _ => {}
        }
    }
}

impl Manager {
    /// A manager over `store` serving every tool linked into the binary ([`crate::registry`]).
    /// `Err` when the registry has conflicting ids, or the store fails other than by being
    /// unreachable (a database that does not answer yet is waited for: requests get 503 until
    /// it does).
    ///
    /// Reads the store, so it blocks: call it outside the async runtime or on its blocking
    /// pool (PostgreSQL's synchronous client refuses to run on an async worker).
    pub fn new(store: Arc<dyn Store>, settings: ServerSettings) -> Result<Self, Error> {
        Self::with_registry(store, settings, registry()?)
    }

    /// A manager serving the tools of `registry`.
    pub fn with_registry(
        store: Arc<dyn Store>,
        settings: ServerSettings,
        registry: &'static Registry,
    ) -> Result<Self, Error> {
        let state = Arc::new(State {
            ready: AtomicBool::new(false),
            link_key: OnceLock::new(),
            generation: AtomicU64::new(0),
            seen_seq: AtomicU64::new(0),
            checked_marker: AtomicU64::new(0),
            slots: Mutex::new(HashMap::new()),
            rights: RwLock::new(Arc::new(RightsSnapshot::default())),
            freshness: FreshnessGate::default(),
        });
        if let LinkKeySource::Given(key) = &settings.link_key {
            let _ = state.link_key.set(Arc::clone(key));
        }
        // A database that does not answer yet is not fatal: the server starts, answers 503
        // until the first request finds it back, and never needs a restart for it.
        let farm_key = matches!(settings.link_key, LinkKeySource::Farm);
        match load(&*store, farm_key, None) {
            Ok(loaded) => state.apply(loaded),
            Err(error) if error.is_transient() => {
                tracing::warn!(%error, "the store is unavailable: serving 503 until it answers");
            }
            Err(error) => return Err(error.into()),
        }
        let listener: Weak<State> = Arc::downgrade(&state);
        let subscription = store.subscribe(Arc::new(move |event: &ChangeEvent| {
            if let Some(state) = listener.upgrade() {
                state.on_change(event);
            }
        }));
        let audit = WikiAudit::default();
        let recent = Arc::clone(&audit.recent);
        let metrics = Arc::new(Metrics::new());
        metrics.watch(Arc::clone(&store), Arc::clone(&recent));
        let flusher = AuditFlusher::start(Arc::clone(&recent), Arc::clone(&store));
        let calls = CallSettings::default()
            .with_timeout(settings.call_timeout)
            .with_audit(audit);
        Ok(Self {
            store,
            registry,
            settings,
            calls,
            recent,
            metrics,
            state,
            _subscription: subscription,
            _audit: flusher,
        })
    }

    /// The store every server reads.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The registry the servers are built from.
    pub fn registry(&self) -> &'static Registry {
        self.registry
    }

    /// The server-wide settings.
    pub fn settings(&self) -> &ServerSettings {
        &self.settings
    }

    /// This server's metrics: what `/metrics` serves, where a start-up hook's gauges are
    /// published ([`Metrics::publish`]).
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// Whether `user` administers the farm (the admin right on the main wiki), on the rights
    /// as of now.
    pub async fn is_farm_admin(&self, user: &str) -> Result<bool, Error> {
        self.refresh().await?;
        let rights = Arc::clone(&self.state.rights.read());
        Ok(rights.can(user, Right::Admin, &RightScope::Wiki(WikiId::main())))
    }

    /// The latest calls this process ran (the admin page's audit view reads the farm's record
    /// from the store: every replica's calls).
    pub fn recent_calls(&self) -> &RecentCalls {
        &self.recent
    }

    /// The store's change sequence as of the latest poll (every [`Manager::server`] call polls
    /// it). Caches kept beside the manager, like the HTTP layer's token resolutions, stay valid
    /// while it does not move.
    pub fn change_seq(&self) -> u64 {
        self.state.seen_seq.load(Ordering::Acquire)
    }

    /// The link-signing key; `None` while the farm's key could not be read yet (the database
    /// has not answered since the server started).
    pub fn link_key(&self) -> Option<Arc<LinkKey>> {
        self.state.link_key.get().cloned()
    }

    /// Whether the store answers now: one round trip (PostgreSQL) or read (SQLite), off the
    /// async workers. What a health check asks; `Err` carries the store's error for the log.
    pub async fn check_store(&self) -> Result<(), Error> {
        let store = Arc::clone(&self.store);
        tokio::task::spawn_blocking(move || store.change_seq().map(drop))
            .await
            .map_err(|error| Error::Join(error.to_string()))??;
        if self.state.ready.load(Ordering::Acquire) {
            Ok(())
        } else {
            self.state.freshness.ensure(|| self.poll()).await
        }
    }

    /// The server of `wiki`, or `None` when the wiki does not exist. A disabled endpoint is
    /// returned too ([`WikiServer::enabled`] is false): the transport answers 404 for both.
    ///
    /// Polls the change sequence first, so a change made by another process since the last
    /// request is applied now.
    pub async fn server(&self, wiki: &WikiId) -> Result<Option<Arc<WikiServer>>, Error> {
        self.refresh().await?;
        let slot = self.slot(wiki);
        let built = slot
            .server
            .get_or_try_init(|| async {
                let store = Arc::clone(&self.store);
                let registry = self.registry;
                let metrics = Arc::clone(&self.metrics);
                let wiki = wiki.clone();
                let previous = slot.previous.clone();
                match tokio::task::spawn_blocking(move || {
                    build(&*store, registry, &metrics, &wiki, previous)
                })
                .await
                {
                    Ok(Ok(Some(server))) => Ok(server),
                    Ok(Ok(None)) => Err(Absent::Wiki),
                    Ok(Err(error)) => Err(Absent::Failed(error)),
                    Err(error) => Err(Absent::Failed(Error::Join(error.to_string()))),
                }
            })
            .await;
        match built {
            Ok(server) => Ok(Some(Arc::clone(server))),
            Err(absent) => {
                // Never cache an absent wiki: ids come from URLs, and a cache of every id ever
                // probed would grow without bound.
                let mut slots = self.state.slots.lock();
                if slots
                    .get(wiki)
                    .is_some_and(|current| Arc::ptr_eq(current, &slot))
                {
                    slots.remove(wiki);
                }
                match absent {
                    Absent::Wiki => Ok(None),
                    Absent::Failed(error) => Err(error),
                }
            }
        }
    }

    /// What every call runs with (timeout, audit sink).
    pub(crate) fn call_settings(&self) -> &CallSettings {
        &self.calls
    }

    /// The doors of `caller` on `server`, on the current rights: what a call by this caller
    /// gets as `ctx.doors()`, for code that authorizes without running a tool (the link pages).
    pub fn doors(&self, server: &WikiServer, caller: &Caller) -> Doors {
        Doors::new(
            Arc::clone(&self.store),
            server.wiki.clone(),
            caller.user_name().unwrap_or(GUEST_USER),
            server.reach(),
            Arc::clone(&self.state.rights.read()),
            Arc::clone(&server.filter),
        )
    }

    /// The context of one call by `caller` on `server`: the caller, and the [`WikiCall`]
    /// extension with the doors built on the current rights, printing links when `links`.
    pub(crate) fn context(
        &self,
        server: &Arc<WikiServer>,
        caller: &Caller,
        links: bool,
    ) -> ToolContext {
        let mut ctx = ToolContext::new(caller.user_name().map(str::to_owned));
        ctx.extensions_mut().extend(self.settings.services.clone());
        ctx.with_extension(
            WikiCall::new(
                self.doors(server, caller),
                self.settings.public_url.as_ref().map(BaseUrl::shared),
                self.link_key(),
            )
            .with_links(links)
            .sharing(caller.heavy_share()),
        )
        .with_extension(ServedBy {
            server: Arc::clone(server),
            caller: caller.clone(),
        })
        .with_extension(caller.origin().clone())
    }

    /// Applies what changed since the last request: reloads the rights snapshot and makes every
    /// server re-read its inputs when the change sequence moved.
    ///
    /// When the commit marker has not moved since the last check, nothing was committed, by any
    /// process, and the request goes on at once. Otherwise concurrent requests share one check
    /// ([`FreshnessGate`]); each still sees every change committed before it arrived. A probe
    /// that fails (a busy lock) just means the full check.
    async fn refresh(&self) -> Result<(), Error> {
        if self.state.ready.load(Ordering::Acquire)
            && let Ok(marker) = self.store.commit_marker()
            && marker == self.state.checked_marker.load(Ordering::Acquire)
        {
            return Ok(());
        }
        self.state.freshness.ensure(|| self.poll()).await
    }

    async fn poll(&self) -> Result<(), Error> {
        let store = Arc::clone(&self.store);
        let farm_key = self.wants_farm_key();
        let seen = self
            .state
            .ready
            .load(Ordering::Acquire)
            .then(|| self.state.seen_seq.load(Ordering::Acquire));
        let loaded = tokio::task::spawn_blocking(move || load(&*store, farm_key, seen))
            .await
            .map_err(|error| Error::Join(error.to_string()))??;
        self.state.apply(loaded);
        Ok(())
    }

    /// Whether the link key is still to be read from the store.
    fn wants_farm_key(&self) -> bool {
        matches!(self.settings.link_key, LinkKeySource::Farm) && self.state.link_key.get().is_none()
    }

    fn slot(&self, wiki: &WikiId) -> Arc<Slot> {
        let generation = self.state.generation.load(Ordering::Acquire);
        let mut slots = self.state.slots.lock();
        if let Some(slot) = slots.get(wiki)
            && slot.generation == generation
        {
            return Arc::clone(slot);
        }
        let previous = slots.get(wiki).and_then(|slot| slot.server.get().cloned());
        let slot = Arc::new(Slot {
            generation,
            previous,
            server: OnceCell::new(),
        });
        slots.insert(wiki.clone(), Arc::clone(&slot));
        slot
    }
}

/// What one freshness check read.
struct Loaded {
    /// The commit marker read before the sequence (`None` when the probe failed).
    marker: Option<u64>,
    seq: u64,
    /// The rights, read when the sequence moved (or on the first load).
    rights: Option<RightsSnapshot>,
    /// The farm's link key, read on the first load when it comes from the store.
    link_key: Option<LinkKey>,
}

/// Reads the commit marker, the change sequence and, when the sequence is not `seen` (always on
/// the first load, `seen` = `None`), the rights snapshot; and the farm's link key when
/// `farm_key`. Runs on a blocking thread.
fn load(store: &dyn Store, farm_key: bool, seen: Option<u64>) -> Result<Loaded, StoreError> {
    // Read before the sequence: whatever commits after it moves the marker again.
    let marker = store.commit_marker().ok();
    let seq = store.change_seq()?;
    let rights = match seen {
        Some(seen) if seen == seq => None,
        _ => Some(store.rights_snapshot()?),
    };
    let link_key = if farm_key {
        Some(LinkKey::from_farm(store)?)
    } else {
        None
    };
    Ok(Loaded {
        marker,
        seq,
        rights,
        link_key,
    })
}

enum Absent {
    Wiki,
    Failed(Error),
}

/// Reads `wiki`'s inputs and builds its server, or returns `previous` when the inputs are the
/// same. Runs on a blocking thread (store reads).
fn build(
    store: &dyn Store,
    registry: &'static Registry,
    metrics: &Metrics,
    wiki: &WikiId,
    previous: Option<Arc<WikiServer>>,
) -> Result<Option<Arc<WikiServer>>, Error> {
    let Some(found) = store.wiki(wiki)? else {
        return Ok(None);
    };
    let inputs = EndpointInputs {
        pretty_name: found.pretty_name,
        config: store.mcp_config(wiki),
        reach: store.has_reach(wiki),
    };
    if let Some(previous) = previous.filter(|previous| previous.inputs == inputs) {
        return Ok(Some(previous));
    }
    let ids = effective_tools(registry, wiki, &inputs.config, inputs.reach);
    let user_tools = ToolSet::new(
        ids.iter()
            .filter_map(|id| registry.get(id))
            .filter_map(|tool| served(wiki, tool, inputs.reach)),
    );
    let guest_tools = user_tools.only(&guest_tools(registry, &ids));
    let description = inputs
        .config
        .description
        .as_deref()
        .map(str::trim)
        .filter(|description| !description.is_empty())
        .unwrap_or(DEFAULT_DESCRIPTION);
    let mut instructions = if user_tools.get(MAN).is_some() {
        format!("{description}\n\n{MAN_HINT}")
    } else {
        description.to_owned()
    };
    if inputs.config.confirm_writes {
        instructions = format!("{instructions}\n\n{}", crate::confirm::CONFIRM_WRITES_NOTE);
    }
    let filter = Arc::new(SpaceFilter::from_config(wiki, &inputs.config));
    tracing::debug!(wiki = %wiki, tools = %user_tools.names(), "built the wiki's MCP server");
    let meters = ToolMeters::new(
        metrics,
        wiki.as_str(),
        user_tools.iter().map(|tool| tool.id()),
    );
    Ok(Some(Arc::new(WikiServer {
        wiki: wiki.clone(),
        inputs,
        user_tools,
        guest_tools,
        instructions,
        filter,
        meters,
    })))
}

/// The schema variant a wiki's tools are advertised in: cross-wiki reach is the framework's
/// extended variant, whose extra parameters are the `wiki = ...` ones (declared
/// `#[param(extended)]`), so a wiki without reach never advertises them.
pub fn schema_variant(reach: bool) -> SchemaVariant {
    if reach {
        SchemaVariant::Extended
    } else {
        SchemaVariant::Standard
    }
}

/// The tool's definition for this reach, inside its own fault boundary: a definition that
/// panics or does not validate skips the tool with a WARN naming it.
fn served(
    wiki: &WikiId,
    tool: &'static mcp_runtime::RegisteredTool,
    reach: bool,
) -> Option<ServedTool> {
    match catch_unwind(AssertUnwindSafe(|| {
        ServedTool::new(tool, schema_variant(reach))
    })) {
        Ok(Ok(served)) => Some(served),
        Ok(Err(error)) => {
            tracing::warn!(wiki = %wiki, tool = tool.id(), %error, "skipping MCP tool: invalid definition");
            None
        }
        Err(panic) => {
            tracing::warn!(
                wiki = %wiki,
                tool = tool.id(),
                panic = panic_message(panic.as_ref()),
                "skipping MCP tool: building its definition panicked"
            );
            None
        }
    }
}
