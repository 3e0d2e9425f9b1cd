//! OIDC access tokens on the real server: a local issuer started by the test (keys generated
//! here, discovery and JWKS on loopback), the server verifying its tokens beside API tokens.
//!
//! What a client sees is pinned: a good token calls tools as the user its issuer and subject
//! are linked to, never as the user its claims name (the administrator included, on the
//! endpoint and on /admin); an identity's first request with `--oidc-create-users` is served
//! as its new user; every refusal is the same 401 (`error="invalid_token"` and the
//! `resource_metadata` pointer) with nothing about why; the RFC 9728 metadata lists the issuer;
//! a token whose scope grants reading only (`mcp:read`, configurable) gets no write tool.
//! Which user an identity signs in, on both backends: `wiki-server/tests/server/identities.rs`. The verifier's own cases (key
//! rotation, issuer down, cache) are `oidc-verifier`'s tests; here they meet the server once.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use oidc_verifier::testing::{TestIssuer, TestKey};
use oidc_verifier::{Clock, ManualClock, SigningAlgorithm, SystemClock, Verifier, VerifierConfig};
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use wiki_mcp_cli::demo::DEMO_USER;
use wiki_mcp_cli::farm::ADMIN_USER;
use wiki_server::http::{HttpOptions, Refusal};
use wiki_server::oidc::{OidcIdentity, ScopeGrants};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{ConfigStore, DocumentStore, IdentityStore, UserStore};

use crate::admin::Browser;
use crate::harness::{Answer, TestServer, header, listed, message};

/// The audience the server is configured with.
const AUDIENCE: &str = "wiki-mcp";

/// A user of the demo farm whose name the issuer vouches for.
const OIDC_USER: &str = "carol";

struct Fixture {
    server: TestServer,
    issuer: TestIssuer,
    key: TestKey,
}

impl Fixture {
    async fn start(create_users: bool) -> Self {
        Self::start_on(create_users, Arc::new(SystemClock)).await
    }

    /// The verifier reads time from `clock` (the tokens still carry real times).
    async fn start_on(create_users: bool, clock: Arc<dyn Clock>) -> Self {
        let key = TestKey::p256("k1");
        let issuer = TestIssuer::start(&[&key]).await.expect("the test issuer");
        let config =
            VerifierConfig::new([issuer.issuer().clone()], AUDIENCE).expect("a valid config");
        let verifier = Verifier::with_clock(config, clock).expect("loopback needs no TLS roots");
        let oidc = Arc::new(OidcIdentity::new(verifier, create_users));
        let server = TestServer::start_with_oidc(
            HttpOptions {
                rate_limit: None,
                ..HttpOptions::default()
            },
            Some(oidc),
        )
        .await;
        server
            .store
            .create_user(OIDC_USER, None)
            .expect("the OIDC user");
        server
            .store
            .link_identity(
                issuer.issuer().as_str(),
                &format!("sub-{OIDC_USER}"),
                OIDC_USER,
            )
            .expect("the OIDC user's identity is linked");
        Fixture {
            server,
            issuer,
            key,
        }
    }

    /// A token for `user` (as `preferred_username`, subject `sub-{user}`), signed by the
    /// issuer's key.
    fn token_for(&self, user: &str) -> String {
        self.token_of(&format!("sub-{user}"), user)
    }

    /// A token for subject `sub` whose `preferred_username` is `name`.
    fn token_of(&self, sub: &str, name: &str) -> String {
        self.issuer
            .token(AUDIENCE, sub, SystemTime::now())
            .claim("preferred_username", name)
            .sign(&self.key)
    }
}

fn enable_write_document(server: &TestServer) {
    let main = WikiId::main();
    let mut config = server.store.mcp_config(&main);
    config.enabled_tools = ["get_document", "write_document"]
        .iter()
        .map(|tool| (*tool).to_owned())
        .collect();
    server
        .store
        .set_mcp_config(&main, &config, "admin")
        .expect("the configuration is saved");
}

