//! The deployment files in `deploy/`: the container image's Dockerfile, the systemd unit and the
//! sample configuration, checked as far as this machine can. The Dockerfile is read (its stages,
//! user, volume and toolchain), and its steps are run in a temporary root per stage: those this
//! machine can run (the runtime user's creation, as root, and the volume's owner and mode; the
//! binary's install and copy) are run with the image's paths moved into that root, the others
//! (the package install, the release build, whose product the test's own build stands in for)
//! are said skipped. The image's ENTRYPOINT and CMD then serve from that root as the image's
//! user with its environment, and its HEALTHCHECK is run against them. The image itself is built
//! only where a Docker daemon and its base images are at hand, which the test says. The unit is
//! checked by `systemd-analyze` where it is installed (skipped, saying so, elsewhere).

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

/// Where each stage of `instructions` starts (its `FROM`), then where the last one ends.
fn stage_starts(instructions: &[(String, String)]) -> Vec<usize> {
    instructions
        .iter()
        .enumerate()
        .filter(|(_, (keyword, _))| keyword == "FROM")
        .map(|(at, _)| at)
        .chain([instructions.len()])
        .collect()
}

#[test]
fn the_image_is_built_in_one_stage_and_runs_unprivileged_in_another() {
    let all = instructions();
    let stages = stage_starts(&all);
    assert_eq!(stages.len(), 3, "a build stage and a runtime stage");
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

/// The JSON array of an exec-form instruction (`ENTRYPOINT ["wiki-mcp"]`, `CMD [...]`).
fn exec_form(rest: &str) -> Vec<String> {
    serde_json::from_str(rest).unwrap_or_else(|error| panic!("not an exec form: {rest} ({error})"))
}

/// `path`, absolute in the image, inside `root`.
fn inside(root: &Path, path: &str) -> PathBuf {
    root.join(path.trim_start_matches('/'))
}

/// The numeric id of `name` in the `root`'s `etc/passwd` (`file` "passwd") or `etc/group`.
fn id_in(root: &Path, file: &str, name: &str) -> u32 {
    let table = std::fs::read_to_string(inside(root, &format!("/etc/{file}"))).unwrap();
    table
        .lines()
        .find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            (fields[0] == name).then(|| fields[2].parse().unwrap())
        })
        .unwrap_or_else(|| panic!("{name} is not in the image's /etc/{file}"))
}

/// What one stage of the image leaves: its root, its user, environment and commands.
#[derive(Default)]
struct Stage {
    workdir: String,
    user: Option<String>,
    env: Vec<(String, String)>,
    entrypoint: Vec<String>,
    cmd: Vec<String>,
    health_check: Vec<String>,
}

