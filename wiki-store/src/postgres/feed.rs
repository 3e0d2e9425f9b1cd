//! The change feed across processes: a listening connection on its own thread keeps an
//! in-memory commit marker, so [`crate::ChangeFeed::commit_marker`] never costs a round trip.
//!
//! Every committing write notifies `wiki_mcp_changes` with its new change sequence value, in its
//! transaction, so the notification arrives only once the commit is visible; every vector write
//! notifies `wiki_mcp_vectors` with its new vector sequence value alike. The marker is the sum
//! of the highest values of the two sequences this store knows of (each only grows, so the sum
//! is equal only while neither moved): raised by its own commits as they return, by
//! notifications of everyone's, and by polls. An own commit's notification carries a value the
//! marker holds already, so it does not move the marker twice; a commit by another process
//! moves it within a round trip.
//!
//! When the listening connection cannot be had (the server is down, a pooler that does not
//! support LISTEN, the connection was killed), the thread polls `change_seq` through the pool
//! every [`TICK`] and tries to listen again with a growing backoff; once listening again it
//! polls once, so nothing committed in between is missed. A connection that went silent is
//! checked every [`HEARTBEAT`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, Notification};

use crate::Result;
use crate::postgres::convert::{PgResultExt, RowExt, unsigned};
use crate::postgres::pool::{Conn, Pool};
use crate::postgres::write::{CHANGES_CHANNEL, VECTORS_CHANNEL};

/// How often a poll runs while not listening, and how long a wait for notifications lasts.
pub(crate) const TICK: Duration = Duration::from_millis(250);

/// How long a listening connection may stay silent before it is checked with a query.
const HEARTBEAT: Duration = Duration::from_secs(5);

/// The longest pause between two attempts to listen again.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// The state the listening thread and the store share.
#[derive(Debug, Default)]
pub(crate) struct Feed {
    marker: AtomicU64,
    vectors: AtomicU64,
    listening: AtomicBool,
    stopped: AtomicBool,
}

impl Feed {
    /// The highest change sequence value known here plus the highest vector sequence value.
    pub(crate) fn marker(&self) -> u64 {
        self.marker
            .load(Ordering::Acquire)
            .wrapping_add(self.vectors.load(Ordering::Acquire))
    }

    /// Notes a sequence value seen committed (own commit, notification or poll).
    pub(crate) fn committed(&self, seq: u64) {
        self.marker.fetch_max(seq, Ordering::AcqRel);
    }

    /// Notes a vector sequence value seen committed (own commit, notification or poll).
    pub(crate) fn vectors_committed(&self, seq: u64) {
        self.vectors.fetch_max(seq, Ordering::AcqRel);
    }

    /// Notes both sequences as a poll read them.
    fn polled(&self, (seq, vectors): (u64, u64)) {
        self.committed(seq);
        self.vectors_committed(vectors);
    }

    /// Whether the thread holds its listening connection now.
    pub(crate) fn listening(&self) -> bool {
        self.listening.load(Ordering::Acquire)
    }

    /// Asks the thread to stop (it does within a [`TICK`]).
    pub(crate) fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

/// Starts the listening thread. It ends when [`Feed::stop`] is called.
pub(crate) fn start(pool: Arc<Pool>, feed: Arc<Feed>) -> Result<()> {
    std::thread::Builder::new()
        .name("wiki-store-pg-feed".to_owned())
        .spawn(move || run(&pool, &feed))
        .map(drop)
        .map_err(crate::StoreError::backend)
}

fn run(pool: &Pool, feed: &Feed) {
    let mut backoff = TICK;
    while !feed.stopped() {
        match listen(pool) {
            Ok(client) => {
                feed.listening.store(true, Ordering::Release);
                backoff = TICK;
                let lost = follow(client, feed);
                feed.listening.store(false, Ordering::Release);
                if let Err(error) = lost {
                    tracing::warn!(error = %error, "lost the database's change notifications; polling until listening again");
                }
            }
            Err(error) => {
                tracing::debug!(error = %error, "cannot listen for the database's change notifications");
            }
        }
        // Not listening: poll every tick until it is time to try again.
        let retry_at = Instant::now() + backoff;
        while !feed.stopped() && Instant::now() < retry_at {
            if let Ok(seqs) = pool.get().and_then(|mut conn| read_seqs(&mut conn)) {
                feed.polled(seqs);
            }
            std::thread::sleep(TICK);
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// A connection listening on the changes and vectors channels.
fn listen(pool: &Pool) -> Result<Client> {
    let mut client = pool.connect_listener()?;
    client
        .batch_execute(&format!(
            "LISTEN {CHANGES_CHANNEL}; LISTEN {VECTORS_CHANNEL}"
        ))
        .pg()?;
    Ok(client)
}

/// Follows notifications until the connection fails (`Err`) or the feed stops (`Ok`).
fn follow(mut client: Client, feed: &Feed) -> Result<()> {
    // Commits made before LISTEN took effect sent nothing to us: one poll covers them.
    feed.polled(seqs_of(&mut client)?);
    let mut last_heard = Instant::now();
    while !feed.stopped() {
        let heard = {
            let mut notifications = client.notifications();
            let first = notifications.timeout_iter(TICK).next().pg()?;
            match first {
                None => false,
                Some(notification) => {
                    note(feed, &notification);
                    // Then whatever else is buffered already.
                    while let Some(notification) = notifications.iter().next().pg()? {
                        note(feed, &notification);
                    }
                    true
                }
            }
        };
        if heard {
            last_heard = Instant::now();
        } else if last_heard.elapsed() >= HEARTBEAT {
            // Silence is normal on a quiet farm; a query tells a dead connection from it, and
            // doubles as a poll.
            feed.polled(seqs_of(&mut client)?);
            last_heard = Instant::now();
        }
    }
    Ok(())
}

/// Notes the sequence a notification carries (a payload that is not one is not ours).
fn note(feed: &Feed, notification: &Notification) {
    if let Ok(seq) = notification.payload().parse::<u64>() {
        if notification.channel() == VECTORS_CHANNEL {
            feed.vectors_committed(seq);
        } else {
            feed.committed(seq);
        }
    }
}

/// Both sequences in one statement.
const SEQS: &str = "SELECT (SELECT value FROM change_seq WHERE id = 1), \
     (SELECT value FROM vector_seq WHERE id = 1)";

fn seqs_of(client: &mut Client) -> Result<(u64, u64)> {
    let row = client.query_one(SEQS, &[]).pg()?;
    Ok((
        unsigned(row.col::<i64>(0)?, "change sequence")?,
        unsigned(row.col::<i64>(1)?, "vector sequence")?,
    ))
}

/// Both sequences (change, vectors), on a pooled connection.
pub(crate) fn read_seqs(conn: &mut Conn) -> Result<(u64, u64)> {
    let row = conn.query_one(SEQS, &[])?;
    Ok((
        unsigned(row.col::<i64>(0)?, "change sequence")?,
        unsigned(row.col::<i64>(1)?, "vector sequence")?,
    ))
}
