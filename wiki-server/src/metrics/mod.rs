//! The server's Prometheus metrics: what happened to calls and requests, and how full the
//! queues and pools are.
//!
//! One [`Metrics`] per manager, with a registry of its own (no process-wide recorder: two
//! servers in one process, as in tests, keep their own counts). Served as Prometheus text at
//! `/metrics` to a farm administrator's token (`http/metrics.rs`), and on `--metrics-listen`.
//!
//! The request path records through handles resolved once: a call's counters and histogram are
//! looked up the first time a wiki's server sees that tool (`calls::ToolMeters`), HTTP
//! statuses the server answers are resolved when the registry is made, and gauges are atomics.
//! What others keep (the store's pool, the audit queue, a start-up hook's backlog) is read
//! when the metrics are scraped, not on the request path.
//!
//! | metric | type | labels |
//! |---|---|---|
//! | `wiki_mcp_tool_calls_total` | counter | `wiki`, `tool`, `outcome` |
//! | `wiki_mcp_tool_call_duration_seconds` | histogram | `wiki`, `tool` |
//! | `wiki_mcp_http_responses_total` | counter | `status` |
//! | `wiki_mcp_authentication_refusals_total` | counter | `reason` (`invalid-token`, `token-required`) |
//! | `wiki_mcp_rate_limited_requests_total` | counter | `limit` (`mcp`, `pages`) |
//! | `wiki_mcp_http_open_connections` | gauge | |
//! | `wiki_mcp_http_open_streams` | gauge | (SSE responses being streamed) |
//! | `wiki_mcp_store_errors_total` | counter | `kind` (`unavailable`, `failed`) |
//! | `wiki_mcp_db_pool_connections` | gauge | `state` (`in_use`, `idle`) |
//! | `wiki_mcp_db_pool_max_connections` | gauge | |
//! | `wiki_mcp_db_pool_waits_total` | counter | |
//! | `wiki_mcp_db_pool_wait_seconds_total` | counter | |
//! | `wiki_mcp_audit_queue_depth` | gauge | (calls waiting to be written to the farm's audit record) |
//! | `wiki_mcp_<name>` | gauge | one per start-up hook gauge (`semantic_index_backlog`) |

pub(crate) mod calls;

use std::sync::Arc;

use parking_lot::Mutex;
use prometheus::core::Collector;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use wiki_store::Store;
use wiki_tool_sdk::startup::Gauge;

use crate::audit::RecentCalls;

/// Call durations, in seconds: from a quick read to the longest timeout.
const CALL_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// The statuses this server answers, resolved once; any other is looked up when it happens.
const KNOWN_STATUSES: &[u16] = &[
    200, 202, 204, 303, 400, 401, 403, 404, 405, 406, 408, 413, 415, 422, 429, 500, 503,
];

/// The metrics of one server (see the module documentation).
pub struct Metrics {
    registry: Registry,
    pub(crate) calls: IntCounterVec,
    pub(crate) call_seconds: HistogramVec,
    responses: IntCounterVec,
    known_responses: Vec<(u16, IntCounter)>,
    auth_refused: IntCounterVec,
    rate_limited: IntCounterVec,
    pub(crate) open_connections: IntGauge,
    pub(crate) open_streams: IntGauge,
    store_errors: IntCounterVec,
    pool_connections: IntGaugeVec,
    pool_max: IntGauge,
    pool_waits: IntCounter,
    pool_wait_seconds: prometheus::Counter,
    audit_queue: IntGauge,
    /// What is read at scrape time.
    sources: Mutex<Sources>,
}

