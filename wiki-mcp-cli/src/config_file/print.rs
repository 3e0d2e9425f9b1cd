//! `serve --print-config`: every setting `serve` would run with, where it came from, secrets
//! masked. The output is itself a configuration file (sources are comments), so an operator can
//! start one from it.

use std::io::Write;

use anyhow::Result;
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Command};

use super::{Configured, SERVE, settable};
use crate::database::Database;

/// What a secret's value is shown as.
const MASK: &str = "***";

/// Prints the effective settings of `serve` on stdout: `command` is the whole command line's
/// definition, `matches` what it parsed (with `configured`'s flags added).
pub(crate) fn print_effective(
    command: &Command,
    matches: &ArgMatches,
    configured: &Configured,
) -> Result<()> {
    let mut built = command.clone();
    built.build();
    let (Some(serve_command), Some((SERVE, serve))) =
        (built.find_subcommand(SERVE), matches.subcommand())
    else {
        anyhow::bail!("--print-config belongs to `serve`");
    };
    let mut out = std::io::stdout().lock();
    let file = match &configured.file {
        Some(path) => format!("the file {}", path.display()),
        None => "a configuration file (none given)".to_owned(),
    };
    writeln!(
        out,
        "# The settings `wiki-mcp serve` runs with: a flag wins over the environment, the \
         environment over {file}, the file over the default. Secrets are shown as {MASK}."
    )?;
    for arg in settable(serve_command) {
        let Some(key) = arg.get_long() else { continue };
        let id = arg.get_id().as_str();
        let source = match serve.value_source(id) {
            _ if configured.from_file.contains_key(key) => "file".to_owned(),
            Some(ValueSource::CommandLine) => "flag".to_owned(),
            Some(ValueSource::EnvVariable) => match arg.get_env() {
                Some(name) => format!("environment {}", name.to_string_lossy()),
                None => "environment".to_owned(),
            },
            Some(ValueSource::DefaultValue) => "default".to_owned(),
            _ => {
                writeln!(out, "# {key}: not set")?;
                continue;
            }
        };
        match value(arg, serve) {
            Some(value) => writeln!(out, "{key} = {value}  # {source}")?,
            None => writeln!(out, "# {key}: not set")?,
        }
    }
    out.flush()?;
    Ok(())
}

/// The value as TOML: a switch as a boolean, a number as an integer, a repeatable flag as an
/// array; a secret masked (a database URL keeps all but its password).
fn value(arg: &Arg, serve: &ArgMatches) -> Option<toml::Value> {
    let id = arg.get_id().as_str();
    if !arg.get_action().takes_values() {
        return serve
            .try_get_one::<bool>(id)
            .ok()
            .flatten()
            .map(|switch| toml::Value::Boolean(*switch));
    }
    let raw: Vec<String> = serve
        .get_raw(id)?
        .map(|item| item.to_string_lossy().into_owned())
        .collect();
    let mut items: Vec<toml::Value> = raw
        .iter()
        .map(|item| {
            if arg.is_hide_env_values_set() {
                return toml::Value::String(masked(id, item));
            }
            match item.parse::<i64>() {
                Ok(number) => toml::Value::Integer(number),
                Err(_) => toml::Value::String(item.clone()),
            }
        })
        .collect();
    if matches!(arg.get_action(), clap::ArgAction::Append) {
        return (!items.is_empty()).then_some(toml::Value::Array(items));
    }
    items.pop()
}

/// A secret as shown: the database URL with its password masked (which database is in use is
/// what an operator checks), any other secret masked whole.
fn masked(id: &str, value: &str) -> String {
    if id == "database"
        && let Ok(database) = value.parse::<Database>()
    {
        return database.to_string();
    }
    MASK.to_owned()
}
