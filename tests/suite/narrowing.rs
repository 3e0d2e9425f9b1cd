//! Narrower sessions and tokens, with raw JSON-RPC: a client's `X-MCP-Readonly` /
//! `?readonly=true` and `X-MCP-Tools` / `?tools=`, and an API token's scope (read-only, tools,
//! wikis, expiry) shape `tools/list` and refuse calls outside them with a message naming the
//! limit and the way past it; the wiki's policy stays the upper bound; a misspelt name is a
//! 400; a token is refused on a wiki outside its scope (403) and once expired (401).

use std::time::Duration;

use serde_json::{Value, json};
use wiki_mcp_cli::demo::{DEMO_SUBWIKI, DEMO_USER};
use wiki_store::model::token::TokenScope;
use wiki_store::model::wiki::WikiId;
use wiki_store::{ConfigStore, TokenStore};
use wiki_tool_sdk::time::OffsetDateTime;

use crate::harness::{ACCEPT, TestServer, header, listed, message, tools_list};

/// POSTs `body` to `url` as the token's user, with `extra` headers; the JSON-RPC reply (JSON or
/// a one-event SSE stream) and the status.
async fn post(url: &str, token: &str, body: &Value, extra: &[(&str, &str)]) -> (u16, String) {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(serde_json::to_vec(body).expect("JSON"));
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    (status, response.text().await.expect("a body"))
}

fn call(tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
}

