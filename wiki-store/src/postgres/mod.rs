//! The PostgreSQL backend (feature `postgres`): one farm in one database, shared by any number
//! of processes (replicas of a server, admin commands).
//!
//! Layout: `pool` (bounded connections with their prepared statements), `write` (transactions,
//! row locks, bounded retries, the change sequence), `feed` (LISTEN/NOTIFY across processes and
//! the in-memory commit marker), `migrations` + `sql/` (schema), then one file per aggregate
//! implementing the row traits of `crate::flow` with its statements, as the SQLite backend does;
//! the store's methods are written once over `crate::backend::Backend`, which
//! [`PostgresStore`] implements here. Full-text search is
//! PostgreSQL's own: a `tsvector` per row kept by a trigger in the writing transaction, a GIN
//! index, `ts_rank` with the title weighted over the content, `ts_headline` snippets.
//!
//! Connections are plain TCP or Unix sockets: TLS is not supported yet (`sslmode=require` is
//! refused), so the database must be on loopback or a private network, or behind a
//! TLS-terminating proxy.

mod admin;
mod attachments;
mod binds;
mod changes;
mod config;
mod convert;
mod documents;
mod feed;
mod hierarchy;
mod history;
mod identities;
mod import;
mod leases;
mod links;
pub(crate) mod migrations;
mod object_query;
mod objects;
mod pool;
mod rights;
mod search;
mod secrets;
mod tokens;
mod trash;
mod users;
mod vectors;
mod wikis;
mod write;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crate::backend::Backend;
use crate::config::StoreConfig;
use crate::error::InvalidInput;
use crate::listeners::Listeners;
use crate::postgres::convert::is_conflict;
use crate::postgres::feed::Feed;
use crate::postgres::pool::{Conn, Pool};
use crate::postgres::write::{Failed, WriteTx};
use crate::{Result, StoreError};

/// How long a connection may sit idle inside a transaction before the server ends it: a
/// process that hangs mid-write must not hold its row locks for ever.
const IDLE_IN_TRANSACTION_MS: u32 = 60_000;

/// The PostgreSQL store. Cheap to clone; clones share the pool, the listeners and the feed.
#[derive(Clone)]
pub struct PostgresStore {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Arc<Pool>,
    listeners: Arc<Listeners>,
    feed: Arc<Feed>,
    config: StoreConfig,
    /// Where the database is, for logs (never the password).
    target: String,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.feed.stop();
    }
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("database", &self.inner.target)
            .finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// Connects to the database at `url` with the default configuration; see
    /// [`PostgresStore::connect_with`].
    pub fn connect(url: &str) -> Result<Self> {
        PostgresStore::connect_with(url, StoreConfig::default())
    }

    /// A store over the database at `url` (`postgres://user:password@host:port/database`, or
    /// libpq's `key=value` form; a Unix socket with `host=/run/postgresql`).
    ///
    /// The database need not be reachable: a store is returned anyway, logged at WARN, and
    /// every call reports [`StoreError::Unavailable`] until the server answers, then works
    /// (the first connection creates or upgrades the schema). A URL that does not parse, TLS
    /// required (not supported yet) or a database whose schema is newer than this build
    /// ([`StoreError::SchemaTooNew`], when it can be read) are refused.
    pub fn connect_with(url: &str, config: StoreConfig) -> Result<Self> {
        let connect = connection_config(url, &config)?;
        let target = describe(&connect);
        let pool = Arc::new(Pool::new(
            connect,
            config.pool_size,
            Duration::from_millis(u64::from(config.connect_timeout_ms)),
        ));
        let feed = Arc::new(Feed::default());
        match pool.get().and_then(|mut conn| feed::read_seqs(&mut conn)) {
            Ok((seq, vectors)) => {
                feed.committed(seq);
                feed.vectors_committed(vectors);
            }
            Err(error @ StoreError::Unavailable(_)) => {
                tracing::warn!(database = %target, error = %error, source = ?std::error::Error::source(&error), "database unreachable; the store connects when it answers");
            }
            Err(error) => return Err(error),
        }
        feed::start(Arc::clone(&pool), Arc::clone(&feed))?;
        Ok(PostgresStore {
            inner: Arc::new(Inner {
                pool,
                listeners: Arc::default(),
                feed,
                config,
                target,
            }),
        })
    }

    /// The configuration the store was opened with.
    pub fn config(&self) -> &StoreConfig {
        &self.inner.config
    }

    /// One round trip to the database: `Ok` when it answers (and its schema is this build's),
    /// [`StoreError::Unavailable`] when it does not. What a health check asks.
    pub fn check_connection(&self) -> Result<()> {
        self.read(|conn| conn.query_one("SELECT 1", &[]).map(drop))
    }

    /// Whether this store currently receives other processes' commits as notifications (else
    /// it polls for them every 250 ms until it can listen again).
    pub fn is_listening(&self) -> bool {
        self.inner.feed.listening()
    }

    pub(crate) fn pool(&self) -> &Pool {
        &self.inner.pool
    }

    pub(crate) fn feed(&self) -> &Feed {
        &self.inner.feed
    }
}

