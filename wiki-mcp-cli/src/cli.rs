//! The command line: global options and the subcommands (each declared in its own module).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::commands;
use crate::logging::LogFormat;

/// A multi-wiki MCP server over an embedded wiki, and its admin commands.
///
/// `serve`, `stdio` and `init` create a farm where there is none (demo content unless
/// `init --empty`); every other command needs one. A PostgreSQL farm (--database) is created by
/// `init` alone.
#[derive(Debug, Parser)]
#[command(name = "wiki-mcp", version, propagate_version = true)]
pub(crate) struct Cli {
    /// Where the farm is: `--database URL` or `--data DIR`, and `--db-pool-size`.
    #[command(flatten)]
    pub(crate) database: commands::database::DatabaseArgs,

    /// How log lines are written: `text` (human-readable) or `json` (one object a line).
    #[arg(
        long,
        global = true,
        env = "WIKI_MCP_LOG_FORMAT",
        value_enum,
        default_value_t = LogFormat::Text
    )]
    pub(crate) log_format: LogFormat,

    /// The same as `--log-format json`.
    #[arg(long, global = true, hide = true)]
    pub(crate) log_json: bool,

    /// Append logs (and audit lines) to this file instead of stderr.
    #[arg(long, global = true, env = "WIKI_MCP_LOG_FILE", value_name = "FILE")]
    pub(crate) log_file: Option<PathBuf>,

    /// The log filter (tracing's `EnvFilter` syntax), e.g. `debug` or `info,audit=off`.
    #[arg(
        long,
        global = true,
        env = "WIKI_MCP_LOG",
        default_value = "info,rmcp=warn"
    )]
    pub(crate) log: String,

    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Serve every wiki's MCP endpoint over HTTP.
    Serve(Box<commands::serve::Args>),
    /// Serve one wiki as one user over stdin/stdout (for desktop clients).
    Stdio(commands::stdio::Args),
    /// Create a farm (with the demo content unless --empty).
    Init(commands::init::Args),
    /// API tokens: create (shown once), list, revoke.
    #[command(subcommand)]
    Token(commands::token::Command),
    /// A wiki's MCP configuration: set keys, show.
    #[command(subcommand)]
    Config(commands::config::Command),
    /// Users of the farm.
    #[command(subcommand)]
    User(commands::user::Command),
    /// OpenID Connect identities: move a farm off name matching, once (`adopt`).
    #[command(subcommand)]
    Oidc(commands::oidc::Command),
    /// Groups of users (and of groups).
    #[command(subcommand)]
    Group(commands::group::Command),
    /// Rights: allow or deny a right, remove a rule, list rules, show effective rights.
    #[command(subcommand)]
    Rights(commands::rights::Command),
    /// The recycle bin: list, restore.
    #[command(subcommand)]
    Trash(commands::trash::Command),
    /// Wikis of the farm: create, list.
    #[command(subcommand)]
    Wikis(commands::wikis::Command),
    /// Farm-wide settings (main-wiki administration).
    #[command(subcommand)]
    Farm(commands::farm::Command),
    /// Import a directory of Markdown files into a wiki.
    Import(commands::import::Args),
    /// Copy this SQLite farm (--data DIR) into an empty PostgreSQL database.
    Migrate(commands::migrate::Args),
    /// Copy this SQLite farm (--data DIR) to a backup directory, while it is served.
    Backup(commands::backup::Args),
    /// Make a backup the farm in --data DIR (no server may serve it meanwhile).
    Restore(commands::restore::Args),
    /// The tools linked into this binary (id, category, write) and their state on each wiki.
    Tools(commands::tools::Args),
}
