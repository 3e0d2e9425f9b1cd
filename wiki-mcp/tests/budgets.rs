//! The work-budget flags of the real binary: a small budget changes what an agent sees, and a
//! zero or absurd one is refused before anything is served.

// A test that cannot set up its farm or reach its server must fail loudly, where it stands.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/binary.rs"]
mod binary;
#[path = "support/listening.rs"]
mod listening;

use std::time::Duration;

use serde_json::{Value, json};
use tempfile::TempDir;
use wiki_store::model::document::DocumentSave;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{DocumentStore, SqliteStore};

use binary::{Serving, command, run, serve, serve_as};
use listening::succeeded;

/// A demo farm made by `init`, with a 2,000-character page `Budget.WebHome` holding `x` 30
/// times, and alice's token with edit_document turned on for `main`.
fn farm() -> (TempDir, String) {
    let dir = TempDir::new().unwrap();
    succeeded(run(dir.path(), &["init"]), &["init"]);
    {
        let store = SqliteStore::open(dir.path()).unwrap();
        let reference = DocumentReference::parse("Budget.WebHome", &WikiId::main()).unwrap();
        let content = format!("{}\n\n{}\n", "word ".repeat(400), " x".repeat(30));
        store
            .save_document(&DocumentSave::new(reference, content, "admin").title("Budget"))
            .unwrap();
    }
    let set = ["config", "set", "--wiki", "main", "tools=+edit_document"];
    succeeded(run(dir.path(), &set), &set);
    let create = ["token", "create", "--user", "admin"];
    let token = succeeded(run(dir.path(), &create), &create)
        .trim()
        .to_owned();
    (dir, token)
}

struct Served {
    _serving: Serving,
    endpoint: String,
    client: reqwest::blocking::Client,
}

impl From<Serving> for Served {
    fn from(serving: Serving) -> Self {
        Served {
            endpoint: format!("http://{}/rest/wikis/main/aiLLM/mcp", serving.address),
            client: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .unwrap(),
            _serving: serving,
        }
    }
}

impl Served {
    /// The text of `tool`'s result and whether it is an error result.
    fn call(&self, token: &str, tool: &str, arguments: Value) -> (String, bool) {
        let body = json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        });
        let text = self
            .client
            .post(&self.endpoint)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .body(body.to_string())
            .send()
            .unwrap()
            .text()
            .unwrap();
        let answer: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        let result = &answer["result"];
        (
            result["content"][0]["text"]
                .as_str()
                .unwrap_or_else(|| panic!("no text in {answer}"))
                .to_owned(),
            result["isError"].as_bool().unwrap_or(false),
        )
    }
}

#[test]
fn small_budgets_change_what_an_agent_sees() {
    let (dir, token) = farm();
    let rendered = json!({"reference": "Budget.WebHome", "rendered": true});
    let edit = json!({
        "reference": "Budget.WebHome",
        "edits": [{"old_string": " x", "new_string": " y", "replace_all": true}],
    });

    // The defaults: the page renders, and 30 replacements are one call's work.
    {
        let served = Served::from(serve(dir.path(), &[]));
        let (text, is_error) = served.call(&token, "get_document", rendered.clone());
        assert!(!is_error && !text.contains("NOT RENDERED"), "{text}");
        let (text, is_error) = served.call(&token, "edit_document", edit.clone());
        assert!(!is_error, "{text}");
    }

    // A 1,000-character render budget and 10 replacements per call, through flag and env.
    let mut small = command(dir.path());
    small
        .args(["serve", "--listen", "127.0.0.1:0", "--rate-limit", "0"])
        .args(["--render-max-chars", "1000"])
        .env("WIKI_MCP_MAX_REPLACEMENTS", "10");
    let served = Served::from(serve_as(&mut small));
    let (text, is_error) = served.call(&token, "get_document", rendered);
    assert!(!is_error, "{text}");
    assert!(
        text.contains(
            "NOT RENDERED: the page has 2063 characters, more than the 1000 the renderer accepts"
        ),
        "{text}"
    );
    let back = json!({
        "reference": "Budget.WebHome",
        "edits": [{"old_string": " y", "new_string": " x", "replace_all": true}],
    });
    let (text, is_error) = served.call(&token, "edit_document", back);
    assert!(is_error, "{text}");
    assert!(
        text.contains("one call makes at most 10 replacements"),
        "{text}"
    );
}

#[test]
fn zero_or_absurd_budgets_are_refused_before_serving() {
    let (dir, _) = farm();
    for (flag, value) in [
        ("--heavy-slots", "0"),
        ("--call-timeout", "0"),
        ("--render-max-chars", "5"),
        ("--pdf-max-inflated-mb", "100000"),
    ] {
        let output = run(
            dir.path(),
            &["serve", "--listen", "127.0.0.1:0", flag, value],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{flag} {value} was accepted");
        assert!(
            stderr.contains(&format!("{flag} {value} is outside")) && stderr.contains("range"),
            "{flag} {value}: {stderr}"
        );
    }
    // The connection bounds, which used to raise a zero to one silently.
    for flag in ["--max-connections", "--header-timeout"] {
        let output = run(dir.path(), &["serve", "--listen", "127.0.0.1:0", flag, "0"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && stderr.contains(&format!("{flag} 0 would refuse")),
            "{flag} 0: {stderr}"
        );
    }
    let output = command(dir.path())
        .args(["stdio", "--wiki", "main", "--user", "guest"])
        .env("WIKI_MCP_HEAVY_WAIT", "0")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && stderr.contains("--heavy-wait 0 is outside 1..=300"),
        "{stderr}"
    );
}

#[test]
fn help_names_every_budget_and_its_variable() {
    let dir = TempDir::new().unwrap();
    let help = String::from_utf8_lossy(&run(dir.path(), &["serve", "--help"]).stdout).into_owned();
    for (flag, variable) in [
        ("--call-timeout", "WIKI_MCP_CALL_TIMEOUT"),
        ("--render-max-chars", "WIKI_MCP_RENDER_MAX_CHARS"),
        ("--render-max-nesting", "WIKI_MCP_RENDER_MAX_NESTING"),
        (
            "--render-max-html-nesting",
            "WIKI_MCP_RENDER_MAX_HTML_NESTING",
        ),
        ("--heavy-slots", "WIKI_MCP_HEAVY_SLOTS"),
        ("--heavy-wait", "WIKI_MCP_HEAVY_WAIT"),
        ("--max-replacements", "WIKI_MCP_MAX_REPLACEMENTS"),
        ("--pdf-max-inflated-mb", "WIKI_MCP_PDF_MAX_INFLATED_MB"),
        ("--pdf-max-objects", "WIKI_MCP_PDF_MAX_OBJECTS"),
        ("--page-rate-limit", "WIKI_MCP_PAGE_RATE_LIMIT"),
    ] {
        assert!(
            help.contains(flag) && help.contains(variable),
            "{flag} / {variable} not in:\n{help}"
        );
    }
}
