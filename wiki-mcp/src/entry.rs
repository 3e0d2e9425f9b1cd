//! The command line as a library entry: parse, install the log subscriber, run the command.
//!
//! stdout carries command output (and the MCP stream of `stdio`); logs and audit lines go to
//! stderr or `--log-file`, never stdout.

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};
use crate::commands;
use crate::logging::{self, LogOptions};

/// The whole `wiki-mcp` command line (`serve`, `stdio`, `init` and every admin command), serving
/// and administering every `#[mcp_tool]` linked into the calling binary.
///
/// A server with tools of its own is a binary that links them and calls this:
///
/// ```no_run
/// use std::process::ExitCode;
///
/// // Linked for their tools: the registry sees only what the binary links.
/// use bundled_tools as _;
/// // use my_tools as _; (your crate of tools)
///
/// fn main() -> ExitCode {
///     wiki_mcp::main()
/// }
/// ```
///
/// The admin commands read the same registry as the server, so `config set tools=` accepts the
/// linked tools' ids and `tools` lists them. Parses `std::env::args_os()`; usage and help name
/// the running binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = LogOptions {
        filter: cli.log.clone(),
        json: cli.log_json,
        file: cli.log_file.clone(),
    };
    // Held until this returns: dropping it flushes the queued log and audit lines.
    let _log = match logging::install(&options) {
        Ok(guard) => guard,
        Err(error) => {
            eprintln!("error: {error:#}");
            return ExitCode::FAILURE;
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let farm = commands::database::FarmTarget::new(cli.database)?;
    match cli.command {
        Command::Serve(args) => commands::serve::exec(&farm, args),
        Command::Stdio(args) => commands::stdio::exec(&farm, args),
        Command::Init(args) => commands::init::exec(&farm, args),
        Command::Token(command) => commands::token::exec(&farm, command),
        Command::Config(command) => commands::config::exec(&farm, command),
        Command::User(command) => commands::user::exec(&farm, command),
        Command::Group(command) => commands::group::exec(&farm, command),
        Command::Rights(command) => commands::rights::exec(&farm, command),
        Command::Trash(command) => commands::trash::exec(&farm, command),
        Command::Wikis(command) => commands::wikis::exec(&farm, command),
        Command::Farm(command) => commands::farm::exec(&farm, command),
        Command::Import(args) => commands::import::exec(&farm, args),
        Command::Migrate(args) => commands::migrate::exec(&farm, args),
        Command::Tools(args) => commands::tools::exec(&farm, args),
        #[cfg(feature = "semantic")]
        Command::Models(command) => commands::models::exec(&farm, command),
        #[cfg(feature = "semantic")]
        Command::Collections(command) => commands::collections::exec(&farm, command),
        #[cfg(feature = "semantic")]
        Command::Index(command) => commands::index::exec(&farm, command),
    }
}