/// Runs one command of a `RUN` line (`&&`-separated) in `root`: the commands this machine can
/// run, with the image's absolute paths moved into `root`, and the rest said skipped. `built`
/// is what the skipped compilation would have left (the binary cargo built for this test).
fn run_step(root: &Path, stage: &Stage, command: &str, as_root: bool, built: &Path) {
    let words: Vec<&str> = command.split_whitespace().collect();
    let moved = |word: &str| -> String {
        if word.starts_with('/') {
            inside(root, word).display().to_string()
        } else {
            word.to_owned()
        }
    };
    let status = match words[0] {
        "apt-get" => {
            eprintln!("skipped: RUN {command} (Debian's archive is not reachable from a test)");
            return;
        }
        "cargo" => {
            // The release build takes long; its product is the binary cargo built for this test.
            eprintln!("skipped: RUN {command} (the test's own build of wiki-mcp stands in)");
            let product = inside(root, &stage.workdir).join("target/release/wiki-mcp");
            std::fs::create_dir_all(product.parent().unwrap()).unwrap();
            std::fs::copy(built, product).unwrap();
            return;
        }
        "useradd" if !as_root => {
            eprintln!("skipped: RUN {command} (needs root to write the image's /etc/shadow)");
            return;
        }
        // The image's accounts are its /etc's: useradd writes there, not the host's.
        "useradd" => Command::new("useradd")
            .arg("--prefix")
            .arg(root)
            .args(&words[1..])
            .stderr(Stdio::null())
            .status(),
        "install" => {
            let mut args = Vec::new();
            let mut words = words[1..].iter();
            while let Some(word) = words.next() {
                match *word {
                    // Owners by the image's ids: the host does not know its users.
                    "-o" | "-g" => {
                        let name = words.next().unwrap();
                        if as_root {
                            let file = if *word == "-o" { "passwd" } else { "group" };
                            args.push(word.to_string());
                            args.push(id_in(root, file, name).to_string());
                        } else {
                            eprintln!("skipped: install {word} {name} (needs root)");
                        }
                    }
                    word => args.push(moved(word)),
                }
            }
            Command::new("install")
                .current_dir(inside(root, &stage.workdir))
                .args(args)
                .status()
        }
        _ => Command::new("bash")
            .arg("-c")
            .arg(
                words
                    .iter()
                    .map(|word| moved(word))
                    .collect::<Vec<_>>()
                    .join(" "),
            )
            .current_dir(inside(root, &stage.workdir))
            .status(),
    };
    assert!(status.unwrap().success(), "RUN {command} failed");
}

/// Runs the instructions of one stage of the Dockerfile in `root` (see [`run_step`]).
fn run_stage(
    instructions: &[(String, String)],
    root: &Path,
    stages: &[(String, PathBuf)],
    built: &Path,
) -> Stage {
    let as_root = is_root();
    let mut stage = Stage {
        workdir: "/".to_owned(),
        ..Stage::default()
    };
    for (keyword, rest) in instructions {
        match keyword.as_str() {
            "WORKDIR" => {
                stage.workdir = rest.clone();
                std::fs::create_dir_all(inside(root, rest)).unwrap();
            }
            "RUN" => {
                let command: Vec<&str> = rest
                    .split_whitespace()
                    .skip_while(|word| word.starts_with("--mount="))
                    .collect();
                for step in command.join(" ").split(" && ") {
                    run_step(root, &stage, step.trim(), as_root, built);
                }
            }
            "COPY" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                match words.as_slice() {
                    [from, source, destination] if from.starts_with("--from=") => {
                        let name = from.trim_start_matches("--from=");
                        let (_, other) = stages.iter().find(|(stage, _)| stage == name).unwrap();
                        std::fs::copy(inside(other, source), inside(root, destination)).unwrap();
                    }
                    _ => eprintln!(
                        "skipped: COPY {rest} (the build context is what the skipped cargo \
                         step compiles)"
                    ),
                }
            }
            "USER" => stage.user = Some(rest.clone()),
            "ENV" => stage.env.extend(rest.split_whitespace().map(|pair| {
                let (name, value) = pair.split_once('=').unwrap();
                (name.to_owned(), value.to_owned())
            })),
            "ENTRYPOINT" => stage.entrypoint = exec_form(rest),
            "CMD" => stage.cmd = exec_form(rest),
            "HEALTHCHECK" => {
                stage.health_check = exec_form(&rest[rest.find("CMD [").unwrap() + 4..])
            }
            // FROM, ARG, VOLUME, EXPOSE: what the image declares, checked by the test above.
            _ => {}
        }
    }
    stage
}

/// Whether the test runs as root (the image's user and owners need it): `/proc/self` belongs to
/// the process's user.
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|metadata| metadata.uid() == 0)
}

/// The directories a Debian image has that the steps write into.
fn debian_root(root: &Path) {
    for dir in ["etc", "usr/local/bin", "usr/sbin", "var/lib/apt/lists"] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    // The accounts of a Debian system (this machine's stand in for the base image's).
    for file in ["passwd", "group", "shadow", "gshadow"] {
        let _ = std::fs::copy(Path::new("/etc").join(file), root.join("etc").join(file));
    }
}

