//! `serve --config FILE` (or `WIKI_MCP_CONFIG`): `serve`'s settings in a TOML file whose keys are
//! the flags' long names (`listen = "0.0.0.0:8080"`, `rate-limit = 0`, `log-format = "json"`,
//! `authorization-server = ["https://…"]`), and `serve --print-config`, the effective settings.
//!
//! Precedence is flag > environment > file > default. The file is applied as extra flags for
//! exactly the settings that neither the command line nor the environment gave, so clap parses
//! and checks a file's value as it does a flag's (one parser, one set of ranges), and its
//! `requires` and `conflicts_with` rules hold across the three sources alike. There is no table
//! or section: one key per flag, an unknown key refused with the valid ones listed.

mod print;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Command};

pub(crate) use print::print_effective;

/// The subcommand a configuration file configures.
const SERVE: &str = "serve";
/// The flag (and argument id) naming the file.
const CONFIG: &str = "config";
/// The flag that prints the effective settings.
pub(crate) const PRINT_CONFIG: &str = "print-config";
/// The largest configuration file read: far above any real one, so a wrong path (a database, a
/// log) is refused instead of read whole.
const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The command line with a configuration file's settings added, and what came from it.
#[derive(Debug, Default)]
pub(crate) struct Configured {
    /// The arguments to parse: the given ones, then the file's as flags.
    pub(crate) args: Vec<OsString>,
    /// The file read, if any.
    pub(crate) file: Option<PathBuf>,
    /// The keys whose value the file gave (the others were given otherwise, or not at all).
    pub(crate) from_file: BTreeMap<String, toml::Value>,
}

/// Adds the configuration file's settings to `args` when they run `serve` with `--config` (or
/// `WIKI_MCP_CONFIG`). `command` is the whole command line's definition. Any other command line,
/// and one clap refuses anyway (help, version, a mistyped flag), is returned as it is, for the
/// real parse to report.
pub(crate) fn apply(command: &Command, args: Vec<OsString>) -> Result<Configured> {
    // A first, forgiving parse tells which file and which settings were given explicitly.
    let Ok(first) = command
        .clone()
        .ignore_errors(true)
        .try_get_matches_from(&args)
    else {
        return Ok(Configured::unchanged(args));
    };
    let Some((SERVE, serve)) = first.subcommand() else {
        return Ok(Configured::unchanged(args));
    };
    let Some(path) = serve.get_one::<PathBuf>(CONFIG).cloned() else {
        return Ok(Configured::unchanged(args));
    };
    let table = read(&path)?;
    let mut built = command.clone();
    built.build();
    let Some(serve_command) = built.find_subcommand(SERVE) else {
        return Ok(Configured::unchanged(args));
    };
    let settable: Vec<&Arg> = settable(serve_command).collect();
    let mut configured = Configured {
        args,
        file: Some(path.clone()),
        from_file: BTreeMap::new(),
    };
    for (key, value) in table {
        let Some(arg) = settable
            .iter()
            .find(|arg| arg.get_long() == Some(key.as_str()))
        else {
            bail!(
                "{}: unknown key `{key}`: the keys are serve's flags' long names: {}",
                path.display(),
                keys(&settable).join(", ")
            );
        };
        if given_otherwise(serve_command, serve, arg) {
            continue;
        }
        let flags = as_flags(arg, &key, &value)
            .with_context(|| format!("{}: key `{key}`", path.display()))?;
        configured.args.extend(flags);
        configured.from_file.insert(key, value);
    }
    Ok(configured)
}

impl Configured {
    fn unchanged(args: Vec<OsString>) -> Self {
        Configured {
            args,
            ..Configured::default()
        }
    }

    /// Explains a refusal of the final parse that a value from the file caused, naming the file
    /// and the key; `None` when the refusal is not the file's doing.
    pub(crate) fn explain(&self, error: &clap::Error) -> Option<String> {
        let file = self.file.as_ref()?;
        let clap::error::ContextValue::String(invalid) =
            error.get(clap::error::ContextKind::InvalidArg)?
        else {
            return None;
        };
        // clap names the argument as `--rate-limit <N>`.
        let long = invalid.strip_prefix("--")?.split(' ').next()?;
        let value = self.from_file.get(long)?;
        Some(format!(
            "{}: `{long} = {value}` is refused: {}",
            file.display(),
            first_line(&error.to_string())
        ))
    }

