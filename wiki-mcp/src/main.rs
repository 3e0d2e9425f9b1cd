//! `wiki-mcp`: parse the command line, install the log subscriber, run the command.
//!
//! stdout carries command output (and the MCP stream of `stdio`); logs and audit lines go to
//! stderr or `--log-file`, never stdout.

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;
use wiki_mcp::logging::{self, LogOptions};

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = LogOptions {
        filter: cli.log.clone(),
        json: cli.log_json,
        file: cli.log_file.clone(),
    };
    // Held until `main` returns: dropping it flushes the queued log and audit lines.
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
        Command::Tools(args) => commands::tools::exec(&farm, args),
    }
}
