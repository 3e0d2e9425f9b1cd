//! The `wiki-mcp` command line as a library: [`main`] is the whole CLI (serve, stdio, init and
//! every admin command) over whatever tools the calling binary links, so a server with tools of
//! its own is a two-line `main` (the stock binary is one, with the bundled tools). Also here:
//! where a farm lives, a data directory or a database ([`database`]), opening it and creating a
//! farm the first time ([`farm`]), and the log subscriber ([`logging`]), which the integration
//! tests and benches share with the binary.

mod cli;
mod commands;
mod config_file;
mod entry;
mod farm_lock;
mod trace_export;

pub mod database;
pub mod demo;
pub mod extension;
pub mod farm;
pub mod logging;

pub use entry::{main, main_with};

/// The command-line parser [`extension::Extension`]s are written with.
pub use clap;