async fn write_page(server: &TestServer, token: &str, page: &str) -> String {
    let client = server.client("main", Some(token)).await;
    let Value::Object(arguments) = json!({"reference": page, "content": "written over OIDC"})
    else {
        panic!("arguments must be an object");
    };
    let result = client
        .call_tool(CallToolRequestParams::new("write_document").with_arguments(arguments))
        .await
        .expect("tools/call");
    client.cancel().await.expect("the client closes");
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let reference = DocumentReference::parse(page, &WikiId::main()).expect("a reference");
    server
        .store
        .document(&reference, None)
        .expect("the store reads")
        .expect("the page exists")
        .author
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verified_token_calls_tools_as_its_linked_user_beside_api_tokens() {
    let fixture = Fixture::start(false).await;
    enable_write_document(&fixture.server);

    let token = fixture.token_for(OIDC_USER);
    assert_eq!(
        write_page(&fixture.server, &token, "Sandbox.ByOidc").await,
        OIDC_USER
    );
    // The same token again: answered from the verifier's cache, still the same user.
    assert_eq!(
        write_page(&fixture.server, &token, "Sandbox.ByOidcAgain").await,
        OIDC_USER
    );
    // Whatever its claim says next: the identity is carol.
    assert_eq!(
        write_page(
            &fixture.server,
            &fixture.token_of("sub-carol", "renamed-at-the-provider"),
            "Sandbox.Renamed"
        )
        .await,
        OIDC_USER
    );
    // API tokens keep working on the same server.
    let alice = fixture.server.alice_token.clone();
    assert_eq!(
        write_page(&fixture.server, &alice, "Sandbox.ByApiToken").await,
        DEMO_USER
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refused_token_is_the_same_401_invalid_token_saying_nothing_of_why() {
    let fixture = Fixture::start(false).await;
    let now = SystemTime::now();
    let good = || {
        fixture
            .issuer
            .token(AUDIENCE, "sub-carol", now)
            .claim("preferred_username", OIDC_USER)
    };
    let past = now - Duration::from_secs(3600);
    let future = now + Duration::from_secs(3600);
    let epoch = |at: SystemTime| {
        at.duration_since(SystemTime::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs()
    };
    let stranger = TestIssuer::start(&[&fixture.key])
        .await
        .expect("an issuer the server does not trust");
    let impostor_key = TestKey::p256("k1");
    let rsa = TestKey::rsa("k1", SigningAlgorithm::RS256);
    let cases: Vec<(&str, String)> = vec![
        (
            "expired",
            fixture
                .issuer
                .token(AUDIENCE, "sub-carol", past)
                .claim("preferred_username", OIDC_USER)
                .sign(&fixture.key),
        ),
        (
            "not yet valid",
            good().claim("nbf", epoch(future)).sign(&fixture.key),
        ),
        (
            "wrong audience",
            fixture
                .issuer
                .token("another-service", "sub-carol", now)
                .claim("preferred_username", OIDC_USER)
                .sign(&fixture.key),
        ),
        (
            "wrong issuer",
            stranger
                .token(AUDIENCE, "sub-carol", now)
                .claim("preferred_username", OIDC_USER)
                .sign(&fixture.key),
        ),
        ("bad signature", good().sign(&impostor_key)),
        ("alg none", good().unsigned()),
        (
            "HS256 with the public key as secret",
            good().sign_hs256(fixture.key.public_key_der()),
        ),
        ("RSA key the issuer never published", good().sign(&rsa)),
        ("unknown user", fixture.token_for("nobody-here")),
        ("the guest", fixture.token_for("guest")),
        ("not a wiki user name", fixture.token_for("carol smith")),
    ];
    let metadata_url = format!(
        "{}/.well-known/oauth-protected-resource",
        fixture.server.endpoint("main")
    );
    let metadata = format!("resource_metadata=\"{metadata_url}\"");
    let invalid = Answer::refused(&Refusal::InvalidToken {
        resource_metadata: Some(metadata_url.clone()),
    });
    for (case, token) in &cases {
        let response = fixture.server.list_tools("main", Some(token)).await;
        assert_eq!(Answer::of(&response), invalid, "{case}");
        let challenge = header(&response, "www-authenticate").unwrap_or_default();
        assert!(
            challenge.starts_with("Bearer ") && challenge.contains("error=\"invalid_token\""),
            "{case}: {challenge}"
        );
        assert!(challenge.contains(&metadata), "{case}: {challenge}");
        assert!(
            !challenge.contains("error_description"),
            "{case}: {challenge}"
        );
        let body = response.text().await.expect("a body");
        assert_eq!(
            body, "Unauthorized: the bearer token is invalid or revoked\n",
            "{case}: the body says nothing of why"
        );
    }
    // No credential at all: the challenge, without an error code (RFC 6750 §3.1).
    let anonymous = fixture.server.list_tools("main", None).await;
    assert_eq!(
        Answer::of(&anonymous),
        Answer::refused(&Refusal::TokenRequired {
            resource_metadata: Some(metadata_url)
        })
    );
    let challenge = header(&anonymous, "www-authenticate").unwrap_or_default();
    assert!(challenge.contains(&metadata), "{challenge}");
    assert!(!challenge.contains("error="), "{challenge}");
    // Nothing was created for the unknown user.
    assert!(fixture.server.store.user("nobody-here").is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_protected_resource_metadata_names_the_issuer() {
    let fixture = Fixture::start(false).await;
    let url = format!(
        "{}/.well-known/oauth-protected-resource",
        fixture.server.endpoint("main")
    );
    let response = reqwest::get(&url).await.expect("the server answers");
    assert_eq!(response.status(), 200);
    let metadata: Value = response.json().await.expect("JSON");
    assert_eq!(
        metadata["authorization_servers"],
        json!([fixture.issuer.issuer().as_str()])
    );
    assert_eq!(metadata["resource"], json!(fixture.server.endpoint("main")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_users_makes_an_unknown_user_with_no_rights_of_its_own() {
    let fixture = Fixture::start(true).await;
    enable_write_document(&fixture.server);
    let token = fixture.token_for("dave");
    assert_eq!(
        write_page(&fixture.server, &token, "Sandbox.ByDave").await,
        "dave",
        "the demo wiki lets every registered user edit"
    );
    let store = &fixture.server.store;
    assert!(store.user("dave").is_ok(), "dave was created");
    let groups = store.list_groups().expect("the groups");
    assert!(
        groups
            .iter()
            .all(|group| !group.users.iter().any(|user| user == "dave")
                || group.name == wiki_store::model::user::ALL_USERS_GROUP),
        "in no group but all-users: {groups:?}"
    );
    // The guest's name is never created, whatever the flag.
    let guest = fixture
        .server
        .list_tools("main", Some(&fixture.token_for("guest")))
        .await;
    assert_eq!(
        Answer::of(&guest).refusal.as_deref(),
        Some(
            Refusal::InvalidToken {
                resource_metadata: None
            }
            .code()
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_user_is_refused_from_the_next_request() {
    let fixture = Fixture::start(false).await;
    let token = fixture.token_for(OIDC_USER);
    let before = fixture.server.list_tools("main", Some(&token)).await;
    assert_eq!(before.status(), 200);
    fixture
        .server
        .store
        .delete_user(OIDC_USER)
        .expect("the user is deleted");
    let after = fixture.server.list_tools("main", Some(&token)).await;
    assert_eq!(
        Answer::of(&after).refusal.as_deref(),
        Some(
            Refusal::InvalidToken {
                resource_metadata: None
            }
            .code()
        ),
        "the verified token no longer names a user"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_keeps_serving_on_cached_keys_and_follows_a_key_rotation() {
    let clock = Arc::new(ManualClock::starting_now());
    let fixture = Fixture::start_on(false, clock.clone()).await;
    let first = fixture.token_for(OIDC_USER);
    let ok = |response: reqwest::Response| response.status();
    assert_eq!(
        ok(fixture.server.list_tools("main", Some(&first)).await),
        200
    );

    // The issuer goes down: a token not seen before still verifies under the cached keys.
    fixture.issuer.set_available(false);
    let while_down = fixture
        .issuer
        .token(AUDIENCE, "sub-carol", SystemTime::now())
        .claim("preferred_username", OIDC_USER)
        .claim("jti", "token-2")
        .sign(&fixture.key);
    assert_eq!(
        ok(fixture.server.list_tools("main", Some(&while_down)).await),
        200,
        "served on the cached keys"
    );

    // The issuer is back and rotates to a new key: a token under the unknown kid makes the
    // server fetch the set again (once the minute since the last fetch has passed).
    fixture.issuer.set_available(true);
    let rotated = TestKey::p256("k2");
    fixture.issuer.publish(&[&rotated]);
    clock.advance(Duration::from_secs(61));
    let after_rotation = fixture
        .issuer
        .token(AUDIENCE, "sub-carol", SystemTime::now())
        .claim("preferred_username", OIDC_USER)
        .claim("jti", "token-3")
        .sign(&rotated);
    let fetches = fixture.issuer.jwks_requests();
    assert_eq!(
        ok(fixture
            .server
            .list_tools("main", Some(&after_rotation))
            .await),
        200,
        "the new key is fetched on its first token"
    );
    assert_eq!(fixture.issuer.jwks_requests(), fetches + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_whose_claim_names_the_administrator_is_not_the_administrator() {
    for create_users in [false, true] {
        let fixture = Fixture::start(create_users).await;
        let forged = fixture.token_of("mallory", ADMIN_USER);
        let response = fixture.server.list_tools("main", Some(&forged)).await;
        assert_eq!(response.status(), 401, "create_users {create_users}");
        // Nor does /admin take it for the administrator's credential.
        let mut browser = Browser::new(&fixture.server);
        let refused = browser.sign_in(&forged).await;
        assert_eq!(refused.status, 401, "{}", refused.body);
        assert!(
            !refused
                .set_cookies
                .iter()
                .any(|cookie| cookie.starts_with("wiki_mcp_admin=")),
            "no session"
        );
        let page = browser.get("/admin").await;
        assert_eq!(page.status, 303, "signed out: sent to the sign-in page");
        assert!(fixture.server.store.user("mallory").is_err());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_created_users_first_request_is_served_as_that_user() {
    let fixture = Fixture::start(true).await;
    enable_write_document(&fixture.server);
    let token = fixture.token_for("erin");
    // A plain tools/call, the identity's very first request (no initialize before it).
    let call = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "write_document",
            "arguments": {"reference": "Sandbox.ByErin", "content": "first request"}
        }
    });
    let response = fixture.server.post("main", Some(&token), &call, &[]).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.expect("a JSON-RPC answer");
    assert_ne!(body["result"]["isError"], json!(true), "{body}");
    let reference =
        DocumentReference::parse("Sandbox.ByErin", &WikiId::main()).expect("a reference");
    let page = fixture
        .server
        .store
        .document(&reference, None)
        .expect("the store reads")
        .expect("the page was written");
    assert_eq!(page.author, "erin");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_whose_scope_grants_reading_only_lists_and_runs_no_write_tool() {
    let fixture = Fixture::start(false).await;
    enable_write_document(&fixture.server);
    let scoped = |scope: &str| {
        fixture
            .issuer
            .token(AUDIENCE, "sub-carol", SystemTime::now())
            .claim("preferred_username", OIDC_USER)
            .claim("scope", scope)
            .sign(&fixture.key)
    };
    let server = &fixture.server;
    let listed_for = |token: String| async move {
        let response = server.list_tools("main", Some(&token)).await;
        listed(&message(&response.text().await.expect("a body")))
    };

    let reader = scoped("openid mcp:read");
    assert_eq!(
        listed_for(reader.clone()).await,
        ["get_document", "list_wikis", "man"]
    );
    let write = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "write_document",
        "arguments": {"reference": "Sandbox.ReadScope", "content": "no"}}});
    let response = fixture
        .server
        .post("main", Some(&reader), &write, &[])
        .await;
    let reply = message(&response.text().await.expect("a body"));
    let error = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        error.contains("grants reading only") && error.contains("identity provider"),
        "{reply}"
    );
    let reference = DocumentReference::parse("Sandbox.ReadScope", &WikiId::main()).expect("ok");
    assert!(
        fixture
            .server
            .store
            .document(&reference, None)
            .expect("the store reads")
            .is_none(),
        "nothing was written"
    );

    // The write scope wins beside the read scope; a token with neither is served as before.
    for scope in ["mcp:read mcp:write", "openid profile"] {
        assert!(
            listed_for(scoped(scope))
                .await
                .contains(&"write_document".to_owned()),
            "{scope}"
        );
    }
    assert_eq!(
        write_page(&fixture.server, &scoped("mcp:write"), "Sandbox.WriteScope").await,
        OIDC_USER
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scope_values_are_configurable() {
    let key = TestKey::p256("k1");
    let issuer = TestIssuer::start(&[&key]).await.expect("the test issuer");
    let config = VerifierConfig::new([issuer.issuer().clone()], AUDIENCE).expect("a config");
    let verifier = Verifier::new(config).expect("loopback needs no TLS roots");
    let oidc = OidcIdentity::new(verifier, false)
        .with_scope_grants(ScopeGrants::new("wiki.read", "wiki.write"));
    let server = TestServer::start_with_oidc(
        HttpOptions {
            rate_limit: None,
            ..HttpOptions::default()
        },
        Some(Arc::new(oidc)),
    )
    .await;
    enable_write_document(&server);
    server.store.create_user(OIDC_USER, None).expect("a user");
    server
        .store
        .link_identity(issuer.issuer().as_str(), "sub-carol", OIDC_USER)
        .expect("linked");
    for (scope, writes) in [
        ("wiki.read", false),
        ("mcp:read", true),
        ("wiki.write", true),
    ] {
        let token = issuer
            .token(AUDIENCE, "sub-carol", SystemTime::now())
            .claim("scope", scope)
            .sign(&key);
        let response = server.list_tools("main", Some(&token)).await;
        let tools = listed(&message(&response.text().await.expect("a body")));
        assert_eq!(
            tools.contains(&"write_document".to_owned()),
            writes,
            "{scope}: {tools:?}"
        );
    }
}
