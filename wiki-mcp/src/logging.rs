//! The tracing subscriber: human-readable or JSON, to stderr or a file, never stdout.
//!
//! Lines are formatted on the calling thread and written by a background thread
//! (`tracing_appender::non_blocking`): one audit line per tool call must not put a `write(2)` on
//! stderr, or a stalled terminal or pipe, on the request path of every call. The channel blocks
//! when full instead of dropping (`lossy(false)`): an audit line is never lost to load. The
//! writer thread writes through a buffer it flushes whenever its queue is empty, so a burst of
//! lines costs one `write(2)` rather than one each (a loaded server's writer thread spent most
//! of its 4% of the CPU in those calls) and no line waits once the burst is written. Keep the
//! returned [`LogGuard`] alive until the process ends; dropping it flushes what is queued.

use std::fs::OpenOptions;
use std::io::BufWriter;
use std::path::PathBuf;

use anyhow::{Context, Result};
use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::EnvFilter;

/// Where and how logs and audit lines are written.
#[derive(Debug, Clone)]
pub struct LogOptions {
    /// The filter, in tracing's `EnvFilter` syntax (`info,rmcp=warn`, `info,audit=off`…).
    pub filter: String,
    /// JSON lines instead of human-readable text.
    pub json: bool,
    /// Append to this file instead of writing to stderr.
    pub file: Option<PathBuf>,
}

/// Flushes the queued lines when dropped: hold it until the process ends.
#[must_use = "dropping the guard stops the log writer"]
#[derive(Debug)]
pub struct LogGuard {
    _worker: WorkerGuard,
}

/// Installs the global subscriber. Audit lines (target `audit`) go wherever the logs go.
pub fn install(options: &LogOptions) -> Result<LogGuard> {
    let filter = EnvFilter::try_new(&options.filter)
        .with_context(|| format!("invalid log filter `{}`", options.filter))?;
    let builder = NonBlockingBuilder::default()
        .lossy(false)
        .thread_name("wiki-mcp-log");
    let (writer, worker) = match &options.file {
        Some(path) => {
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open the log file {}", path.display()))?;
            builder.finish(BufWriter::new(file))
        }
        None => builder.finish(BufWriter::new(std::io::stderr())),
    };
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(writer);
    let installed = if options.json {
        subscriber.json().try_init()
    } else {
        subscriber.try_init()
    };
    installed.map_err(|error| anyhow::anyhow!("cannot install the log subscriber: {error}"))?;
    Ok(LogGuard { _worker: worker })
}
