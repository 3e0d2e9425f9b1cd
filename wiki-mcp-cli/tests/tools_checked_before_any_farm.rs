//! A binary whose linked tools the server could never serve (here a contributed tool called
//! `man`, an id the server keeps for its own) is refused before it opens or creates a farm:
//! `serve`, `stdio` and `init` on a fresh data directory fail naming the conflict, and leave the
//! directory uncreated.
//!
//! The test binary is that command line: run with the marker variable, its `main` is
//! `wiki_mcp_cli::main()`; run by cargo, it runs the command line as a child process per case.

use std::path::Path;
use std::process::{Command, ExitCode};

use fixture_reserved_tools as _;
use libtest_mimic::{Arguments, Failed, Trial};

/// Set in the child: run as the command line, not as the test.
const AS_COMMAND_LINE: &str = "WIKI_MCP_CLI_TEST_AS_COMMAND_LINE";

fn main() -> ExitCode {
    if std::env::var_os(AS_COMMAND_LINE).is_some() {
        return wiki_mcp_cli::main();
    }
    let cases: [(&str, &[&str]); 3] = [
        (
            "serve_creates_no_farm",
            &["serve", "--listen", "127.0.0.1:0", "--data"],
        ),
        (
            "stdio_creates_no_farm",
            &["stdio", "--wiki", "main", "--user", "admin", "--data"],
        ),
        ("init_creates_no_farm", &["init"]),
    ];
    let trials = cases
        .into_iter()
        .map(|(name, args)| Trial::test(name, move || refused_creating_nothing(args)))
        .collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}

/// Runs the command line with `args` followed by a data directory that does not exist yet.
fn refused_creating_nothing(args: &[&str]) -> Result<(), Failed> {
    let scratch = tempfile::tempdir()?;
    let data = scratch.path().join("farm");
    let output = Command::new(std::env::current_exe()?)
        .args(args)
        .arg(&data)
        .env(AS_COMMAND_LINE, "1")
        .env_remove("WIKI_MCP_DATABASE")
        .env_remove("WIKI_MCP_DATA")
        .output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.success() {
        return Err(format!("{args:?} succeeded; stderr:\n{stderr}").into());
    }
    for expected in [
        "tool id `man` is reserved for the server's own tool",
        "fixture_reserved_tools::man",
        "nothing was created or opened",
    ] {
        if !stderr.contains(expected) {
            return Err(format!("{args:?}: stderr lacks {expected:?}:\n{stderr}").into());
        }
    }
    if Path::new(&data).exists() {
        return Err(format!("{args:?} created {}", data.display()).into());
    }
    Ok(())
}