/// What the metrics read from others when scraped.
#[derive(Default)]
struct Sources {
    store: Option<Arc<dyn Store>>,
    audit: Option<Arc<RecentCalls>>,
    gauges: Vec<(Gauge, IntGauge)>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// An empty registry with every metric of the table registered.
    pub fn new() -> Self {
        let registry = Registry::new();
        let calls = counter_vec(
            &registry,
            "wiki_mcp_tool_calls_total",
            "Tool calls by wiki, tool and outcome (the audit's outcome).",
            &["wiki", "tool", "outcome"],
        );
        let call_seconds = HistogramVec::new(
            HistogramOpts::new(
                "wiki_mcp_tool_call_duration_seconds",
                "How long tool calls ran, by wiki and tool.",
            )
            .buckets(CALL_BUCKETS.to_vec()),
            &["wiki", "tool"],
        )
        .unwrap_or_else(|error| unreachable_metric(&error));
        register(&registry, call_seconds.clone());
        let responses = counter_vec(
            &registry,
            "wiki_mcp_http_responses_total",
            "HTTP responses by status (every route).",
            &["status"],
        );
        let known_responses = KNOWN_STATUSES
            .iter()
            .map(|status| {
                (
                    *status,
                    responses.with_label_values(&[status.to_string().as_str()]),
                )
            })
            .collect();
        let auth_refused = counter_vec(
            &registry,
            "wiki_mcp_authentication_refusals_total",
            "Requests refused for their credentials: a token that is invalid or revoked, or \
             none where one is required.",
            &["reason"],
        );
        let rate_limited = counter_vec(
            &registry,
            "wiki_mcp_rate_limited_requests_total",
            "Requests answered 429: MCP requests per caller, link pages per address.",
            &["limit"],
        );
        let open_connections = gauge(
            &registry,
            "wiki_mcp_http_open_connections",
            "HTTP connections open now.",
        );
        let open_streams = gauge(
            &registry,
            "wiki_mcp_http_open_streams",
            "Server-sent event streams being answered now (calls that report progress).",
        );
        let store_errors = counter_vec(
            &registry,
            "wiki_mcp_store_errors_total",
            "Store operations that failed: unavailable (the database did not answer, retry) \
             or failed (the log says why).",
            &["kind"],
        );
        let pool_connections = IntGaugeVec::new(
            Opts::new(
                "wiki_mcp_db_pool_connections",
                "The store's database connections, in use or idle.",
            ),
            &["state"],
        )
        .unwrap_or_else(|error| unreachable_metric(&error));
        register(&registry, pool_connections.clone());
        let pool_max = gauge(
            &registry,
            "wiki_mcp_db_pool_max_connections",
            "The most database connections the store opens (--db-pool-size).",
        );
        let pool_waits = IntCounter::new(
            "wiki_mcp_db_pool_waits_total",
            "Store operations that waited for a connection, every one being busy.",
        )
        .unwrap_or_else(|error| unreachable_metric(&error));
        register(&registry, pool_waits.clone());
        let pool_wait_seconds = prometheus::Counter::new(
            "wiki_mcp_db_pool_wait_seconds_total",
            "Time store operations spent waiting for a connection.",
        )
        .unwrap_or_else(|error| unreachable_metric(&error));
        register(&registry, pool_wait_seconds.clone());
        let audit_queue = gauge(
            &registry,
            "wiki_mcp_audit_queue_depth",
            "Calls waiting to be written to the farm's audit record.",
        );
        Metrics {
            registry,
            calls,
            call_seconds,
            responses,
            known_responses,
            auth_refused,
            rate_limited,
            open_connections,
            open_streams,
            store_errors,
            pool_connections,
            pool_max,
            pool_waits,
            pool_wait_seconds,
            audit_queue,
            sources: Mutex::default(),
        }
    }

    /// Counts a response with `status`.
    pub(crate) fn response(&self, status: u16) {
        match self
            .known_responses
            .iter()
            .find(|(known, _)| *known == status)
        {
            Some((_, counter)) => counter.inc(),
            None => self
                .responses
                .with_label_values(&[status.to_string().as_str()])
                .inc(),
        }
    }

    /// Counts a request refused for its credentials (`invalid-token`, `token-required`).
    pub(crate) fn authentication_refused(&self, reason: &'static str) {
        self.auth_refused.with_label_values(&[reason]).inc();
    }

    /// Counts a request answered 429 by the `limit` (`mcp` or `pages`) bucket.
    pub(crate) fn rate_limited(&self, limit: &'static str) {
        self.rate_limited.with_label_values(&[limit]).inc();
    }