impl Backend for PostgresStore {
    type Read<'c> = Conn;
    type Write<'t> = WriteTx<'t>;

    fn config(&self) -> &StoreConfig {
        &self.inner.config
    }

    /// Each statement on its own (for reads of one statement, which sees one snapshot by
    /// itself). A connection that died while pooled is replaced once.
    fn read<T>(&self, mut f: impl FnMut(&mut Self::Read<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.pool().get()?;
        let outcome = f(&mut conn);
        let outcome = match outcome {
            Err(StoreError::Unavailable(_)) if conn.reused() => {
                drop(conn);
                self.pool().discard_idle();
                let mut fresh = self.pool().get()?;
                f(&mut fresh)
            }
            other => other,
        };
        outcome.map_err(busy_as_unavailable)
    }

    /// One read-only `REPEATABLE READ` transaction, so reads of several statements see one
    /// snapshot, as a SQLite read transaction does.
    fn snapshot<T>(&self, mut f: impl FnMut(&mut Self::Read<'_>) -> Result<T>) -> Result<T> {
        self.read(|conn| {
            conn.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY")?;
            match f(conn) {
                Ok(value) => {
                    conn.commit()?;
                    Ok(value)
                }
                Err(error) => {
                    // The failure is the answer; a connection that cannot roll back is dropped.
                    let _ = conn.rollback();
                    Err(error)
                }
            }
        })
    }

    /// One write transaction, again from the start when it collides with a concurrent writer
    /// (at most [`write::MAX_ATTEMPTS`] times, then [`StoreError::ConcurrentSave`]). `f` re-reads
    /// what it plans on, and its events are queued afresh each time.
    fn write<T>(&self, mut f: impl FnMut(&mut Self::Write<'_>) -> Result<T>) -> Result<T> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            match write::attempt(self.pool(), &self.inner.config.clock, &mut f) {
                Ok((value, seq, vectors, events)) => {
                    if let Some(seq) = seq {
                        self.feed().committed(seq);
                    }
                    if let Some(vectors) = vectors {
                        self.feed().vectors_committed(vectors);
                    }
                    self.inner
                        .listeners
                        .publish_committed(seq.unwrap_or(0), events);
                    return Ok(value);
                }
                Err(Failed::Retry(error)) if attempt < write::MAX_ATTEMPTS => {
                    tracing::debug!(attempt, error = %error, source = ?std::error::Error::source(&error), "write collided; retrying");
                    std::thread::sleep(write::backoff(attempt));
                }
                Err(Failed::Retry(error)) => {
                    tracing::warn!(attempts = attempt, source = ?std::error::Error::source(&error), "write given up to concurrent writers");
                    return Err(StoreError::ConcurrentSave { attempts: attempt });
                }
                Err(Failed::Fail(error)) => return Err(error),
            }
        }
    }

    fn listeners(&self) -> &Arc<Listeners> {
        &self.inner.listeners
    }

    /// The highest change sequence this store has seen committed, kept in memory by its own
    /// commits and the listening thread (notifications, or polls every 250 ms while it cannot
    /// listen): reading it costs no round trip, and a commit by another process moves it
    /// within a second. It moves with the change sequence and the vector sequence (the sum of
    /// the two), so a commit that changed neither (a no-op save, a token use, a lease) leaves
    /// it as it is.
    fn commit_marker(&self) -> Result<u64> {
        Ok(self.inner.feed.marker())
    }

    fn pool_stats(&self) -> crate::PoolStats {
        self.inner.pool.stats()
    }
}

/// A read that waited past `lock_timeout` (the schema being migrated, a table locked by hand)
/// found the database busy, which is transient.
fn busy_as_unavailable(error: StoreError) -> StoreError {
    if is_conflict(&error) {
        match error {
            StoreError::Backend(source) => StoreError::Unavailable(source),
            other => other,
        }
    } else {
        error
    }
}

/// The connection settings: the URL's, with the store's timeouts and name added.
fn connection_config(url: &str, config: &StoreConfig) -> Result<postgres::Config> {
    let mut connect =
        postgres::Config::from_str(url).map_err(|error| InvalidInput::DatabaseUrl {
            reason: error.to_string(),
        })?;
    if connect.get_ssl_mode() == postgres::config::SslMode::Require {
        return Err(InvalidInput::DatabaseUrl {
            reason: "TLS (sslmode=require) is not supported yet: reach the database over \
                     loopback or a private network, or through a TLS-terminating proxy"
                .to_owned(),
        }
        .into());
    }
    if connect.get_hosts().is_empty() {
        return Err(InvalidInput::DatabaseUrl {
            reason: "it names no host (add @host:port, or host=/path/of/the/socket/directory)"
                .to_owned(),
        }
        .into());
    }
    let settings = format!(
        "-c statement_timeout={} -c lock_timeout={} -c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}",
        config.statement_timeout_ms, config.lock_timeout_ms
    );
    let options = match connect.get_options() {
        Some(own) if !own.trim().is_empty() => format!("{own} {settings}"),
        _ => settings,
    };
    connect.options(&options);
    if connect.get_application_name().is_none() {
        connect.application_name("wiki-mcp");
    }
    connect.connect_timeout(Duration::from_millis(u64::from(config.connect_timeout_ms)));
    // The server's NOTICEs (`relation ... already exists, skipping` each time the schema is
    // checked, hundreds during a migration) say nothing an operator acts on: DEBUG, where the
    // client library would log them at INFO.
    connect.notice_callback(|notice| {
        tracing::debug!(
            target: "wiki_store::postgres::notice",
            severity = notice.severity(),
            "{}",
            notice.message()
        );
    });
    Ok(connect)
}

/// `user@host:port/database`, for logs.
fn describe(connect: &postgres::Config) -> String {
    let host = match connect.get_hosts().first() {
        Some(postgres::config::Host::Tcp(host)) => host.clone(),
        Some(postgres::config::Host::Unix(path)) => path.display().to_string(),
        None => String::new(),
    };
    let port = connect.get_ports().first().copied().unwrap_or(5432);
    format!(
        "{}@{host}:{port}/{}",
        connect.get_user().unwrap_or(""),
        connect.get_dbname().unwrap_or("")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_get_the_store_timeouts_and_keep_their_own_options() {
        let config = StoreConfig {
            statement_timeout_ms: 1234,
            lock_timeout_ms: 99,
            ..StoreConfig::default()
        };
        let connect = connection_config(
            "postgres://wiki:secret@127.0.0.1:5433/farm?options=-c%20work_mem%3D8MB",
            &config,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let options = connect.get_options().unwrap_or_default();
        assert!(options.starts_with("-c work_mem=8MB "), "{options}");
        assert!(options.contains("statement_timeout=1234"), "{options}");
        assert!(options.contains("lock_timeout=99"), "{options}");
        assert_eq!(connect.get_application_name(), Some("wiki-mcp"));
        assert_eq!(describe(&connect), "wiki@127.0.0.1:5433/farm");
        assert!(!describe(&connect).contains("secret"));
    }

    #[test]
    fn malformed_urls_tls_and_hostless_urls_are_refused() {
        let config = StoreConfig::default();
        for url in [
            "postgres://127.0.0.1:notaport/farm",
            "postgres://127.0.0.1/farm?sslmode=require",
            "dbname=farm",
        ] {
            assert!(
                matches!(
                    connection_config(url, &config),
                    Err(StoreError::Invalid(InvalidInput::DatabaseUrl { .. }))
                ),
                "{url}"
            );
        }
    }
}
