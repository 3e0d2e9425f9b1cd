//! A PostgreSQL farm made by `wiki-mcp init`, the replicas serving it, and an agent's calls.

use std::net::{SocketAddr, ToSocketAddrs};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::listening::{spawn_listening, succeeded};
use crate::proxy::Proxy;
use wiki_store::testing::scratch::ScratchDatabase;

/// The binary under test.
pub(crate) const WIKI_MCP: &str = env!("CARGO_BIN_EXE_wiki-mcp");

/// A farm in a scratch database, reached through a forwarder the test can take down.
pub(crate) struct Farm {
    /// The URL the replicas and commands use (through the forwarder).
    pub(crate) url: String,
    pub(crate) proxy: Proxy,
    /// The administrator's token, from `init`.
    pub(crate) admin_token: String,
    _database: ScratchDatabase,
}

impl Farm {
    /// A new demo farm (`wiki-mcp --database URL init`) with the write tools enabled on `main`,
    /// and links in tool output.
    pub(crate) fn create(server: &str) -> Farm {
        let database = ScratchDatabase::empty(server);
        let config: postgres::Config = server.parse().unwrap();
        let host = match &config.get_hosts()[0] {
            postgres::config::Host::Tcp(host) => host.clone(),
            postgres::config::Host::Unix(_) => panic!("the replica tests need a TCP server URL"),
        };
        let port = config.get_ports().first().copied().unwrap_or(5432);
        let upstream = (host.as_str(), port)
            .to_socket_addrs()
            .unwrap()
            .next()
            .unwrap();
        let proxy = Proxy::start(upstream);
        let user = config.get_user().unwrap_or("postgres");
        let credentials = match config.get_password() {
            Some(password) => format!("{user}:{}", String::from_utf8_lossy(password)),
            None => user.to_owned(),
        };
        let url = format!(
            "postgres://{credentials}@{}/{}",
            proxy.address(),
            database.name()
        );
        let mut farm = Farm {
            url,
            proxy,
            admin_token: String::new(),
            _database: database,
        };
        let init = farm.admin(&["init"]);
        farm.admin_token = token_in(&init);
        farm.admin(&[
            "config",
            "set",
            "--wiki",
            "main",
            "tools=man,get_document,query_documents,write_document",
            // The scenarios follow the links tools print from one replica to another.
            "links=on",
        ]);
        farm
    }

    /// Runs an admin command on the farm; it must succeed. Returns its stdout.
    pub(crate) fn admin(&self, args: &[&str]) -> String {
        succeeded(self.command(args), args)
    }

    /// Runs an admin command on the farm, whatever its outcome.
    pub(crate) fn command(&self, args: &[&str]) -> Output {
        Command::new(WIKI_MCP)
            .arg("--database")
            .arg(&self.url)
            .args(args)
            .env("WIKI_MCP_LOG", "warn")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    /// A new token of `user` (`wiki-mcp token create`).
    pub(crate) fn token(&self, user: &str) -> String {
        token_in(&self.admin(&["token", "create", "--user", user]))
    }

    /// Starts a replica serving the farm and waits for it to listen.
    pub(crate) fn replica(&self) -> Replica {
        Replica::start(&self.url)
    }
}

/// The token a command printed: alone on stdout (`token create`), or after `(shown once): `
/// (`init`).
fn token_in(output: &str) -> String {
    output
        .lines()
        .map(|line| {
            line.split_once("(shown once): ")
                .map_or(line, |(_, token)| token)
                .trim()
        })
        .find(|candidate| candidate.starts_with("wmcp_"))
        .unwrap_or_else(|| panic!("no token in: {output}"))
        .to_owned()
}

/// One `wiki-mcp serve` process.
pub(crate) struct Replica {
    child: Child,
    pub(crate) address: SocketAddr,
    client: reqwest::blocking::Client,
}

/// What a tool call answered.
#[derive(Debug)]
pub(crate) enum Answer {
    /// A tool result: its text, and whether it is an error result.
    Result { text: String, is_error: bool },
    /// A JSON-RPC error (an unknown tool, say), with its message.
    RpcError(String),
    /// An HTTP status other than 200, with its `Retry-After` header.
    Status(u16, Option<String>),
}

impl Answer {
    /// The text of a successful result, or a panic naming what came instead.
    pub(crate) fn ok(self) -> String {
        match self {
            Answer::Result {
                text,
                is_error: false,
            } => text,
            other => panic!("expected a successful result, got {other:?}"),
        }
    }
}

impl Replica {
    /// Starts `wiki-mcp --database url serve` and waits for it to listen.
    pub(crate) fn start(url: &str) -> Replica {
        let (child, address) = spawn_listening(
            Command::new(WIKI_MCP)
                .args(["--database", url, "serve", "--listen", "127.0.0.1:0"])
                .args(["--rate-limit", "0", "--call-timeout", "10"])
                .env("WIKI_MCP_LOG", "warn")
                .stdin(Stdio::null()),
            Duration::from_secs(30),
        );
        Replica {
            child,
            address,
            client: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
        }
    }

    /// The MCP endpoint of `wiki` on this replica.
    pub(crate) fn endpoint(&self, wiki: &str) -> String {
        format!("http://{}/rest/wikis/{wiki}/aiLLM/mcp", self.address)
    }

    /// Calls `tool` on the main wiki as the owner of `token`.
    pub(crate) fn call(&self, token: &str, tool: &str, arguments: Value) -> Answer {
        call_at(&self.client, &self.endpoint("main"), token, tool, arguments)
            .expect("the replica answers")
    }

    /// GETs `url` on this replica (its host and port replaced by this replica's).
    pub(crate) fn get_on_this(&self, url: &str) -> (u16, String) {
        let path = url
            .split_once("://")
            .and_then(|(_, rest)| rest.find('/').map(|slash| &rest[slash..]))
            .unwrap_or_else(|| panic!("not a URL: {url}"));
        let response = self
            .client
            .get(format!("http://{}{path}", self.address))
            .send()
            .expect("the replica answers");
        let status = response.status().as_u16();
        (status, response.text().unwrap_or_default())
    }

    /// Ends the process with SIGKILL: no shutdown code runs.
    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Calls `tool` at `endpoint` as the owner of `token`, as an agent does (a plain JSON-RPC
/// `tools/call` POST); `Err` when the HTTP exchange itself fails (the process is gone).
pub(crate) fn call_at(
    client: &reqwest::blocking::Client,
    endpoint: &str,
    token: &str,
    tool: &str,
    arguments: Value,
) -> reqwest::Result<Answer> {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    });
    let response = client
        .post(endpoint)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(body.to_string())
        .send()?;
    let status = response.status().as_u16();
    if status != 200 {
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        return Ok(Answer::Status(status, retry_after));
    }
    let answer: Value = serde_json::from_slice(&response.bytes()?).unwrap();
    if let Some(message) = answer["error"]["message"].as_str() {
        return Ok(Answer::RpcError(message.to_owned()));
    }
    let result = &answer["result"];
    Ok(Answer::Result {
        text: result["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        is_error: result["isError"].as_bool().unwrap_or(false),
    })
}

/// Retries `attempt` every 20 ms until it gives `Some`, or fails naming `what` after `limit`.
pub(crate) fn within<T>(what: &str, limit: Duration, mut attempt: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(value) = attempt() {
            return value;
        }
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}
