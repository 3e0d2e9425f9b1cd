//! A demo farm made by `wiki-mcp init` on either backend, the admin commands run on it, a
//! `serve` process over it, and an agent's calls (plain JSON-RPC POSTs, as agents send them).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use semantic_search::{MODEL_DIR_ENV, ModelDir, ModelPackage};
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::listening::{spawn_listening, succeeded};
use wiki_store::testing::Backend;
use wiki_store::testing::scratch::ScratchDatabase;

/// The binary under test.
const WIKI_MCP: &str = env!("CARGO_BIN_EXE_wiki-mcp");

/// A demo farm, its data directory (the SQLite farm's, or only local files on PostgreSQL),
/// and the model directory its commands and server are given.
pub(crate) struct Farm {
    data: TempDir,
    database: Option<ScratchDatabase>,
    model_dir: PathBuf,
}

impl Farm {
    /// A new demo farm made by `wiki-mcp init` (SQLite in the data directory, or a scratch
    /// database on the PostgreSQL server), served with the model in `model_dir`.
    pub(crate) fn create(backend: &Backend, model_dir: PathBuf) -> Farm {
        let farm = Farm {
            data: TempDir::new().unwrap(),
            database: backend.server().map(ScratchDatabase::empty),
            model_dir,
        };
        farm.ok(&["init"]);
        farm
    }

    /// A demo farm whose model directory is empty: semantic search has no model.
    pub(crate) fn without_model(backend: &Backend) -> Farm {
        let farm = Farm::create(backend, PathBuf::new());
        let empty = farm.data.path().join("no-model");
        Farm {
            model_dir: empty,
            ..farm
        }
    }

    /// The farm's store, opened in this process as a server opens it (to hold a lease as a
    /// server's indexer does).
    pub(crate) fn store(&self) -> Box<dyn wiki_store::Store> {
        match &self.database {
            None => Box::new(wiki_store::SqliteStore::open(self.data.path()).unwrap()),
            Some(database) => Box::new(
                wiki_store::PostgresStore::connect_with(
                    database.url(),
                    wiki_store::StoreConfig::default(),
                )
                .unwrap(),
            ),
        }
    }

    /// The data directory.
    pub(crate) fn data(&self) -> &Path {
        self.data.path()
    }

    fn command(&self) -> Command {
        let mut command = Command::new(WIKI_MCP);
        command.arg("--data").arg(self.data.path());
        if let Some(database) = &self.database {
            command.arg("--database").arg(database.url());
        }
        command
            .env_remove("WIKI_MCP_DATA")
            .env_remove("WIKI_MCP_DATABASE")
            .env(MODEL_DIR_ENV, &self.model_dir)
            .env("WIKI_MCP_LOG", "warn")
            .stdin(Stdio::null());
        command
    }

    /// Runs a command whatever its outcome.
    pub(crate) fn run(&self, args: &[&str]) -> Output {
        self.command().args(args).output().unwrap()
    }

    /// Runs a command that must succeed; returns its stdout.
    pub(crate) fn ok(&self, args: &[&str]) -> String {
        succeeded(self.run(args), args)
    }

    /// Runs a command that must fail, printing nothing on stdout; returns its stderr.
    pub(crate) fn fails(&self, args: &[&str]) -> String {
        let output = self.run(args);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            !output.status.success(),
            "wiki-mcp {args:?} succeeded: {stdout}"
        );
        assert_eq!(stdout, "", "a failing command prints nothing on stdout");
        String::from_utf8_lossy(&output.stderr).into_owned()
    }

    /// A new token of `user`.
    pub(crate) fn token(&self, user: &str) -> String {
        self.ok(&["token", "create", "--user", user])
            .trim()
            .to_owned()
    }

    /// Starts `wiki-mcp serve` on loopback and waits for it to listen.
    pub(crate) fn serve(&self) -> Server {
        self.serve_with(self.command())
    }

    /// [`Farm::serve`], its log (the semantic indexer's at INFO) written to `log`.
    pub(crate) fn serve_logged(&self, log: &Path) -> Server {
        let mut command = self.command();
        command
            .env("WIKI_MCP_LOG", "warn,semantic_search=info")
            .stderr(std::fs::File::create(log).unwrap());
        self.serve_with(command)
    }

    fn serve_with(&self, mut command: Command) -> Server {
        let (child, address) = spawn_listening(
            command.args(["serve", "--listen", "127.0.0.1:0", "--rate-limit", "0"]),
            Duration::from_secs(60),
        );
        Server {
            child,
            address,
            client: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .unwrap(),
        }
    }
}

/// A running `wiki-mcp serve`.
pub(crate) struct Server {
    child: Child,
    address: SocketAddr,
    client: reqwest::blocking::Client,
}

impl Server {
    /// Kills the process at once (SIGKILL): it releases nothing.
    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a tool call answered: its text, and whether it is an error result.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) text: String,
    pub(crate) is_error: bool,
}

