//! A farm made by `wiki-mcp init` and the `wiki-mcp serve` process serving it.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::listening::{spawn_listening, succeeded};

/// The binary under test.
pub(crate) const WIKI_MCP: &str = env!("CARGO_BIN_EXE_wiki-mcp");

/// `wiki-mcp <farm> init` on the farm `farm` names (`--database URL` or `--data DIR`); returns
/// the administrator's token it prints.
pub(crate) fn init(farm: &[&str]) -> String {
    let mut args = farm.to_vec();
    args.push("init");
    let output = Command::new(WIKI_MCP)
        .args(&args)
        .env("WIKI_MCP_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let printed = succeeded(output, &args);
    printed
        .lines()
        .find_map(|line| line.split_once("(shown once): ").map(|(_, token)| token))
        .unwrap_or_else(|| panic!("no token in: {printed}"))
        .trim()
        .to_owned()
}

/// One `wiki-mcp serve` process on a loopback port.
pub(crate) struct Served {
    pub(crate) child: Child,
    pub(crate) address: SocketAddr,
    pub(crate) client: reqwest::blocking::Client,
}

impl Served {
    /// Starts `wiki-mcp <farm> serve --listen 127.0.0.1:0 <extra>` and waits for it to listen;
    /// without a rate limit unless `extra` sets one.
    pub(crate) fn start(farm: &[&str], extra: &[&str]) -> Served {
        Self::start_with_env(farm, extra, &[])
    }

    /// [`Served::start`] with the variables `env` set.
    pub(crate) fn start_with_env(farm: &[&str], extra: &[&str], env: &[(&str, &str)]) -> Served {
        let unlimited: &[&str] = if extra.contains(&"--rate-limit") {
            &[]
        } else {
            &["--rate-limit", "0"]
        };
        let (child, address) = spawn_listening(
            Command::new(WIKI_MCP)
                .args(farm)
                .args(["serve", "--listen", "127.0.0.1:0"])
                .args(unlimited)
                .args(extra)
                .env("WIKI_MCP_LOG", "warn")
                .envs(env.iter().copied())
                .stdin(Stdio::null()),
            Duration::from_secs(60),
        );
        Served {
            child,
            address,
            client: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
        }
    }

    /// `GET path`: the status, the refusal code and the body.
    pub(crate) fn get(&self, path: &str) -> (u16, Option<String>, String) {
        let response = self
            .client
            .get(format!("http://{}{path}", self.address))
            .send()
            .expect("the server answers");
        let status = response.status().as_u16();
        let refusal = response
            .headers()
            .get("x-wiki-mcp-refusal")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        (status, refusal, response.text().unwrap_or_default())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Retries `attempt` every 100 ms until it gives `Some`, or fails naming `what` after `limit`.
pub(crate) fn within<T>(what: &str, limit: Duration, mut attempt: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(value) = attempt() {
            return value;
        }
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}
