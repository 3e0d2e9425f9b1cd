//! Start-up hooks: how a linked crate takes part in starting a server without the binary naming
//! it.
//!
//! Tools are collected from whatever the binary links (`#[mcp_tool]`, `inventory`); some tool
//! crates also need something running beside them while a server serves (a background indexer
//! on the store's change feed, a cache warmer) and a shared value in every call's context (a
//! loaded model). A crate registers a [`StartupHook`] with [`startup_hook!`](crate::startup_hook)
//! (`inventory` underneath, re-exported so the crate needs no dependency of its own); whoever
//! starts a server (`wiki-mcp serve` and `stdio`, or a custom binary) calls [`start_hooks`]
//! before it builds its server's manager: each hook gets the farm's store and the
//! data directory and returns the services its tools read ([`Started::with_service`]: values
//! every call's context carries, handed to the server with `ServerSettings::with_services`) and
//! what must keep running until the server stops ([`Started::with_guard`], dropped when the
//! returned [`RunningHooks`] is).
//!
//! ```
//! use wiki_tool_sdk::startup::{HookError, Started, Startup};
//!
//! /// What the tools read from their context (`ctx.extension::<Greeting>()`).
//! #[derive(Clone)]
//! struct Greeting(String);
//!
//! fn start(startup: &Startup<'_>) -> Result<Started, HookError> {
//!     let greeting = Greeting(format!("served from {}", startup.data_dir().display()));
//!     // A worker that stops when dropped would go in `with_guard`.
//!     Ok(Started::new().with_service(greeting))
//! }
//!
//! wiki_tool_sdk::startup_hook!("greeting", start);
//! ```
//!
//! A hook runs on the starting thread, outside the async runtime: it may block briefly (load a
//! file, subscribe to the change feed), and must hand long work to a thread of its own.

use std::any::Any;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use wiki_store::Store;

/// Why a hook could not start: the server then refuses to start (an operator reads it).
pub type HookError = Box<dyn std::error::Error + Send + Sync>;

/// A linked crate's part in starting a server (see the module docs).
pub struct StartupHook {
    /// The hook's name, for logs and errors (the crate's name is a good one).
    pub name: &'static str,
    /// Starts the hook's services.
    pub start: fn(&Startup<'_>) -> Result<Started, HookError>,
}

inventory::collect!(StartupHook);

#[doc(hidden)]
pub use inventory as __inventory;

/// Registers a [`StartupHook`] named `$name` running `$start`
/// (`fn(&Startup<'_>) -> Result<Started, HookError>`); at most one per crate is the habit.
#[macro_export]
macro_rules! startup_hook {
    ($name:expr, $start:expr $(,)?) => {
        $crate::startup::__inventory::submit! {
            $crate::startup::StartupHook { name: $name, start: $start }
        }
    };
}

/// What a hook is given: the store the server will serve and the farm's data directory.
#[derive(Clone, Copy)]
pub struct Startup<'a> {
    store: &'a Arc<dyn Store>,
    data_dir: &'a Path,
}

impl<'a> Startup<'a> {
    /// The store the server serves (a hook may subscribe to its change feed and keep a clone).
    pub fn store(&self) -> &'a Arc<dyn Store> {
        self.store
    }

    /// The local data directory (`--data`): where a hook keeps local files such as a model. A
    /// farm on a shared database has one too, for such files.
    pub fn data_dir(&self) -> &'a Path {
        self.data_dir
    }
}

/// What a hook started: services for the tools' context, guards to keep alive, and gauges the
/// server publishes.
#[derive(Default)]
pub struct Started {
    services: http::Extensions,
    guards: Vec<Box<dyn Any + Send>>,
    gauges: Vec<Gauge>,
}

/// A number a hook's worker keeps current (a queue's length, say), which the server publishes
/// with its metrics as `wiki_mcp_<name>`: the worker sets it, the server reads it when its
/// metrics are scraped. Clones share the value. Setting it is one atomic store.
#[derive(Debug, Clone)]
pub struct Gauge {
    name: &'static str,
    help: &'static str,
    value: Arc<AtomicI64>,
}

impl Gauge {
    /// A gauge named `name` (lowercase letters, digits and `_`, e.g.
    /// `semantic_index_backlog`), described by `help`, at 0.
    pub fn new(name: &'static str, help: &'static str) -> Self {
        Gauge {
            name,
            help,
            value: Arc::default(),
        }
    }

    /// Sets the value.
    pub fn set(&self, value: i64) {
        self.value.store(value, Ordering::Relaxed);
    }

    /// The value.
    pub fn get(&self) -> i64 {
        self.value.load(Ordering::Relaxed)
    }

    /// The name, without the server's `wiki_mcp_` prefix.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// What it measures.
    pub fn help(&self) -> &'static str {
        self.help
    }
}

impl Started {
    /// Nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A value every call's context carries (`ctx.extension::<T>()`).
    pub fn with_service<T: Clone + Send + Sync + 'static>(mut self, service: T) -> Self {
        self.services.insert(service);
        self
    }

    /// Something that must live as long as the server (a worker that stops when dropped).
    pub fn with_guard(mut self, guard: impl Send + 'static) -> Self {
        self.guards.push(Box::new(guard));
        self
    }

    /// A gauge the server publishes with its metrics (keep a clone to set it).
    pub fn with_gauge(mut self, gauge: Gauge) -> Self {
        self.gauges.push(gauge);
        self
    }
}

/// The guards of every started hook; dropping this stops them, the last started first.
pub struct RunningHooks {
    guards: Vec<(&'static str, Box<dyn Any + Send>)>,
    gauges: Vec<Gauge>,
}

impl RunningHooks {
    /// The gauges the hooks asked the server to publish ([`Started::with_gauge`]).
    pub fn gauges(&self) -> &[Gauge] {
        &self.gauges
    }
}

impl std::fmt::Debug for RunningHooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.guards.iter().map(|(name, _)| name))
            .finish()
    }
}

impl Drop for RunningHooks {
    fn drop(&mut self) {
        while let Some((name, guard)) = self.guards.pop() {
            tracing::debug!(hook = name, "stopping");
            drop(guard);
        }
    }
}

/// A hook that failed to start.
#[derive(Debug, thiserror::Error)]
#[error("the start-up hook `{hook}` failed: {source}")]
pub struct HookFailed {
    /// The hook's name.
    pub hook: &'static str,
    /// Why.
    #[source]
    pub source: HookError,
}

/// Runs every linked [`StartupHook`] (by name, so the order is stable) and returns their
/// services, for the server to put in every call's context. On a failure the hooks already
/// started are stopped.
pub fn start_hooks(
    store: &Arc<dyn Store>,
    data_dir: &Path,
) -> Result<(http::Extensions, RunningHooks), HookFailed> {
    let mut services = http::Extensions::new();
    let mut hooks: Vec<&StartupHook> = inventory::iter::<StartupHook>.into_iter().collect();
    hooks.sort_by_key(|hook| hook.name);
    let startup = Startup { store, data_dir };
    let mut running = RunningHooks {
        guards: Vec::new(),
        gauges: Vec::new(),
    };
    for hook in hooks {
        let started = (hook.start)(&startup).map_err(|source| HookFailed {
            hook: hook.name,
            source,
        })?;
        services.extend(started.services);
        running.gauges.extend(started.gauges);
        running
            .guards
            .extend(started.guards.into_iter().map(|guard| (hook.name, guard)));
        tracing::debug!(hook = hook.name, "started");
    }
    Ok((services, running))
}
