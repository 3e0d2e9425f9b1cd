//! Admin sessions against another process holding the database's write lock.

use std::sync::mpsc;
use std::time::Duration;

use rusqlite::Connection;
use wiki_store::AdminStore;

use crate::harness::{database_file, store};

/// Regression: every `/admin` request carrying a cookie took the writer to look its session
/// up, so anonymous requests with made-up cookies queued behind (and slowed) every write. A
/// cookie naming no session is answered while another process holds the write lock.
#[test]
fn an_unknown_session_is_looked_up_without_the_writer() {
    let (dir, store) = store();
    let holder = Connection::open(database_file(&dir)).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let (sent, received) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sent.send(store.touch_admin_session(&[7; 32], 1_000));
    });
    let answer = received.recv_timeout(Duration::from_secs(60));
    holder.execute_batch("ROLLBACK").unwrap();
    match answer {
        Ok(Ok(found)) => assert!(found.is_none()),
        Ok(Err(error)) => panic!("the lookup needed the writer: {error}"),
        Err(_) => panic!("the lookup waited for the writer"),
    }
}