#[test]
fn the_image_s_steps_run_in_a_temporary_root_where_its_command_serves_as_its_user() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::os::unix::process::CommandExt;

    let all = instructions();
    let starts = stage_starts(&all);
    let dir = TempDir::new().unwrap();
    // The image's user must reach its /data through the temporary directory.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut roots: Vec<(String, PathBuf)> = Vec::new();
    let mut last = Stage::default();
    for bounds in starts.windows(2) {
        let instructions = &all[bounds[0]..bounds[1]];
        let name = instructions[0].1.rsplit(' ').next().unwrap().to_owned();
        let root = dir.path().join(&name);
        debian_root(&root);
        last = run_stage(instructions, &root, &roots, Path::new(BINARY));
        roots.push((name, root));
    }
    let (_, root) = roots.last().unwrap();
    let as_root = is_root();

    // The runtime stage as `docker run` starts it: ENTRYPOINT + CMD, the image's environment
    // and user, the farm in the image's /data (whose port becomes any free one).
    let data = inside(root, "/data");
    let user = last.user.clone().unwrap();
    let (user_name, group_name) = user.split_once(':').unwrap_or((&user, &user));
    let (uid, gid) = if as_root {
        (
            id_in(root, "passwd", user_name),
            id_in(root, "group", group_name),
        )
    } else {
        eprintln!("skipped: USER {user} (needs root); serving as the test's user");
        std::fs::create_dir_all(&data).unwrap();
        (0, 0)
    };
    let program = [last.entrypoint.clone(), last.cmd.clone()].concat();
    let mut command = Command::new(&program[0]);
    command
        .args(&program[1..])
        .env_clear()
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin", inside(root, "/usr/local/bin").display()),
        )
        .env("HOME", &data)
        .env("WIKI_MCP_LOG", "warn")
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    for (name, value) in &last.env {
        let value = match name.as_str() {
            "WIKI_MCP_DATA" => inside(root, value).display().to_string(),
            "WIKI_MCP_LISTEN" => value.replace(":8080", ":0"),
            _ => value.clone(),
        };
        command.env(name, value);
    }
    if as_root {
        command.uid(uid).gid(gid);
    }
    let (mut child, address) = listening::spawn_listening(&mut command, Duration::from_secs(60));

    // The HEALTHCHECK, run as the container runs it: as the image's user, on its port.
    let health_check = |port: u16| {
        let (script, program) = last.health_check.split_last().unwrap();
        assert!(script.contains("127.0.0.1/8080"), "{script}");
        let mut check = Command::new(&program[0]);
        check
            .args(&program[1..])
            .arg(script.replace("127.0.0.1/8080", &format!("127.0.0.1/{port}")))
            .stderr(Stdio::null());
        if as_root {
            check.uid(uid).gid(gid);
        }
        check.status().unwrap().success()
    };
    assert!(
        health_check(address.port()),
        "the health check passes on the serving image"
    );

    // What the server made of the volume is its user's alone.
    let mut made = 0;
    for entry in std::fs::read_dir(&data).unwrap() {
        let entry = entry.unwrap();
        let metadata = entry.metadata().unwrap();
        made += 1;
        assert_eq!(
            metadata.mode() & 0o077,
            0,
            "{} is readable by others",
            entry.path().display()
        );
        if as_root {
            assert_eq!((metadata.uid(), metadata.gid()), (uid, gid));
        }
    }
    assert!(made > 0, "the server made its farm in /data");
    if as_root {
        let volume = std::fs::metadata(&data).unwrap();
        assert_eq!(
            (volume.uid(), format!("{:o}", volume.mode() & 0o777)),
            (uid, "700".to_owned()),
            "/data's owner and mode"
        );
    }

    let _ = child.kill();
    let _ = child.wait();
    assert!(
        !health_check(address.port()),
        "and fails once nothing answers"
    );
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
