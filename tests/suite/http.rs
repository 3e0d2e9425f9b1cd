//! The HTTP layer, through a real server on loopback: the gates in the reference's order, the
//! DNS-rebinding checks, the limits, shutdown, and real MCP clients.

use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use wiki_mcp_cli::demo::{DEMO_SUBWIKI, DEMO_USER};
use wiki_server::http::{BaseUrl, HttpOptions, RateClock, RateLimit, Refusal};
use wiki_store::model::wiki::WikiId;
use wiki_store::{ConfigStore, SqliteStore, TokenStore};

use crate::harness::{Answer, TestServer, header, text_of, tools_list};

const AUTHORIZATION_SERVER: &str = "https://auth.example.com";

/// A token that is no token, or revoked, on a server without an authorization server.
const INVALID_TOKEN: Refusal = Refusal::InvalidToken {
    resource_metadata: None,
};

async fn json_body(response: reqwest::Response) -> Value {
    let bytes = response.bytes().await.expect("a body");
    serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&bytes)))
}

fn set_config(
    store: &SqliteStore,
    wiki: &str,
    change: impl FnOnce(&mut wiki_store::model::mcp_config::McpConfig),
) {
    let wiki = WikiId::new(wiki).expect("a wiki id");
    let mut config = store.mcp_config(&wiki);
    change(&mut config);
    store
        .set_mcp_config(&wiki, &config, "admin")
        .expect("the configuration saves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_and_disabled_wikis_are_404_before_authentication() {
    let server = TestServer::start().await;
    let bad = Some("wmcp_not_a_token");
    assert_eq!(
        server.list_tools_answer("nowhere", bad).await,
        Answer::refused(&Refusal::UnknownWiki)
    );
    assert_eq!(
        server.list_tools_answer("Not-A-Wiki-Id!", None).await,
        Answer::refused(&Refusal::UnknownWiki)
    );
    // Control: the same bad token on a served wiki is an authentication failure.
    assert_eq!(
        server.list_tools_answer(DEMO_SUBWIKI, bad).await,
        Answer::refused(&INVALID_TOKEN)
    );

    set_config(&server.store, DEMO_SUBWIKI, |config| config.enabled = false);
    assert_eq!(
        server.list_tools_answer(DEMO_SUBWIKI, bad).await,
        Answer::refused(&Refusal::UnknownWiki)
    );
    let valid = server.alice_token.clone();
    assert_eq!(
        server.list_tools_answer(DEMO_SUBWIKI, Some(&valid)).await,
        Answer::refused(&Refusal::UnknownWiki),
        "a disabled endpoint is absent even for a valid user"
    );
    set_config(&server.store, DEMO_SUBWIKI, |config| config.enabled = true);
    assert_eq!(
        server.list_tools_answer(DEMO_SUBWIKI, Some(&valid)).await,
        Answer::ok(),
        "re-enabled without a restart"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_token_is_401_with_a_bearer_challenge() {
    let server = TestServer::start().await;
    let response = server.list_tools("main", Some("wmcp_forged")).await;
    assert_eq!(Answer::of(&response), Answer::refused(&INVALID_TOKEN));
    assert_eq!(
        header(&response, "www-authenticate").as_deref(),
        Some(r#"Bearer realm="wiki-mcp", error="invalid_token""#)
    );
    let basic = server
        .post(
            "main",
            None,
            &tools_list(),
            &[("authorization", "Basic YWxpY2U6cHc=")],
        )
        .await;
    assert_eq!(
        Answer::of(&basic),
        Answer::refused(&INVALID_TOKEN),
        "another scheme is not a credential we accept"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_revoked_by_another_process_is_refused_one_marker_window_later() {
    let server = TestServer::start().await;
    let token = server.alice_token.clone();
    assert_eq!(
        server.list_tools_answer("main", Some(&token)).await,
        Answer::ok()
    );
    // A second store on the same files: its writes reach the server only through the database
    // (the change sequence), as an admin command's would.
    let other_process = SqliteStore::open(server.dir.path()).expect("open the farm again");
    let prefix = other_process
        .list_tokens(Some(DEMO_USER))
        .expect("alice's tokens")
        .into_iter()
        .map(|info| info.prefix)
        .next()
        .expect("alice has a token");
    other_process.revoke_token(&prefix).expect("revoke");
    // Another connection's commit is seen by every request arriving a commit-marker window
    // after it.
    tokio::time::sleep(wiki_store::sqlite::MARKER_WINDOW).await;
    assert_eq!(
        server.list_tools_answer("main", Some(&token)).await,
        Answer::refused(&INVALID_TOKEN)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_authorization_server_turns_anonymous_requests_into_401_with_metadata() {
    let server = TestServer::start_with(HttpOptions {
        authorization_servers: vec![AUTHORIZATION_SERVER.to_owned()],
        rate_limit: None,
        ..HttpOptions::default()
    })
    .await;
    let endpoint = server.endpoint("main");
    let metadata_url = format!("{endpoint}/.well-known/oauth-protected-resource");

    let response = server.list_tools("main", None).await;
    assert_eq!(
        Answer::of(&response),
        Answer::refused(&Refusal::TokenRequired {
            resource_metadata: Some(metadata_url.clone())
        })
    );
    assert_eq!(
        header(&response, "www-authenticate"),
        Some(format!(
            r#"Bearer realm="wiki-mcp", resource_metadata="{metadata_url}""#
        ))
    );

    let expected = json!({
        "resource": endpoint,
        "authorization_servers": [AUTHORIZATION_SERVER],
        "bearer_methods_supported": ["header"],
    });
    let metadata = reqwest::get(&metadata_url).await.expect("metadata");
    assert_eq!(metadata.status(), 200);
    assert_eq!(json_body(metadata).await, expected);
    // RFC 9728 §3.1's well-known location (the resource path after the well-known suffix).
    let inserted = format!(
        "{}/.well-known/oauth-protected-resource/rest/wikis/main/aiLLM/mcp",
        server.base
    );
    assert_eq!(
        json_body(reqwest::get(&inserted).await.expect("metadata")).await,
        expected
    );
    // The metadata of an unknown wiki does not exist.
    let unknown = format!(
        "{}/rest/wikis/nowhere/aiLLM/mcp/.well-known/oauth-protected-resource",
        server.base
    );
    assert_eq!(
        Answer::of(&reqwest::get(&unknown).await.expect("answer")),
        Answer::refused(&Refusal::UnknownWiki)
    );

    let token = server.alice_token.clone();
    assert_eq!(
        server.list_tools_answer("main", Some(&token)).await,
        Answer::ok()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_authorization_server_the_metadata_is_404_and_the_guest_is_served() {
    let server = TestServer::start().await;
    let metadata_url = format!(
        "{}/.well-known/oauth-protected-resource",
        server.endpoint("main")
    );
    assert_eq!(
        Answer::of(&reqwest::get(&metadata_url).await.expect("answer")),
        Answer::refused(&Refusal::NotFound)
    );
    assert_eq!(server.list_tools_answer("main", None).await, Answer::ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wiki_without_guest_access_answers_401_with_a_challenge() {
    let server = TestServer::start().await;
    set_config(&server.store, "main", |config| config.guest_access = false);
    let response = server.list_tools("main", None).await;
    assert_eq!(
        Answer::of(&response),
        Answer::refused(&Refusal::TokenRequired {
            resource_metadata: None
        })
    );
    assert_eq!(
        header(&response, "www-authenticate").as_deref(),
        Some(r#"Bearer realm="wiki-mcp""#)
    );
    let token = server.alice_token.clone();
    assert_eq!(
        server.list_tools_answer("main", Some(&token)).await,
        Answer::ok()
    );
    // Another wiki keeps its own setting.
    assert_eq!(
        server.list_tools_answer(DEMO_SUBWIKI, None).await,
        Answer::ok()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_wiki_is_closed_to_the_guest_until_an_administrator_opens_it() {
    let server = TestServer::start().await;
    let fresh = WikiId::new("fresh").expect("a wiki id");
    wiki_store::WikiStore::create_wiki(&server.store, &fresh, "Fresh")
        .expect("the wiki is created");
    let response = server.list_tools("fresh", None).await;
    assert_eq!(
        Answer::of(&response),
        Answer::refused(&Refusal::TokenRequired {
            resource_metadata: None
        })
    );
    let text = response.text().await.expect("a body");
    for how in ["wiki-mcp token create", "guest=true", "Guest access"] {
        assert!(text.contains(how), "the refusal names `{how}`: {text}");
    }
    let token = server.alice_token.clone();
    assert_eq!(
        server.list_tools_answer("fresh", Some(&token)).await,
        Answer::ok(),
        "a caller with a token is served"
    );
    set_config(&server.store, "fresh", |config| config.guest_access = true);
    assert_eq!(
        server.list_tools_answer("fresh", None).await,
        Answer::ok(),
        "opened explicitly, the wiki serves the guest"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_hosts_and_origins_are_refused() {
    let server = TestServer::start().await;
    let forbidden = [
        ("host", "evil.example", Refusal::HostNotAllowed),
        ("origin", "http://evil.example", Refusal::OriginNotAllowed),
        ("origin", "null", Refusal::OriginNotAllowed),
    ];
    for (name, value, refusal) in forbidden {
        let response = server
            .post("main", None, &tools_list(), &[(name, value)])
            .await;
        assert_eq!(
            Answer::of(&response),
            Answer::refused(&refusal),
            "{name}: {value}"
        );
    }
    let local = server
        .post(
            "main",
            None,
            &tools_list(),
            &[("origin", "http://localhost:6274")],
        )
        .await;
    assert_eq!(
        local.status(),
        200,
        "a local tool's page (the MCP Inspector) is allowed"
    );
    // Even the 404 of an unknown wiki is not revealed to a foreign host.
    let probe = server
        .post("nowhere", None, &tools_list(), &[("host", "evil.example")])
        .await;
    assert_eq!(
        Answer::of(&probe),
        Answer::refused(&Refusal::HostNotAllowed)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_url_adds_its_host_to_the_accepted_ones() {
    let public = BaseUrl::parse("https://wiki.example.com/").expect("a URL");
    let server = TestServer::start_with_settings(|settings| settings.with_public_url(public)).await;
    assert_eq!(server.base, "https://wiki.example.com");
    // The test talks to the bound loopback address; the Host header is what a reverse proxy
    // would forward.
    for (host, expected) in [
        ("wiki.example.com", Answer::ok()),
        ("evil.example", Answer::refused(&Refusal::HostNotAllowed)),
    ] {
        let response = reqwest::Client::new()
            .post(format!("http://{}/rest/wikis/main/aiLLM/mcp", server.bound))
            .header("host", host)
            .header("accept", crate::harness::ACCEPT)
            .header("content-type", "application/json")
            .body(tools_list().to_string())
            .send()
            .await
            .expect("an answer");
        assert_eq!(Answer::of(&response), expected, "Host: {host}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_answers_429_with_retry_after() {
    let clock = RateClock::manual();
    let server = TestServer::start_with(HttpOptions {
        rate_limit: Some(RateLimit {
            per_second: 1,
            burst: 2,
        }),
        rate_clock: clock.clone(),
        ..HttpOptions::default()
    })
    .await;
    let alice = server.alice_token.clone();
    for _ in 0..2 {
        assert_eq!(
            server.list_tools_answer("main", Some(&alice)).await,
            Answer::ok()
        );
    }
    let limited = server.list_tools("main", Some(&alice)).await;
    assert_eq!(
        Answer::of(&limited),
        Answer::refused(&Refusal::RateLimited { retry_after: 1 })
    );
    assert_eq!(header(&limited, "retry-after").as_deref(), Some("1"));
    // Buckets are per caller.
    let admin = server.admin_token.clone();
    assert_eq!(
        server.list_tools_answer("main", Some(&admin)).await,
        Answer::ok()
    );
    // One token is back a second later, not before.
    clock.advance(Duration::from_millis(500));
    assert_eq!(
        Answer::of(&server.list_tools("main", Some(&alice)).await),
        Answer::refused(&Refusal::RateLimited { retry_after: 1 })
    );
    clock.advance(Duration::from_millis(500));
    assert_eq!(
        server.list_tools_answer("main", Some(&alice)).await,
        Answer::ok()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_cap_is_413() {
    let server = TestServer::start_with(HttpOptions {
        max_body_bytes: 4096,
        rate_limit: None,
        ..HttpOptions::default()
    })
    .await;
    let big = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "man", "arguments": {"tool": "x".repeat(8192)}},
    });
    let refused = server.post("main", None, &big, &[]).await;
    assert_eq!(
        Answer::of(&refused),
        Answer::refused(&Refusal::BodyTooLarge { max: 4096 })
    );
    assert_eq!(
        refused.text().await.expect("a body"),
        Refusal::BodyTooLarge { max: 4096 }.body()
    );
    assert_eq!(server.list_tools_answer("main", None).await, Answer::ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_request_is_served_by_the_wiki_in_its_url_without_sessions() {
    let server = TestServer::start().await;
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    });
    let main = server.post("main", None, &initialize, &[]).await;
    assert_eq!(main.status(), 200);
    assert_eq!(
        header(&main, "mcp-session-id"),
        None,
        "stateless: no session to carry across wikis"
    );
    let dev = server.post(DEMO_SUBWIKI, None, &initialize, &[]).await;
    assert_eq!(
        json_body(main).await["result"]["serverInfo"]["title"],
        "Main Wiki"
    );
    assert_eq!(
        json_body(dev).await["result"]["serverInfo"]["title"],
        "Developer Wiki"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rmcp_client_lists_the_tools_and_calls_man() {
    let server = TestServer::start().await;
    for token in [Some(server.alice_token.clone()), None] {
        let client = server.client("main", token.as_deref()).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
        assert!(names.contains(&"man"), "{names:?}");
        let result = client
            .call_tool(CallToolRequestParams::new("man"))
            .await
            .expect("tools/call man");
        assert_eq!(result.is_error, Some(false));
        let text = text_of(&result)
            .unwrap_or_else(|| panic!("expected text content, got {:?}", result.content));
        assert!(text.starts_with("Available tools"), "{text}");
        client.cancel().await.expect("the client closes");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_shuts_down_gracefully() {
    let server = TestServer::start().await;
    let client = server.client("main", None).await;
    client.list_all_tools().await.expect("tools/list");
    let stopped = tokio::time::timeout(Duration::from_secs(10), server.stop()).await;
    assert!(matches!(stopped, Ok(Ok(()))), "{stopped:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handshake_tells_a_caller_who_may_not_view_the_wiki_nothing_of_it() {
    use wiki_store::RightsStore;
    use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
    let server = TestServer::start().await;
    set_config(&server.store, "main", |config| {
        config.server_name = Some("Project Nightjar".to_owned());
        config.description = Some("Merger plans with ACME".to_owned());
    });
    let handshake = |token: Option<String>| {
        let server = &server;
        async move {
            let client = server.client("main", token.as_deref()).await;
            let info = client.peer_info().expect("an initialize result");
            client.cancel().await.expect("the client closes");
            format!(
                "{:?} {:?}",
                info.server_info
                    .as_ref()
                    .and_then(|server| server.title.as_ref()),
                info.instructions
            )
        }
    };
    let guest = handshake(None).await;
    assert!(
        guest.contains("Project Nightjar") && guest.contains("Merger"),
        "{guest}"
    );
    server
        .store
        .set_right(&RightRule {
            scope: RightScope::Wiki(WikiId::main()),
            subject: Subject::User(wiki_store::model::user::GUEST_USER.to_owned()),
            right: Right::View,
            effect: Effect::Deny,
        })
        .expect("a deny rule");
    let guest = handshake(None).await;
    assert!(
        !guest.contains("Nightjar") && !guest.contains("Merger"),
        "{guest}"
    );
    assert!(guest.contains("wiki-mcp server"), "{guest}");
    let alice = handshake(Some(server.alice_token.clone())).await;
    assert!(
        alice.contains("Project Nightjar") && alice.contains("Merger"),
        "{alice}"
    );
}