    /// A note for any other refusal of the final parse when the file gave settings (a rule
    /// between flags it broke, say): which settings the file gave.
    pub(crate) fn note(&self, error: &clap::Error) -> Option<String> {
        let file = self.file.as_ref()?;
        if !error.use_stderr() || self.from_file.is_empty() {
            return None;
        }
        let keys: Vec<&str> = self.from_file.keys().map(String::as_str).collect();
        Some(format!(
            "note: the configuration file {} gave: {}",
            file.display(),
            keys.join(", ")
        ))
    }
}

/// The first line of clap's rendering, without its `error: ` prefix.
fn first_line(rendered: &str) -> &str {
    let line = rendered.lines().next().unwrap_or_default();
    line.strip_prefix("error: ").unwrap_or(line)
}

/// Reads and parses the file: a flat TOML table.
fn read(path: &Path) -> Result<toml::Table> {
    let cannot = || format!("cannot read the configuration file {}", path.display());
    let size = std::fs::metadata(path).with_context(cannot)?.len();
    if size > MAX_FILE_BYTES {
        bail!(
            "{} is {size} bytes: a configuration file is a few lines of `key = value` (check \
             --config or WIKI_MCP_CONFIG)",
            path.display()
        );
    }
    let text = std::fs::read_to_string(path).with_context(cannot)?;
    toml::from_str::<toml::Table>(&text)
        .map_err(|error| anyhow::anyhow!("{} is not valid TOML: {error}", path.display()))
}

/// The arguments of `serve` (its own and the global ones) a file may set: every flag but help,
/// version, the file itself, `--print-config` and the hidden ones (kept for old command lines
/// only).
pub(crate) fn settable(serve: &Command) -> impl Iterator<Item = &Arg> {
    serve.get_arguments().filter(|arg| {
        !arg.is_hide_set()
            && !matches!(
                arg.get_action(),
                clap::ArgAction::Help
                    | clap::ArgAction::HelpShort
                    | clap::ArgAction::HelpLong
                    | clap::ArgAction::Version
            )
            && arg
                .get_long()
                .is_some_and(|long| long != CONFIG && long != PRINT_CONFIG)
    })
}

fn keys(settable: &[&Arg]) -> Vec<String> {
    let mut keys: Vec<String> = settable
        .iter()
        .filter_map(|arg| arg.get_long().map(str::to_owned))
        .collect();
    keys.sort();
    keys
}

/// Whether the command line or the environment gave `arg`, or gave one it conflicts with: then
/// the file's value gives way.
fn given_otherwise(serve_command: &Command, serve: &ArgMatches, arg: &Arg) -> bool {
    let explicit = |arg: &Arg| {
        matches!(
            serve.value_source(arg.get_id().as_str()),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        )
    };
    explicit(arg)
        || serve_command
            .get_arg_conflicts_with(arg)
            .into_iter()
            .any(explicit)
}

/// `key = value` as the flags that say it: `--key value` (once per item of an array for a
/// repeatable flag), `--key` for `true` on a switch, nothing for `false`.
fn as_flags(arg: &Arg, key: &str, value: &toml::Value) -> Result<Vec<OsString>> {
    if !arg.get_action().takes_values() {
        return match value {
            toml::Value::Boolean(true) => Ok(vec![OsString::from(format!("--{key}"))]),
            toml::Value::Boolean(false) => Ok(Vec::new()),
            _ => bail!("`{key}` is a switch: give true or false"),
        };
    }
    let repeatable = matches!(arg.get_action(), clap::ArgAction::Append);
    let items = match value {
        toml::Value::Array(items) if repeatable => items.iter().collect(),
        toml::Value::Array(_) => bail!("`{key}` takes one value, not a list"),
        other => vec![other],
    };
    let mut flags = Vec::new();
    for item in items {
        let text = match item {
            toml::Value::String(text) => text.clone(),
            toml::Value::Integer(number) => number.to_string(),
            toml::Value::Float(number) => number.to_string(),
            toml::Value::Boolean(switch) => switch.to_string(),
            toml::Value::Datetime(_) | toml::Value::Array(_) | toml::Value::Table(_) => {
                bail!("give a string or a number (the file is flat: one key per flag)")
            }
        };
        // `--key=value`, so a value starting with `-` is not taken for a flag.
        flags.push(OsString::from(format!("--{key}={text}")));
    }
    Ok(flags)
}