impl Answer {
    /// The answer of a `tools/call` reply, which must be a result.
    fn of(reply: &Value) -> Self {
        assert!(reply["error"].is_null(), "{reply}");
        let result = &reply["result"];
        Self {
            text: result["content"][0]["text"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            is_error: result["isError"].as_bool().unwrap_or(false),
        }
    }

    /// The text of a successful result.
    pub(crate) fn ok(self) -> String {
        assert!(
            !self.is_error,
            "expected a successful result: {}",
            self.text
        );
        self.text
    }
}

impl Server {
    fn post(&self, wiki: &str, token: Option<&str>, body: &Value) -> Value {
        self.post_with(wiki, token, body, &[])
    }

    /// [`Self::post`] with `headers` added.
    fn post_with(
        &self,
        wiki: &str,
        token: Option<&str>,
        body: &Value,
        headers: &[(&str, &str)],
    ) -> Value {
        let mut request = self
            .client
            .post(format!(
                "http://{}/rest/wikis/{wiki}/aiLLM/mcp",
                self.address
            ))
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let response = request.body(body.to_string()).send().unwrap();
        assert_eq!(response.status().as_u16(), 200, "{body}");
        let text = response.text().unwrap();
        // rmcp answers an SSE stream, the direct tools/call path plain JSON.
        let json = text
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .rfind(|data| data.starts_with('{'))
            .unwrap_or(&text);
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// Calls `tool` on `wiki` as the owner of `token` (the guest without one).
    pub(crate) fn call(
        &self,
        wiki: &str,
        token: Option<&str>,
        tool: &str,
        arguments: Value,
    ) -> Answer {
        let body = json!({
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        });
        let answer = self.post(wiki, token, &body);
        Answer::of(&answer)
    }

    /// Calls `tool`, declared `confirm`, as a protocol 2026-07-28 client whose person accepts:
    /// the first round answers the question and a request state, the retry with the person's
    /// yes runs the call.
    pub(crate) fn call_confirmed(
        &self,
        wiki: &str,
        token: &str,
        tool: &str,
        arguments: Value,
    ) -> Answer {
        const PROTOCOL: &str = "2026-07-28";
        let headers = [
            ("mcp-protocol-version", PROTOCOL),
            ("mcp-method", "tools/call"),
            ("mcp-name", tool),
        ];
        let mut body = json!({
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": tool,
                "arguments": arguments,
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": PROTOCOL,
                    "io.modelcontextprotocol/clientInfo": {"name": "semantic-test", "version": "1"},
                    "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
                },
            },
        });
        let asked = self.post_with(wiki, Some(token), &body, &headers);
        let state = asked["result"]["requestState"]
            .as_str()
            .unwrap_or_else(|| panic!("no question asked: {asked}"));
        body["params"]["requestState"] = json!(state);
        body["params"]["inputResponses"] = json!({"confirm_write": {"action": "accept"}});
        let answer = self.post_with(wiki, Some(token), &body, &headers);
        Answer::of(&answer)
    }

    /// The tool names `tools/list` gives the owner of `token` (the guest without one) on `wiki`.
    pub(crate) fn tool_names(&self, wiki: &str, token: Option<&str>) -> Vec<String> {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        let answer = self.post(wiki, token, &body);
        answer["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("no tools in {answer}"))
            .iter()
            .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
            .collect()
    }
}

/// The block of a `search_collections` answer under `header` (e.g. "Semantic results:"), empty
/// when the answer has none.
pub(crate) fn block<'a>(text: &'a str, header: &str) -> &'a str {
    const HEADERS: [&str; 3] = ["Fused results (", "Keyword results:", "Semantic results:"];
    let Some(at) = text.find(header) else {
        return "";
    };
    let rest = &text[at + header.len()..];
    let end = HEADERS
        .iter()
        .filter_map(|next| rest.find(next))
        .min()
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Retries `attempt` until it gives `Some`, or fails naming `what` after `limit`. The short
/// pause between attempts only spaces the polls; the deadline is what bounds the wait.
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

/// The model `semantic-search/scripts/install-test-model.sh` installed
/// (`WIKI_MCP_MODEL_DIR`, else `${CARGO_TARGET_DIR:-<workspace>/target}/models/...`), or
/// `None` after saying on stderr that `test` is skipped. Under CI a missing model fails: the
/// test command installs it.
pub(crate) fn installed_model(test: &str) -> Option<PathBuf> {
    let package = ModelPackage::all_minilm_l6_v2();
    let dir = match std::env::var_os(MODEL_DIR_ENV).filter(|dir| !dir.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"))
            .join("models")
            .join(&package.model),
    };
    match ModelDir::verify(&dir, package) {
        Ok(model) => Some(model.path().to_path_buf()),
        Err(e) if std::env::var_os("CI").is_some() => {
            panic!("{test}: the model must be installed under CI: {e}")
        }
        Err(e) => {
            eprintln!(
                "{test}: skipped: model not installed (run semantic-search/scripts/install-test-model.sh): {e}"
            );
            None
        }
    }
}
