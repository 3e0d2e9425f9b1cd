//! The log's writer: lines gathered in memory by the threads that log, written in bursts by one
//! thread of its own.
//!
//! A loaded server logs an audit line per tool call, tens of thousands a second. The lines must
//! not cost the request path a `write(2)` each, and nothing may be lost to load. A logging
//! thread appends its line to a shared buffer under a short lock and goes on; a writer thread
//! wakes every [`WRITE_EVERY`] (or at once when [`WRITE_AT`] bytes wait), takes the whole
//! buffer and writes it with one call. A buffer at [`MAX_WAITING`] bytes (the sink stalls: a
//! full disk, a terminal paused) makes the logging threads wait until it is written: the log
//! slows the server down rather than dropping lines.
//!
//! Why not `tracing_appender::non_blocking`, which this replaced: its worker waits on a channel
//! whose receiver spins and yields before it sleeps, and each line sent to a sleeping worker
//! wakes it. At 45,000 lines a second that spinning and waking was 4-5% of the server's CPU
//! in the load bench's profile, on a machine whose two cores the request path needs; this
//! writer wakes about a hundred times a second, whatever the load.

use std::io::Write;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use parking_lot::{Condvar, Mutex};
use tracing_subscriber::fmt::MakeWriter;

/// How long a line waits at most before it is written.
pub(crate) const WRITE_EVERY: Duration = Duration::from_millis(10);

/// Bytes waiting that wake the writer before [`WRITE_EVERY`].
pub(crate) const WRITE_AT: usize = 64 * 1024;

/// Bytes waiting beyond which a logging thread waits for the writer.
pub(crate) const MAX_WAITING: usize = 4 * 1024 * 1024;

#[derive(Default)]
struct Waiting {
    bytes: Vec<u8>,
    /// The guard was dropped: write what waits, then stop.
    closing: bool,
}

struct Shared {
    waiting: Mutex<Waiting>,
    /// Signalled when the writer took the buffer (room again for a waiting logger).
    written: Condvar,
}

/// The subscriber's writer: each line is appended to the shared buffer.
#[derive(Clone)]
pub(crate) struct LineWriter {
    shared: Arc<Shared>,
    writer: std::thread::Thread,
}

/// Stops the writer thread when dropped, after it has written every line.
pub(crate) struct WriterGuard {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for WriterGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriterGuard").finish_non_exhaustive()
    }
}

/// Starts the writer thread over `sink`.
pub(crate) fn spawn(
    sink: impl Write + Send + 'static,
    thread_name: &str,
) -> std::io::Result<(LineWriter, WriterGuard)> {
    let shared = Arc::new(Shared {
        waiting: Mutex::new(Waiting::default()),
        written: Condvar::new(),
    });
    let thread = std::thread::Builder::new()
        .name(thread_name.to_owned())
        .spawn({
            let shared = Arc::clone(&shared);
            move || run(&shared, sink)
        })?;
    let writer = LineWriter {
        shared: Arc::clone(&shared),
        writer: thread.thread().clone(),
    };
    Ok((
        writer,
        WriterGuard {
            shared,
            thread: Some(thread),
        },
    ))
}

fn run(shared: &Shared, mut sink: impl Write) {
    // Two buffers taking turns: the one being written and the one being filled.
    let mut spare = Vec::new();
    let mut failed = false;
    loop {
        std::thread::park_timeout(WRITE_EVERY);
        let closing = {
            let mut waiting = shared.waiting.lock();
            std::mem::swap(&mut waiting.bytes, &mut spare);
            waiting.closing
        };
        shared.written.notify_all();
        if !spare.is_empty() {
            let result = sink.write_all(&spare).and_then(|()| sink.flush());
            if let Err(error) = result
                && !std::mem::replace(&mut failed, true)
            {
                // The log itself cannot say it; stderr is the last resort (never stdout, the
                // stdio transport's).
                eprintln!("wiki-mcp: the log could not be written ({error}); lines are lost");
            }
            spare.clear();
        }
        if closing && shared.waiting.lock().bytes.is_empty() {
            return;
        }
    }
}

