//! The deployment files in `deploy/`: the container image's Dockerfile, the systemd unit and the
//! sample configuration, checked as far as this machine can. The Dockerfile is read (its stages,
//! user, volume and toolchain) and its health check is run against a real server; the image
//! itself is built only where a Docker daemon and its base images are at hand, which the test
//! says. The unit is checked by `systemd-analyze` where it is installed (skipped, saying so,
//! elsewhere).

// Helpers outside test functions panic on failure by design, like the tests they serve.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/listening.rs"]
#[allow(dead_code)]
mod listening;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use tempfile::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_wiki-mcp");

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn deploy(name: &str) -> String {
    std::fs::read_to_string(repository().join("deploy").join(name)).unwrap()
}

/// The Dockerfile's instructions, continuation lines joined, comments dropped: (keyword, rest).
fn instructions() -> Vec<(String, String)> {
    let text = deploy("Dockerfile");
    let mut joined = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || (trimmed.is_empty() && current.is_empty()) {
            continue;
        }
        match trimmed.strip_suffix('\\') {
            Some(part) => {
                current.push_str(part);
                current.push(' ');
            }
            None => {
                current.push_str(trimmed);
                joined.push(std::mem::take(&mut current));
            }
        }
    }
    joined
        .into_iter()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let (keyword, rest) = line.split_once(' ').unwrap_or((&line, ""));
            (keyword.to_uppercase(), rest.trim().to_owned())
        })
        .collect()
}

