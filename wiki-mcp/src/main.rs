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
    let data = cli.data;
    match cli.command {
        Command::Serve(args) => commands::serve::exec(&data, args),
        Command::Stdio(args) => commands::stdio::exec(&data, args),
        Command::Init(args) => commands::init::exec(&data, args),
        Command::Token(command) => commands::token::exec(&data, command),
        Command::Config(command) => commands::config::exec(&data, command),
        Command::User(command) => commands::user::exec(&data, command),
        Command::Group(command) => commands::group::exec(&data, command),
        Command::Rights(command) => commands::rights::exec(&data, command),
        Command::Trash(command) => commands::trash::exec(&data, command),
        Command::Wikis(command) => commands::wikis::exec(&data, command),
        Command::Farm(command) => commands::farm::exec(&data, command),
        Command::Import(args) => commands::import::exec(&data, args),
        Command::Tools(args) => commands::tools::exec(&data, args),
    }
}