/// Written through a shared reference, so the subscriber borrows the writer for each line
/// instead of cloning it (two reference counts touched per line on the request path).
impl Write for &LineWriter {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        let wake = {
            let mut waiting = self.shared.waiting.lock();
            while waiting.bytes.len() >= MAX_WAITING && !waiting.closing {
                self.writer.unpark();
                self.shared.written.wait(&mut waiting);
            }
            let before = waiting.bytes.len();
            waiting.bytes.extend_from_slice(line);
            before < WRITE_AT && waiting.bytes.len() >= WRITE_AT
        };
        if wake {
            self.writer.unpark();
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for LineWriter {
    type Writer = &'a LineWriter;

    fn make_writer(&'a self) -> Self::Writer {
        self
    }
}

impl Drop for WriterGuard {
    fn drop(&mut self) {
        self.shared.waiting.lock().closing = true;
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            // A writer that panicked has nothing left to write; say so where we still can.
            if thread.join().is_err() {
                eprintln!("wiki-mcp: the log writer stopped unexpectedly");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink the test can read back.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_line_of_many_threads_is_written_whole_and_the_guard_flushes() {
        let sink = Sink::default();
        let (writer, guard) = spawn(sink.clone(), "test-log").expect("a thread");
        let threads: Vec<_> = (0..4)
            .map(|thread| {
                let writer = writer.clone();
                std::thread::spawn(move || {
                    for line in 0..20_000 {
                        let text = format!("thread {thread} line {line} {}\n", "x".repeat(200));
                        (&writer).write_all(text.as_bytes()).expect("appended");
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().expect("a logging thread");
        }
        drop(guard);
        let written = String::from_utf8(sink.0.lock().clone()).expect("text");
        let lines: Vec<&str> = written.lines().collect();
        assert_eq!(lines.len(), 80_000);
        for thread in 0..4 {
            let mine: Vec<usize> = lines
                .iter()
                .filter_map(|line| line.strip_prefix(&format!("thread {thread} line ")))
                .map(|rest| {
                    rest.split(' ')
                        .next()
                        .and_then(|n| n.parse().ok())
                        .expect("n")
                })
                .collect();
            assert_eq!(
                mine,
                (0..20_000).collect::<Vec<_>>(),
                "thread {thread}'s lines in order"
            );
        }
    }

    /// A sink whose first write blocks until the test releases it: a stalled disk or pipe.
    struct Stalled {
        sink: Sink,
        release: Option<std::sync::mpsc::Receiver<()>>,
    }

    impl Write for Stalled {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            if let Some(release) = self.release.take() {
                let _ = release.recv();
            }
            self.sink.write(bytes)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_stalled_sink_makes_loggers_wait_and_loses_nothing() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        const LINE: usize = 1024;
        let lines = 3 * MAX_WAITING / LINE;
        let sink = Sink::default();
        let (release, released) = std::sync::mpsc::channel();
        let stalled = Stalled {
            sink: sink.clone(),
            release: Some(released),
        };
        let (writer, guard) = spawn(stalled, "test-log").expect("a thread");
        // Bound after the guard, so a failing assertion drops it first: the sink moves on (its
        // channel closed) and the guard's join does not wait forever.
        let release = release;
        let accepted = Arc::new(AtomicUsize::new(0));
        let logger = std::thread::spawn({
            let writer = writer.clone();
            let accepted = Arc::clone(&accepted);
            move || {
                for line in 0..lines {
                    let text = format!("{line:>10} {}\n", "x".repeat(LINE - 12));
                    (&writer).write_all(text.as_bytes()).expect("appended");
                    accepted.fetch_add(1, Ordering::SeqCst);
                }
            }
        });
        // Wait until the logger stops making progress: it waits for room.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let mut last = usize::MAX;
        loop {
            std::thread::sleep(Duration::from_millis(200));
            let now = accepted.load(Ordering::SeqCst);
            if now == last {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the logger never waited"
            );
            last = now;
        }
        assert!(
            last < lines,
            "the logger wrote everything past a stalled sink"
        );
        // What it could hand over: the batch the stalled writer holds, and a full buffer.
        assert!(
            last * LINE <= 2 * (MAX_WAITING + LINE),
            "{last} lines accepted"
        );
        release.send(()).expect("the sink is waiting");
        logger
            .join()
            .expect("the logger finishes once the sink moves");
        drop(guard);
        let written = String::from_utf8(sink.0.lock().clone()).expect("text");
        let numbers: Vec<usize> = written
            .lines()
            .map(|line| line[..10].trim().parse().expect("a line number"))
            .collect();
        assert_eq!(
            numbers,
            (0..lines).collect::<Vec<_>>(),
            "every line, in order"
        );
    }

    #[test]
    fn a_line_is_written_while_the_guard_is_held() {
        let sink = Sink::default();
        let (writer, _guard) = spawn(sink.clone(), "test-log").expect("a thread");
        (&writer).write_all(b"one line\n").expect("appended");
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while sink.0.lock().is_empty() {
            assert!(std::time::Instant::now() < deadline, "never written");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(&*sink.0.lock(), b"one line\n");
    }
}