#[test]
fn the_image_is_built_in_one_stage_and_runs_unprivileged_in_another() {
    let all = instructions();
    let stages: Vec<usize> = all
        .iter()
        .enumerate()
        .filter(|(_, (keyword, _))| keyword == "FROM")
        .map(|(at, _)| at)
        .collect();
    assert_eq!(stages.len(), 2, "a build stage and a runtime stage");
    let (build, runtime) = (&all[stages[0]..stages[1]], &all[stages[1]..]);
    let of = |stage: &[(String, String)], keyword: &str| -> Vec<String> {
        stage
            .iter()
            .filter(|(k, _)| k == keyword)
            .map(|(_, rest)| rest.clone())
            .collect()
    };

    // The build stage: the pinned toolchain, the locked dependencies, the stock binary.
    let toolchain = std::fs::read_to_string(repository().join("rust-toolchain.toml")).unwrap();
    let channel = toolchain
        .lines()
        .find_map(|line| line.strip_prefix("channel = "))
        .unwrap()
        .trim_matches('"');
    assert_eq!(
        of(build, "FROM")[0],
        format!("rust:{channel}-slim-bookworm AS build"),
        "the build image's Rust is rust-toolchain.toml's"
    );
    assert!(
        of(build, "RUN")
            .iter()
            .any(|run| run.contains("cargo build --release --locked -p wiki-mcp")),
        "{build:?}"
    );

    // The runtime stage: the binary alone, a user of its own, the farm in a volume.
    assert!(of(runtime, "FROM")[0].starts_with("debian:bookworm-slim"));
    assert_eq!(
        of(runtime, "COPY"),
        ["--from=build /usr/local/bin/wiki-mcp /usr/local/bin/wiki-mcp"]
    );
    let user = of(runtime, "USER");
    assert_eq!(user.len(), 1);
    assert!(
        !["root", "0"].contains(&user[0].split(':').next().unwrap()),
        "{user:?}"
    );
    assert_eq!(of(runtime, "VOLUME"), [r#"["/data"]"#]);
    let env = of(runtime, "ENV").join(" ");
    assert!(env.contains("WIKI_MCP_DATA=/data"), "{env}");
    assert!(env.contains("WIKI_MCP_LISTEN=0.0.0.0:8080"), "{env}");
    assert_eq!(of(runtime, "EXPOSE"), ["8080"]);
    assert_eq!(of(runtime, "ENTRYPOINT"), [r#"["wiki-mcp"]"#]);
    assert_eq!(of(runtime, "CMD"), [r#"["serve"]"#]);
    let health = of(runtime, "HEALTHCHECK");
    assert!(health[0].contains("/readyz"), "{health:?}");

    let ignored = deploy("Dockerfile.dockerignore");
    for excluded in ["target", ".git"] {
        assert!(
            ignored.lines().any(|line| line == excluded),
            "the build context leaves out {excluded}"
        );
    }
    let daemon = Command::new("docker")
        .arg("info")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    eprintln!(
        "skipped: building and running the image (docker build -f deploy/Dockerfile .){}",
        if daemon {
            ": this test does not pull base images"
        } else {
            ": no Docker daemon here"
        }
    );
}

/// The HEALTHCHECK's command, as the container runs it (exec form, a JSON array).
fn health_check() -> Vec<String> {
    let (_, rest) = instructions()
        .into_iter()
        .find(|(keyword, _)| keyword == "HEALTHCHECK")
        .unwrap();
    let json = &rest[rest.find("CMD [").unwrap() + 4..];
    serde_json::from_str(json).unwrap()
}

#[test]
fn the_image_s_health_check_passes_on_a_ready_server_and_fails_without_one() {
    let check = health_check();
    assert_eq!(check[..2], ["bash", "-c"]);
    let script = &check[2];
    assert!(script.contains("127.0.0.1/8080"), "{script}");
    let dir = TempDir::new().unwrap();
    let (mut child, address) = listening::spawn_listening(
        Command::new(BINARY)
            .arg("--data")
            .arg(dir.path().join("farm"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .env("WIKI_MCP_LOG", "warn")
            .stdin(Stdio::null())
            .stderr(Stdio::null()),
        Duration::from_secs(60),
    );
    let run = |port: u16| {
        Command::new("bash")
            .arg("-c")
            .arg(script.replace("127.0.0.1/8080", &format!("127.0.0.1/{port}")))
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success()
    };
    assert!(
        run(address.port()),
        "the health check passes on a ready server"
    );
    let _ = child.kill();
    let _ = child.wait();
    assert!(!run(address.port()), "and fails once nothing answers");
}

#[test]
fn the_sample_configuration_is_one_serve_accepts() {
    let output = Command::new(BINARY)
        .args(["serve", "--print-config", "--config"])
        .env_remove("WIKI_MCP_RATE_LIMIT")
        .arg(repository().join("deploy/wiki-mcp.toml"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(printed.contains("rate-limit = 20  # "), "{printed}");
}

#[test]
fn the_systemd_unit_verifies_and_is_hardened() {
    let Ok(version) = Command::new("systemd-analyze").arg("--version").output() else {
        eprintln!("skipped: systemd-analyze is not installed (Debian's systemd package has it)");
        return;
    };
    assert!(version.status.success());
    // `verify` wants the unit's program to exist: the unit as installed, run by the built one.
    let dir = TempDir::new().unwrap();
    let unit = dir.path().join("wiki-mcp.service");
    std::fs::write(
        &unit,
        deploy("wiki-mcp.service").replace("/usr/local/bin/wiki-mcp", BINARY),
    )
    .unwrap();
    let verified = Command::new("systemd-analyze")
        .args(["verify", "--man=no"])
        .arg(&unit)
        .output()
        .unwrap();
    let complaints = String::from_utf8_lossy(&verified.stderr);
    assert!(
        verified.status.success() && complaints.trim().is_empty(),
        "systemd-analyze verify: {complaints}"
    );
    // The exposure score, 0 (locked down) to 10 (none of systemd's sandboxing): at most 2.0.
    let security = Command::new("systemd-analyze")
        .args(["security", "--offline=yes", "--threshold=20"])
        .arg(&unit)
        .output()
        .unwrap();
    assert!(
        security.status.success(),
        "{}",
        String::from_utf8_lossy(&security.stdout)
    );
}
