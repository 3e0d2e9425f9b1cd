//! The connection pool: at most `pool_size` connections, opened on demand, each with its
//! prepared statements.
//!
//! Our own rather than r2d2's: what a store needs is a bounded free list that connects lazily
//! (so a store exists while the database is down, and heals when it is back), never checks a
//! connection with a round trip on checkout, and keeps each connection's prepared statements
//! next to it (one round trip per statement instead of two). A connection found dead is
//! dropped, and so are the idle ones (after a server restart they are all dead); callers retry a
//! failure on a reused connection once on a fresh one when nothing was done yet
//! ([`Pooled::reused`]).

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};
use postgres::types::ToSql;
use postgres::{CancelToken, Client, NoTls, Row, Statement};

use crate::interrupt::Registration;
use crate::postgres::convert::PgResultExt;
use crate::postgres::migrations;
use crate::waits::Waits;
use crate::{PoolStats, Result, StoreError};

/// Prepared statements kept per connection; past this the cache starts over (dynamic queries
/// have many shapes, the hot ones come back at once).
const STATEMENT_CACHE: usize = 256;

/// Statement parameters, as the `postgres` crate takes them.
pub(crate) type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

/// One connection and its prepared statements.
pub(crate) struct Conn {
    client: Client,
    statements: HashMap<String, Statement>,
    /// Inside `BEGIN` … `COMMIT`/`ROLLBACK`: a connection handed back like this (a panic
    /// unwound through a transaction) is rolled back or dropped, never reused as it is.
    pub(crate) in_transaction: bool,
}

impl Conn {
    /// The prepared statement for `sql`; refused once the caller's interrupt scope fired, so
    /// an interrupt between two statements of a unit of work stops it at the next one.
    fn statement(&mut self, sql: &str) -> Result<Statement> {
        crate::interrupt::check()?;
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(sql).pg()?;
        if self.statements.len() >= STATEMENT_CACHE {
            self.statements.clear();
        }
        self.statements.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    /// Every row of a (cached) statement.
    pub(crate) fn query(&mut self, sql: &str, params: Params<'_>) -> Result<Vec<Row>> {
        let statement = self.statement(sql)?;
        self.client.query(&statement, params).pg()
    }

    /// The row of a statement returning at most one.
    pub(crate) fn query_opt(&mut self, sql: &str, params: Params<'_>) -> Result<Option<Row>> {
        let statement = self.statement(sql)?;
        self.client.query_opt(&statement, params).pg()
    }

    /// The row of a statement returning exactly one.
    pub(crate) fn query_one(&mut self, sql: &str, params: Params<'_>) -> Result<Row> {
        let statement = self.statement(sql)?;
        self.client.query_one(&statement, params).pg()
    }

    /// Runs a statement; the number of rows it changed.
    pub(crate) fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<u64> {
        let statement = self.statement(sql)?;
        self.client.execute(&statement, params).pg()
    }

    /// Runs statements without parameters or results (transaction control, migrations).
    pub(crate) fn batch(&mut self, sql: &str) -> Result<()> {
        self.client.batch_execute(sql).pg()
    }

    /// Opens a transaction (`BEGIN` with its mode, e.g. `ISOLATION LEVEL READ COMMITTED`).
    pub(crate) fn begin(&mut self, mode: &str) -> Result<()> {
        self.batch(&format!("BEGIN {mode}"))?;
        self.in_transaction = true;
        Ok(())
    }

    /// Commits the open transaction.
    pub(crate) fn commit(&mut self) -> Result<()> {
        let done = self.batch("COMMIT");
        self.in_transaction = false;
        done
    }

    /// Rolls the open transaction back; a connection that cannot is closed by the pool.
    pub(crate) fn rollback(&mut self) -> Result<()> {
        let done = self.batch("ROLLBACK");
        if done.is_ok() {
            self.in_transaction = false;
        }
        done
    }

    fn is_closed(&self) -> bool {
        self.client.is_closed()
    }
}

/// How the pool opens connections and how many it may hold.
pub(crate) struct Pool {
    connect: postgres::Config,
    max: usize,
    wait: Duration,
    state: Mutex<State>,
    freed: Condvar,
    /// Held while the schema is brought up to date, once per store: the first connection
    /// opened migrates (under an advisory lock, so replicas starting together take turns).
    schema_ready: Mutex<bool>,
    /// Checkouts that found every connection lent.
    waits: Waits,
}

struct State {
    idle: Vec<Conn>,
    /// Connections open, idle or lent.
    open: usize,
}

impl Pool {
    /// A pool of at most `max` connections opened with `connect`; nothing is opened yet.
    pub(crate) fn new(connect: postgres::Config, max: usize, wait: Duration) -> Self {
        Pool {
            connect,
            max: max.max(1),
            wait,
            state: Mutex::new(State {
                idle: Vec::new(),
                open: 0,
            }),
            freed: Condvar::new(),
            schema_ready: Mutex::new(false),
            waits: Waits::default(),
        }
    }