    /// Counts a store failure seen by the HTTP layer (`unavailable` or `failed`).
    pub(crate) fn store_error(&self, kind: &'static str) {
        self.store_errors.with_label_values(&[kind]).inc();
    }

    /// Reads the store's pool and the audit queue at every scrape.
    pub(crate) fn watch(&self, store: Arc<dyn Store>, audit: Arc<RecentCalls>) {
        let mut sources = self.sources.lock();
        sources.store = Some(store);
        sources.audit = Some(audit);
    }

    /// Publishes `gauge` (a start-up hook's, such as the semantic indexer's backlog) as
    /// `wiki_mcp_<name>`, read at every scrape. A name already taken is logged and skipped.
    pub fn publish(&self, gauge: Gauge) {
        let published = IntGauge::new(format!("wiki_mcp_{}", gauge.name()), gauge.help())
            .map_err(|error| error.to_string())
            .and_then(|metric| {
                self.registry
                    .register(Box::new(metric.clone()))
                    .map(|()| metric)
                    .map_err(|error| error.to_string())
            });
        match published {
            Ok(metric) => self.sources.lock().gauges.push((gauge, metric)),
            Err(error) => {
                tracing::warn!(name = gauge.name(), %error, "a start-up hook's gauge is not published");
            }
        }
    }

    /// Every metric in Prometheus's text format (version 0.0.4).
    pub fn render(&self) -> String {
        self.read_sources();
        let mut text = Vec::new();
        if let Err(error) = TextEncoder::new().encode(&self.registry.gather(), &mut text) {
            tracing::error!(%error, "could not encode the metrics");
        }
        String::from_utf8_lossy(&text).into_owned()
    }

    fn read_sources(&self) {
        let sources = self.sources.lock();
        if let Some(store) = &sources.store {
            let pool = store.pool_stats();
            self.pool_max.set(saturating_i64(pool.max));
            self.pool_connections
                .with_label_values(&["in_use"])
                .set(saturating_i64(pool.in_use));
            self.pool_connections
                .with_label_values(&["idle"])
                .set(saturating_i64(pool.idle));
            catch_up(&self.pool_waits, pool.waits);
            let waited = pool.waited.as_secs_f64() - self.pool_wait_seconds.get();
            if waited > 0.0 {
                self.pool_wait_seconds.inc_by(waited);
            }
        }
        let (unavailable, failed) = wiki_tool_sdk::access::store_errors();
        catch_up(
            &self.store_errors.with_label_values(&["unavailable"]),
            unavailable,
        );
        catch_up(&self.store_errors.with_label_values(&["failed"]), failed);
        if let Some(audit) = &sources.audit {
            self.audit_queue.set(saturating_i64(audit.pending_len()));
        }
        for (gauge, metric) in &sources.gauges {
            metric.set(gauge.get());
        }
    }
}

/// Raises `counter` to `total`, a count kept elsewhere that only grows.
fn catch_up(counter: &IntCounter, total: u64) {
    let current = counter.get();
    if total > current {
        counter.inc_by(total - current);
    }
}

fn saturating_i64(value: impl TryInto<i64>) -> i64 {
    value.try_into().unwrap_or(i64::MAX)
}

fn counter_vec(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let metric = IntCounterVec::new(Opts::new(name, help), labels)
        .unwrap_or_else(|error| unreachable_metric(&error));
    register(registry, metric.clone());
    metric
}

fn gauge(registry: &Registry, name: &str, help: &str) -> IntGauge {
    let metric = IntGauge::new(name, help).unwrap_or_else(|error| unreachable_metric(&error));
    register(registry, metric.clone());
    metric
}

fn register(registry: &Registry, metric: impl Collector + 'static) {
    if let Err(error) = registry.register(Box::new(metric)) {
        unreachable_metric(&error);
    }
}

/// The metrics above have fixed, valid names, unique in a fresh registry: failing to make or
/// register one is a bug of this module, caught by its tests.
fn unreachable_metric(error: &prometheus::Error) -> ! {
    panic!("a built-in metric is invalid: {error}")
}
