//! The command line as a library entry: parse, install the log subscriber, run the command.
//!
//! stdout carries command output (and the MCP stream of `stdio`); logs and audit lines go to
//! stderr or `--log-file`, never stdout.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::cli::{Cli, Command};
use crate::commands;
use crate::commands::database::{DatabaseArgs, FarmTarget};
use crate::config_file;
use crate::extension::{Extension, Farm};
use crate::logging::{self, LogFormat, LogOptions};

/// The whole `wiki-mcp` command line (`serve`, `stdio`, `init` and every admin command), serving
/// and administering every `#[mcp_tool]` linked into the calling binary.
///
/// A server with tools of its own is a binary that links them and calls this:
///
/// ```no_run
/// use std::process::ExitCode;
///
/// // Linked for their tools: the registry sees only what the binary links.
/// // use my_tools as _;      (your crate of tools)
/// // use bundled_tools as _; (the stock tools, if the server serves them too)
///
/// fn main() -> ExitCode {
///     wiki_mcp_cli::main()
/// }
/// ```
///
/// The admin commands read the same registry as the server, so `config set tools=` accepts the
/// linked tools' ids and `tools` lists them. Parses `std::env::args_os()`; usage and help name
/// the running binary.
pub fn main() -> ExitCode {
    main_with(&[])
}

/// [`main`] with commands of the binary's own ([`Extension`]s, e.g. a linked crate's admin
/// commands), parsed with the global options and run on the farm they name.
pub fn main_with(extensions: &[Extension]) -> ExitCode {
    let mut command = Cli::command();
    for extension in extensions {
        command = command.subcommand((extension.command)());
    }
    // A configuration file (`serve --config`) adds its settings as flags before the real parse.
    let configured = match config_file::apply(&command, std::env::args_os().collect()) {
        Ok(configured) => configured,
        Err(error) => {
            eprintln!("error: {error:#}");
            return ExitCode::from(2);
        }
    };
    let matches = match command.clone().try_get_matches_from(&configured.args) {
        Ok(matches) => matches,
        Err(error) => {
            if let Some(explained) = configured.explain(&error) {
                eprintln!("error: {explained}");
                return ExitCode::from(2);
            }
            if let Some(note) = configured.note(&error) {
                eprint!("{}", error.render());
                eprintln!("{note}");
                return ExitCode::from(2);
            }
            error.exit()
        }
    };
    let chosen = matches.subcommand().and_then(|(name, sub)| {
        extensions
            .iter()
            .find(|extension| (extension.command)().get_name() == name)
            .map(|extension| (extension, sub))
    });
    let parsed = match chosen {
        Some((extension, sub)) => DatabaseArgs::from_arg_matches(&matches).map(|database| {
            let options = LogOptions {
                filter: matches
                    .get_one::<String>("log")
                    .cloned()
                    .unwrap_or_default(),
                json: matches.get_flag("log_json")
                    || matches.get_one::<LogFormat>("log_format") == Some(&LogFormat::Json),
                file: matches.get_one::<std::path::PathBuf>("log_file").cloned(),
            };
            (options, Run::Extension(*extension, sub.clone(), database))
        }),
        None => Cli::from_arg_matches(&matches).map(|cli| {
            let options = LogOptions {
                filter: cli.log.clone(),
                json: cli.log_json || cli.log_format == LogFormat::Json,
                file: cli.log_file.clone(),
            };
            (options, Run::Builtin(Box::new(cli)))
        }),
    };
    let (options, run) = parsed.unwrap_or_else(|error| error.exit());
    // Held until this returns: dropping it flushes the queued log and audit lines.
    let _log = match logging::install(&options) {
        Ok(guard) => guard,
        Err(error) => {
            eprintln!("error: {error:#}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = match run {
        Run::Builtin(cli) => match &cli.command {
            Command::Serve(serve) if serve.print_config => {
                config_file::print_effective(&command, &matches, &configured)
            }
            _ => self::run(*cli),
        },
        Run::Extension(extension, sub, database) => {
            FarmTarget::new(database).and_then(|target| (extension.run)(&sub, &Farm::new(&target)))
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// What the command line chose.
enum Run {
    Builtin(Box<Cli>),
    Extension(Extension, clap::ArgMatches, DatabaseArgs),
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let farm = commands::database::FarmTarget::new(cli.database)?;
    match cli.command {
        Command::Serve(args) => commands::serve::exec(&farm, *args),
        Command::Stdio(args) => commands::stdio::exec(&farm, args),
        Command::Init(args) => commands::init::exec(&farm, args),
        Command::Token(command) => commands::token::exec(&farm, command),
        Command::Config(command) => commands::config::exec(&farm, command),
        Command::User(command) => commands::user::exec(&farm, command),
        Command::Oidc(command) => commands::oidc::exec(&farm, command),
        Command::Group(command) => commands::group::exec(&farm, command),
        Command::Rights(command) => commands::rights::exec(&farm, command),
        Command::Trash(command) => commands::trash::exec(&farm, command),
        Command::Wikis(command) => commands::wikis::exec(&farm, command),
        Command::Farm(command) => commands::farm::exec(&farm, command),
        Command::Import(args) => commands::import::exec(&farm, args),
        Command::Migrate(args) => commands::migrate::exec(&farm, args),
        Command::Backup(args) => commands::backup::exec(&farm, args),
        Command::Restore(args) => commands::restore::exec(&farm, args),
        Command::Tools(args) => commands::tools::exec(&farm, args),
    }
}
