//! The tracing subscriber: human-readable or JSON, to stderr or a file, never stdout.

use std::fs::OpenOptions;
use std::sync::Mutex;

use anyhow::{Context, Result};
use tracing_subscriber::EnvFilter;

use crate::cli::Cli;

/// Installs the global subscriber. Audit lines (target `audit`) go wherever the logs go.
pub(crate) fn install(cli: &Cli) -> Result<()> {
    let filter = EnvFilter::try_new(&cli.log)
        .with_context(|| format!("invalid log filter `{}`", cli.log))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false);
    let installed = match (&cli.log_file, cli.log_json) {
        (Some(path), json) => {
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open the log file {}", path.display()))?;
            let builder = builder.with_writer(Mutex::new(file));
            if json {
                builder.json().try_init()
            } else {
                builder.try_init()
            }
        }
        (None, true) => builder.with_writer(std::io::stderr).json().try_init(),
        (None, false) => builder.with_writer(std::io::stderr).try_init(),
    };
    installed.map_err(|error| anyhow::anyhow!("cannot install the log subscriber: {error}"))
}
