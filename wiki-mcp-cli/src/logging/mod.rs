//! The tracing subscriber: human-readable or JSON, to stderr or a file, never stdout.
//!
//! Lines are formatted on the calling thread and written by a background thread (`writer`):
//! one audit line per tool call must not put a `write(2)` on stderr, or a stalled terminal or
//! pipe, on the request path of every call. The lines wait in memory for at most 10 ms and are
//! written in one call; a sink that stalls makes the loggers wait rather than lose lines, so an
//! audit line is never lost to load. Keep the returned [`LogGuard`] alive until the process
//! ends; dropping it writes what waits.

mod writer;

use std::path::PathBuf;

use anyhow::{Context, Result};
use tracing_subscriber::EnvFilter;

use writer::WriterGuard;

/// How log lines are written (`--log-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines: time, level, target, message and `key=value` fields.
    Text,
    /// One JSON object a line, for a log collector.
    Json,
}

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

/// Writes the waiting lines when dropped: hold it until the process ends.
#[must_use = "dropping the guard stops the log writer"]
#[derive(Debug)]
pub struct LogGuard {
    _writer: WriterGuard,
}

/// Installs the global subscriber. Audit lines (target `audit`) go wherever the logs go.
pub fn install(options: &LogOptions) -> Result<LogGuard> {
    let filter = EnvFilter::try_new(&options.filter)
        .with_context(|| format!("invalid log filter `{}`", options.filter))?;
    const THREAD: &str = "wiki-mcp-log";
    let (writer, guard) = match &options.file {
        Some(path) => {
            // Created readable by its owner alone: audit lines name users and wikis.
            let file = wiki_store::private_files::append(path)
                .with_context(|| format!("cannot open the log file {}", path.display()))?;
            writer::spawn(file, THREAD)
        }
        None => writer::spawn(std::io::stderr(), THREAD),
    }
    .context("cannot start the log writer thread")?;
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
    Ok(LogGuard { _writer: guard })
}
