//! `serve`'s settings from a configuration file, the environment and flags, as the real binary
//! takes them: precedence flag > environment > file > default, `--print-config`, and refusals
//! that name the file and the key.

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/listening.rs"]
#[allow(dead_code)]
mod listening;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use tempfile::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_wiki-mcp");

/// The binary with none of the test runner's own `WIKI_MCP_*` variables, then `env`.
fn wiki_mcp(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(BINARY);
    for (name, _) in std::env::vars() {
        if name.starts_with("WIKI_MCP_") {
            command.env_remove(name);
        }
    }
    command.args(args).envs(env.iter().copied());
    command.stdin(Stdio::null());
    command
}

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    wiki_mcp(args, env).output().unwrap()
}

fn write_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The line of `--print-config`'s output that sets `key`.
fn setting<'a>(printed: &'a str, key: &str) -> &'a str {
    printed
        .lines()
        .find(|line| line.starts_with(&format!("{key} = ")))
        .unwrap_or_else(|| panic!("no `{key}` in:\n{printed}"))
}

#[test]
fn a_flag_wins_over_the_environment_which_wins_over_the_file_which_wins_over_the_default() {
    let dir = TempDir::new().unwrap();
    let config = write_file(
        dir.path(),
        "wiki-mcp.toml",
        r#"
listen = "127.0.0.1:9999"
rate-limit = 7
call-timeout = 12
log-format = "json"
authorization-server = ["https://a.example", "https://b.example"]
database = "postgres://wiki:hunter2-secret@db.example:5432/wiki"
oidc-client-id = "wiki"
oidc-client-secret = "client-secret-value"
oidc-issuer = ["https://idp.example"]
oidc-audience = "wiki"
"#,
    );
    let output = run(
        &[
            "serve",
            "--config",
            &config,
            "--call-timeout",
            "3",
            "--print-config",
        ],
        &[
            ("WIKI_MCP_RATE_LIMIT", "5"),
            ("WIKI_MCP_CALL_TIMEOUT", "20"),
        ],
    );
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        setting(&printed, "call-timeout"),
        "call-timeout = 3  # flag"
    );
    assert_eq!(
        setting(&printed, "rate-limit"),
        "rate-limit = 5  # environment WIKI_MCP_RATE_LIMIT"
    );
    assert_eq!(
        setting(&printed, "listen"),
        r#"listen = "127.0.0.1:9999"  # file"#
    );
    assert_eq!(
        setting(&printed, "log-format"),
        r#"log-format = "json"  # file"#
    );
    assert_eq!(
        setting(&printed, "authorization-server"),
        r#"authorization-server = ["https://a.example", "https://b.example"]  # file"#
    );
    assert_eq!(
        setting(&printed, "rate-burst"),
        "rate-burst = 40  # default"
    );
    assert!(printed.contains("# public-url: not set"), "{printed}");
    // Secrets are masked; the database URL keeps all but its password.
    assert_eq!(
        setting(&printed, "database"),
        r#"database = "postgres://wiki:***@db.example:5432/wiki"  # file"#
    );
    assert_eq!(
        setting(&printed, "oidc-client-secret"),
        r#"oidc-client-secret = "***"  # file"#
    );
    assert!(!printed.contains("hunter2"), "{printed}");
    assert!(!printed.contains("client-secret-value"), "{printed}");
}

#[test]
fn every_serve_setting_has_an_environment_variable() {
    let output = run(&["serve", "--help"], &[]);
    let help = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success());
    // Each option's help ends with `[env: WIKI_MCP_<FLAG>=]`; --print-config is an action,
    // not a setting, and --help and --version are clap's.
    let mut flags = Vec::new();
    for line in help.lines() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("--") {
            let flag = rest.split([' ', '=', '<']).next().unwrap();
            if !["print-config", "help", "version"].contains(&flag) {
                flags.push(flag.to_owned());
            }
        }
    }
    assert!(flags.len() > 30, "{help}");
    for flag in flags {
        let env = format!("[env: WIKI_MCP_{}", flag.to_uppercase().replace('-', "_"));
        assert!(help.contains(&env), "--{flag} has no {env}]:\n{help}");
    }
}