/// Serves get_document, get_tree and write_document on `main`.
fn serve_a_write_tool(server: &TestServer) {
    let main = WikiId::main();
    let mut config = server.store.mcp_config(&main);
    config.enabled_tools = ["get_document", "get_tree", "write_document"]
        .map(str::to_owned)
        .to_vec();
    server
        .store
        .set_mcp_config(&main, &config, "admin")
        .expect("the configuration is saved");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_session_lists_and_runs_no_write_tool() {
    let server = TestServer::start().await;
    serve_a_write_tool(&server);
    let endpoint = server.endpoint("main");
    let token = server.alice_token.clone();

    let (_, full) = post(&endpoint, &token, &tools_list(), &[]).await;
    assert!(listed(&message(&full)).contains(&"write_document".to_owned()));

    for (url, headers) in [
        (endpoint.clone(), vec![("x-mcp-readonly", "true")]),
        (format!("{endpoint}?readonly=true"), vec![]),
    ] {
        let (status, body) = post(&url, &token, &tools_list(), &headers).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            listed(&message(&body)),
            ["get_document", "get_tree", "list_wikis", "man"],
            "{url} {headers:?}"
        );
        let write = call(
            "write_document",
            json!({"reference": "Sandbox.Narrowed", "content": "no"}),
        );
        let (_, body) = post(&url, &token, &write, &headers).await;
        let reply = message(&body);
        let error = reply["error"]["message"].as_str().unwrap_or_default();
        assert!(
            error.contains("read-only") && error.contains("X-MCP-Readonly"),
            "{reply}"
        );
        assert!(
            error.contains("get_document, get_tree, list_wikis, man"),
            "{reply}"
        );
        let read = call("get_tree", json!({}));
        let (_, body) = post(&url, &token, &read, &headers).await;
        let reply = message(&body);
        assert_eq!(reply["result"]["isError"], json!(false), "{reply}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_narrowed_to_tools_gets_those_and_man_and_never_more_than_the_policy() {
    let server = TestServer::start().await;
    let endpoint = server.endpoint("main");
    let token = server.alice_token.clone();

    let (status, body) = post(
        &format!("{endpoint}?tools=get_tree"),
        &token,
        &tools_list(),
        &[("x-mcp-tools", "get_tree, get_document")],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(listed(&message(&body)), ["get_tree", "man"]);

    let (_, body) = post(
        &endpoint,
        &token,
        &call("get_document", json!({"reference": "Main.WebHome"})),
        &[("x-mcp-tools", "get_tree")],
    )
    .await;
    let reply = message(&body);
    let error = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        error.contains("not among the tools this client narrowed its requests to: get_tree (by"),
        "{reply}"
    );

    // A category names its tools; a tool the wiki does not serve stays out.
    let (_, body) = post(
        &endpoint,
        &token,
        &tools_list(),
        &[("x-mcp-tools", "authoring,get_tree")],
    )
    .await;
    assert_eq!(
        listed(&message(&body)),
        ["get_tree", "man"],
        "the default policy serves no write tool, and narrowing never adds one"
    );
    let (_, body) = post(
        &endpoint,
        &token,
        &call(
            "write_document",
            json!({"reference": "Sandbox.X", "content": "x"}),
        ),
        &[("x-mcp-tools", "write_document")],
    )
    .await;
    let reply = message(&body);
    let error = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        !error.contains("narrowed"),
        "an unserved tool is unknown, whatever the narrowing: {reply}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_misspelt_narrowing_is_refused_with_what_is_accepted() {
    let server = TestServer::start().await;
    let endpoint = server.endpoint("main");
    let (status, body) = post(
        &format!("{endpoint}?tools=get_documnet"),
        &server.alice_token,
        &tools_list(),
        &[],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("`get_documnet`") && body.contains("get_document"),
        "{body}"
    );
    let (status, body) = post(
        &endpoint,
        &server.alice_token,
        &tools_list(),
        &[("x-mcp-readonly", "sometimes")],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("true or false"), "{body}");
}

/// A token of alice's created with `scope`.
fn scoped_token(server: &TestServer, scope: &TokenScope) -> String {
    server
        .store
        .create_scoped_token(DEMO_USER, "scoped", scope)
        .expect("a scoped token")
        .token
        .expose()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scoped_token_lists_and_runs_only_what_its_scope_allows_and_says_so() {
    let server = TestServer::start().await;
    serve_a_write_tool(&server);
    let endpoint = server.endpoint("main");
    let read_only = scoped_token(
        &server,
        &TokenScope {
            read_only: true,
            ..TokenScope::full()
        },
    );
    let (_, body) = post(&endpoint, &read_only, &tools_list(), &[]).await;
    assert_eq!(
        listed(&message(&body)),
        ["get_document", "get_tree", "list_wikis", "man"]
    );
    let write = call(
        "write_document",
        json!({"reference": "Sandbox.Scoped", "content": "no"}),
    );
    let (_, body) = post(&endpoint, &read_only, &write, &[]).await;
    let reply = message(&body);
    let error = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        error.contains("the API token of this request is read-only")
            && error.contains("wiki-mcp token create"),
        "{reply}"
    );
    // The user's full token still writes: the scope is the token's, not the user's.
    let (_, body) = post(&endpoint, &server.alice_token, &write, &[]).await;
    assert_eq!(message(&body)["result"]["isError"], json!(false), "{body}");

    // A token's tools and a session's narrowing both apply.
    let two_tools = scoped_token(
        &server,
        &TokenScope {
            tools: Some(vec!["get_tree".into(), "get_document".into()]),
            ..TokenScope::full()
        },
    );
    let (_, body) = post(&endpoint, &two_tools, &tools_list(), &[]).await;
    assert_eq!(listed(&message(&body)), ["get_document", "get_tree", "man"]);
    let (_, body) = post(
        &format!("{endpoint}?tools=get_tree,list_wikis"),
        &two_tools,
        &tools_list(),
        &[],
    )
    .await;
    assert_eq!(listed(&message(&body)), ["get_tree", "man"]);
    let (_, body) = post(&endpoint, &two_tools, &call("list_wikis", json!({})), &[]).await;
    let reply = message(&body);
    let error = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        error.contains(
            "not among the tools the API token of this request allows: get_document, get_tree."
        ),
        "{reply}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_is_refused_on_a_wiki_outside_its_scope_and_once_it_expired() {
    let server = TestServer::start().await;
    let main_only = scoped_token(
        &server,
        &TokenScope {
            wikis: Some(vec!["main".into()]),
            ..TokenScope::full()
        },
    );
    let (status, _) = post(&server.endpoint("main"), &main_only, &tools_list(), &[]).await;
    assert_eq!(status, 200);
    let response = server.list_tools(DEMO_SUBWIKI, Some(&main_only)).await;
    assert_eq!(response.status(), 403);
    assert_eq!(
        header(&response, "www-authenticate").as_deref(),
        Some(r#"Bearer realm="wiki-mcp", error="insufficient_scope""#)
    );
    let body = response.text().await.unwrap_or_default();
    assert!(
        body.contains("only on the wikis main") && body.contains("--wiki"),
        "{body}"
    );

    let brief = scoped_token(
        &server,
        &TokenScope {
            expires: Some(OffsetDateTime::now_utc() + Duration::from_millis(400)),
            ..TokenScope::full()
        },
    );
    let (status, _) = post(&server.endpoint("main"), &brief, &tools_list(), &[]).await;
    assert_eq!(status, 200, "alive before its expiry");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let response = server.list_tools("main", Some(&brief)).await;
    assert_eq!(
        response.status(),
        401,
        "refused from its expiry on, cached or not"
    );
    assert_eq!(
        header(&response, "x-wiki-mcp-refusal").as_deref(),
        Some("expired-token")
    );
}
