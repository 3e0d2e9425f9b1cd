//! Regression: a signed link printed for the guest must stop opening once the guest is no longer
//! served: after `config set guest=false`, and on a server started with
//! `--authorization-server` (where every request needs a token), while a user's link keeps
//! working. The real binary, restarted on the same data directory (the link key persists).

// A test that cannot set up its farm or reach its server must fail loudly, where it stands.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/binary.rs"]
mod binary;
#[path = "support/listening.rs"]
mod listening;

use serde_json::{Value, json};
use tempfile::TempDir;

use binary::{Serving, run, serve};
use listening::succeeded;

type Served = Serving;

/// The `URL:` line get_document prints for `reference` to the owner of `token` (the guest
/// without one).
fn view_link(served: &Served, token: Option<&str>, reference: &str) -> String {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "get_document", "arguments": {"reference": reference},
                   "_meta": {"wiki-mcp/links": true}},
    });
    let mut request = reqwest::blocking::Client::new()
        .post(format!(
            "http://{}/rest/wikis/main/aiLLM/mcp",
            served.address
        ))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let text = request
        .body(body.to_string())
        .send()
        .unwrap()
        .text()
        .unwrap();
    let answer: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let printed = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {answer}"));
    printed
        .lines()
        .find_map(|line| line.strip_prefix("URL: "))
        .unwrap_or_else(|| panic!("no URL line in {printed}"))
        .to_owned()
}

/// The status of GET `link` sent to `served` (the link's path and query, whatever address it
/// was printed with: a restarted server listens on another port).
fn status(served: &Served, link: &str) -> u16 {
    let path = link
        .split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|slash| &rest[slash..]))
        .unwrap_or_else(|| panic!("not a URL: {link}"));
    reqwest::blocking::get(format!("http://{}{path}", served.address))
        .unwrap()
        .status()
        .as_u16()
}

#[test]
fn a_guest_link_stops_opening_when_the_guest_is_not_served() {
    let dir = TempDir::new().unwrap();
    let data = dir.path();
    succeeded(run(data, &["init"]), &["init"]);
    let create = ["token", "create", "--user", "alice"];
    let alice = succeeded(run(data, &create), &create).trim().to_owned();

    let served = serve(data, &[]);
    let guest_link = view_link(&served, None, "Sandbox.WebHome");
    let alice_link = view_link(&served, Some(&alice), "Sandbox.WebHome");
    assert_eq!(status(&served, &guest_link), 200);
    assert_eq!(status(&served, &alice_link), 200);

    // The wiki stops serving the guest: its link dies on the next request, alice's does not.
    let off = ["config", "set", "--wiki", "main", "guest=false"];
    succeeded(run(data, &off), &off);
    assert_eq!(status(&served, &guest_link), 403);
    assert_eq!(status(&served, &alice_link), 200);
    let on = ["config", "set", "--wiki", "main", "guest=true"];
    succeeded(run(data, &on), &on);
    assert_eq!(
        status(&served, &guest_link),
        200,
        "the link itself is intact"
    );
    drop(served);

    // The same farm served behind an authorization server: no request runs as the guest, so
    // no guest link opens; a user's link signed before the restart still does.
    let guarded = serve(
        data,
        &["--authorization-server", "https://auth.example.com"],
    );
    assert_eq!(status(&guarded, &guest_link), 403);
    assert_eq!(status(&guarded, &alice_link), 200);
}