#[test]
fn a_file_may_give_what_a_flag_requires() {
    let dir = TempDir::new().unwrap();
    let config = write_file(
        dir.path(),
        "oidc.toml",
        "oidc-issuer = [\"https://idp.example\"]\noidc-audience = \"wiki\"\n",
    );
    let output = run(
        &[
            "serve",
            "--config",
            &config,
            "--oidc-client-id",
            "wiki",
            "--print-config",
        ],
        &[],
    );
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        setting(&printed, "oidc-client-id"),
        r#"oidc-client-id = "wiki"  # flag"#
    );
    assert_eq!(
        setting(&printed, "oidc-audience"),
        r#"oidc-audience = "wiki"  # file"#
    );
}

#[test]
fn an_unknown_key_or_a_bad_value_is_refused_naming_the_file_and_the_key() {
    let dir = TempDir::new().unwrap();
    let unknown = write_file(
        dir.path(),
        "unknown.toml",
        "listen = \"127.0.0.1:0\"\nport = 8080\n",
    );
    let output = run(&["serve", "--config", &unknown], &[]);
    let refused = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success());
    assert!(
        refused.contains("unknown.toml: unknown key `port`"),
        "{refused}"
    );
    assert!(refused.contains("listen, log, log-file"), "{refused}");

    let bad = write_file(dir.path(), "bad.toml", "rate-limit = \"many\"\n");
    let output = run(&["serve", "--config", &bad], &[]);
    let refused = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success());
    assert!(
        refused.contains("bad.toml: `rate-limit = \"many\"` is refused"),
        "{refused}"
    );

    // A rule between settings that the file's part breaks says which settings the file gave.
    let half = write_file(dir.path(), "half.toml", "oidc-client-id = \"wiki\"\n");
    let output = run(&["serve", "--config", &half], &[]);
    let refused = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success());
    assert!(
        refused.contains("half.toml gave: oidc-client-id"),
        "{refused}"
    );

    let nested = write_file(dir.path(), "nested.toml", "[serve]\nlisten = \"x\"\n");
    let output = run(&["serve", "--config", &nested], &[]);
    let refused = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success());
    assert!(refused.contains("unknown key `serve`"), "{refused}");

    let output = run(
        &["serve", "--print-config"],
        &[(
            "WIKI_MCP_CONFIG",
            dir.path().join("absent.toml").to_str().unwrap(),
        )],
    );
    let refused = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success());
    assert!(
        refused.contains("cannot read the configuration file"),
        "{refused}"
    );
}

/// Serves with `config` (and `env`), returning the child and its address.
fn serve(config: &str, env: &[(&str, &str)]) -> (std::process::Child, SocketAddr) {
    listening::spawn_listening(
        wiki_mcp(&["serve", "--config", config], env).stderr(Stdio::null()),
        Duration::from_secs(60),
    )
}

/// The status of a POST of `body_bytes` bytes to the main wiki's endpoint.
fn status_of_post(address: SocketAddr, body_bytes: usize) -> u16 {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","pad":"{}"}}"#,
        "x".repeat(body_bytes)
    );
    let request = format!(
        "POST /rest/wikis/main/aiLLM/mcp HTTP/1.1\r\nHost: {address}\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {response:?}"))
}

#[test]
fn the_server_runs_with_the_file_s_settings_unless_the_environment_overrides_them() {
    let dir = TempDir::new().unwrap();
    let data = dir.path().join("farm");
    let config = write_file(
        dir.path(),
        "serve.toml",
        &format!(
            "listen = \"127.0.0.1:0\"\ndata = {}\nmax-body-bytes = 2000\nrate-limit = 0\n\
             log = \"warn\"\n",
            toml_string(&data)
        ),
    );
    let (mut child, address) = serve(&config, &[]);
    assert_eq!(
        status_of_post(address, 4000),
        413,
        "the file's max-body-bytes"
    );
    assert_ne!(status_of_post(address, 100), 413);
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        data.join("wiki.db").exists(),
        "the farm is in the file's data directory"
    );

    let (mut child, address) = serve(&config, &[("WIKI_MCP_MAX_BODY_BYTES", "100000")]);
    assert_ne!(
        status_of_post(address, 4000),
        413,
        "the environment wins over the file"
    );
    let _ = child.kill();
    let _ = child.wait();
}

/// A path as a TOML string.
fn toml_string(path: &Path) -> String {
    format!("{:?}", path.to_str().unwrap())
}