    /// The connections lent and idle now, and the waits so far.
    pub(crate) fn stats(&self) -> PoolStats {
        let (open, idle) = {
            let state = self.state.lock();
            (state.open, state.idle.len())
        };
        let (waits, waited) = self.waits.read();
        PoolStats {
            max: self.max,
            in_use: open.saturating_sub(idle),
            idle,
            waits,
            waited,
        }
    }

    /// A connection: an idle one (the most recently used, whose caches are warm), a new one
    /// while fewer than the bound are open, or the next one handed back within the wait;
    /// [`StoreError::Unavailable`] when none comes or the server cannot be reached.
    pub(crate) fn get(&self) -> Result<Pooled<'_>> {
        let deadline = Instant::now() + self.wait;
        let mut state = self.state.lock();
        loop {
            while let Some(conn) = state.idle.pop() {
                if conn.is_closed() {
                    state.open -= 1;
                    continue;
                }
                drop(state);
                return Pooled::lend(self, conn, true);
            }
            if state.open < self.max {
                state.open += 1;
                drop(state);
                return match self.open() {
                    Ok(conn) => Pooled::lend(self, conn, false),
                    Err(error) => {
                        self.state.lock().open -= 1;
                        self.freed.notify_one();
                        Err(error)
                    }
                };
            }
            let waiting = Instant::now();
            let timed_out = self.freed.wait_until(&mut state, deadline).timed_out();
            self.waits.add(waiting.elapsed());
            if timed_out {
                return Err(StoreError::unavailable(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!(
                        "all {} database connections stayed busy for {} ms",
                        self.max,
                        self.wait.as_millis()
                    ),
                )));
            }
        }
    }

    /// A connection of its own, outside the pool's bound, for the change feed: named
    /// `<application name> changes`, so an operator tells it from the pooled ones.
    pub(crate) fn connect_listener(&self) -> Result<Client> {
        let mut config = self.connect.clone();
        let name = format!(
            "{} changes",
            self.connect.get_application_name().unwrap_or("wiki-mcp")
        );
        config.application_name(&name);
        config.connect(NoTls).pg()
    }

    fn open(&self) -> Result<Conn> {
        let mut conn = Conn {
            client: self.connect.connect(NoTls).pg()?,
            statements: HashMap::new(),
            in_transaction: false,
        };
        let mut ready = self.schema_ready.lock();
        if !*ready {
            migrations::migrate(&mut conn)?;
            *ready = true;
        }
        Ok(conn)
    }

    /// Drops every idle connection: one was found dead, so the server restarted or the network
    /// broke, and the others are most likely dead too.
    pub(crate) fn discard_idle(&self) {
        let mut state = self.state.lock();
        let dropped = state.idle.len();
        state.idle.clear();
        state.open -= dropped;
        drop(state);
        self.freed.notify_all();
    }

    fn put_back(&self, mut conn: Conn) {
        if conn.in_transaction && conn.rollback().is_err() {
            conn.in_transaction = true;
        }
        let mut state = self.state.lock();
        if conn.in_transaction || conn.is_closed() {
            state.open -= 1;
        } else {
            state.idle.push(conn);
        }
        drop(state);
        self.freed.notify_one();
    }
}

/// A connection lent by the pool; handed back when dropped.
pub(crate) struct Pooled<'p> {
    pool: &'p Pool,
    conn: Option<Conn>,
    reused: bool,
    /// How the caller's interrupt scope cancels this connection's statement, if one is open.
    interrupt: Option<Registration>,
}

impl<'p> Pooled<'p> {
    /// Lends `conn`, registered with the interrupt scope open on this thread; a scope that
    /// already fired hands the connection straight back.
    fn lend(pool: &'p Pool, conn: Conn, reused: bool) -> Result<Self> {
        let interrupt = match crate::interrupt::register(|| cancel(conn.client.cancel_token())) {
            Ok(interrupt) => interrupt,
            Err(error) => {
                pool.put_back(conn);
                return Err(error);
            }
        };
        Ok(Pooled {
            pool,
            conn: Some(conn),
            reused,
            interrupt,
        })
    }

    /// Whether the connection served earlier calls (it may have died since): a failure to reach
    /// the server on its first statement is worth one more try on a fresh connection.
    pub(crate) fn reused(&self) -> bool {
        self.reused
    }
}

impl Deref for Pooled<'_> {
    type Target = Conn;

    fn deref(&self) -> &Conn {
        // Present from creation until drop.
        self.conn
            .as_ref()
            .unwrap_or_else(|| unreachable!("a lent connection is present"))
    }
}

impl DerefMut for Pooled<'_> {
    fn deref_mut(&mut self) -> &mut Conn {
        self.conn
            .as_mut()
            .unwrap_or_else(|| unreachable!("a lent connection is present"))
    }
}

/// The interrupt of a connection: PostgreSQL's cancel request, which stops the statement the
/// server runs for it (if any) with `query_canceled`.
fn cancel(token: CancelToken) -> impl Fn() + Send + Sync + 'static {
    move || {
        if let Err(error) = token.cancel_query(NoTls) {
            tracing::debug!(%error, "a statement could not be cancelled");
        }
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        // Withdrawn first: an interrupt must not reach the connection's next borrower.
        drop(self.interrupt.take());
        if let Some(conn) = self.conn.take() {
            self.pool.put_back(conn);
        }
    }
}
