//! A PostgreSQL cluster of the test's own, which the test may stop and start: the shared test
//! server (`WIKI_MCP_TEST_DATABASE`) must never be stopped under the other tests.
//!
//! Made with the installed server's `initdb` and `pg_ctl` (Debian's `/usr/lib/postgresql/N/bin`,
//! or on `PATH`; `tests/postgres/install.sh` installs them in CI) in a temporary directory, on a
//! free loopback port, trusting local connections, run as the `postgres` user when the tests
//! run as root (PostgreSQL refuses root). Stopped and deleted when dropped.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

/// The cluster's superuser, trusted without a password.
const USER: &str = "wiki_test";

/// A running (or stopped) private cluster.
pub(crate) struct Cluster {
    dir: TempDir,
    bindir: PathBuf,
    port: u16,
    /// `runuser -u postgres --` when the tests run as root.
    as_owner: Vec<String>,
}

impl Cluster {
    /// The directory of `initdb` and `pg_ctl`, if PostgreSQL's server is installed.
    pub(crate) fn installed() -> Option<PathBuf> {
        let mut debian: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path().join("bin"))
            .collect();
        // The newest major version first.
        debian.sort_by_key(|dir| {
            std::cmp::Reverse(
                dir.parent()
                    .and_then(Path::file_name)
                    .and_then(|name| name.to_str())
                    .and_then(|name| name.parse::<u32>().ok())
                    .unwrap_or(0),
            )
        });
        let path = std::env::var_os("PATH")
            .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
            .unwrap_or_default();
        debian
            .into_iter()
            .chain(path)
            .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
    }

    /// A new cluster, started; panics when it cannot be made (call [`Cluster::installed`]
    /// first to skip without PostgreSQL).
    pub(crate) fn start_new(bindir: &Path) -> Cluster {
        let dir = tempfile::Builder::new()
            .prefix("wiki-mcp-cluster")
            .tempdir()
            .unwrap();
        let as_owner = if is_root() {
            ensure_postgres_user();
            vec![
                "runuser".into(),
                "-u".into(),
                "postgres".into(),
                "--".into(),
            ]
        } else {
            Vec::new()
        };
        std::fs::create_dir(dir.path().join("data")).unwrap();
        std::fs::create_dir(dir.path().join("socket")).unwrap();
        if is_root() {
            run(Command::new("chmod").arg("0755").arg(dir.path()));
            run(Command::new("chown")
                .args(["-R", "postgres"])
                .arg(dir.path()));
        }
        let cluster = Cluster {
            bindir: bindir.to_owned(),
            port: free_port(),
            as_owner,
            dir,
        };
        run(cluster
            .command("initdb")
            .arg("-D")
            .arg(cluster.data())
            .args([
                "--username",
                USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
            ]));
        cluster.start();
        cluster
    }

    /// The URL of its `postgres` database.
    pub(crate) fn url(&self) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/postgres", self.port)
    }

    /// Starts the server (after [`Cluster::stop`]) and waits until it accepts connections.
    pub(crate) fn start(&self) {
        let options = format!(
            "-c listen_addresses=127.0.0.1 -c port={} -c unix_socket_directories={} \
             -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
            self.port,
            self.dir.path().join("socket").display()
        );
        run(self
            .command("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(self.dir.path().join("server.log"))
            .args(["-w", "-t", "60", "-o", &options, "start"]));
    }

    /// Stops the server (fast: open connections are closed) and waits until it is down.
    pub(crate) fn stop(&self) {
        run(self
            .command("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "fast", "-w", "stop"]));
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn command(&self, program: &str) -> Command {
        let program = self.bindir.join(program);
        match self.as_owner.split_first() {
            Some((runner, args)) => {
                let mut command = Command::new(runner);
                command.args(args).arg(program);
                command
            }
            None => Command::new(program),
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "-w", "stop"])
            .output();
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// The `postgres` system user (PostgreSQL runs as it when the tests run as root), created as
/// `tests/postgres/with-cluster.sh` does when the package did not.
fn ensure_postgres_user() {
    let exists = Command::new("id")
        .arg("postgres")
        .output()
        .is_ok_and(|output| output.status.success());
    if !exists {
        run(Command::new("useradd").args([
            "--system",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            "postgres",
        ]));
    }
}

/// A loopback port nothing listens on right now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn run(command: &mut Command) -> Output {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{command:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}
