//! Signing in on the admin page at an OIDC issuer: a local issuer started by the test (keys
//! generated here; authorization, token, discovery and JWKS endpoints on loopback), the flow's
//! redirects followed by hand over HTTP, as a browser would.
//!
//! Pinned: a farm administrator signs in and gets the same session as with a token, and an
//! identity not linked to the administrator does not, whatever its claims name; a callback
//! with another state, a replayed code, an ID token with another nonce, and a user who
//! administers nothing are each refused with a page saying so, and open no session (a replayed
//! callback on any server of the farm, before the code is tried: the pending sign-in is
//! recorded in the farm's database and taken once); a
//! confidential client authenticates with its secret, and a wrong secret fails the sign-in.

use std::sync::Arc;

use oidc_verifier::testing::{TestIssuer, TestKey};
use oidc_verifier::{ClientCredentials, Verifier, VerifierConfig};
use url::Url;
use wiki_mcp_cli::demo::DEMO_USER;
use wiki_server::http::{HttpOptions, Refusal};
use wiki_server::oidc::OidcIdentity;
use wiki_store::IdentityStore;

use crate::admin::{Browser, Page};
use crate::harness::TestServer;

const AUDIENCE: &str = "wiki-mcp";
const CLIENT_ID: &str = "wiki-mcp-admin";
const SESSION_COOKIE: &str = "wiki_mcp_admin";
const LOGIN_COOKIE: &str = "wiki_mcp_oidc";

struct Fixture {
    server: TestServer,
    issuer: TestIssuer,
    /// The server's OIDC configuration, for a replica of it.
    oidc: Arc<OidcIdentity>,
}

impl Fixture {
    /// The server's client sends `server_secret`; the issuer registered `issuer_secret`.
    async fn start(server_secret: Option<&str>, issuer_secret: Option<&str>) -> Self {
        let key = TestKey::p256("k1");
        let issuer = TestIssuer::start(&[&key]).await.expect("the test issuer");
        let config =
            VerifierConfig::new([issuer.issuer().clone()], AUDIENCE).expect("a valid config");
        let verifier = Verifier::new(config).expect("loopback needs no TLS roots");
        let client = ClientCredentials::new(CLIENT_ID, server_secret).expect("a client id");
        let oidc = Arc::new(OidcIdentity::new(verifier, false).with_login(client));
        let server = TestServer::start_with_oidc(
            HttpOptions {
                rate_limit: None,
                ..HttpOptions::default()
            },
            Some(Arc::clone(&oidc)),
        )
        .await;
        issuer.register_client(
            CLIENT_ID,
            issuer_secret,
            &format!("{}/admin/oidc/callback", server.base),
        );
        // The test issuer's subjects are the names it signs in: these two are linked.
        for user in ["admin", DEMO_USER] {
            server
                .store
                .link_identity(issuer.issuer().as_str(), user, user)
                .expect("the identity is linked");
        }
        Fixture {
            server,
            issuer,
            oidc,
        }
    }

    /// From the sign-in page's button to the issuer's redirect back (not yet followed), with
    /// `user` signing in at the issuer.
    async fn to_callback(&self, browser: &mut Browser, user: &str) -> String {
        self.issuer.sign_in_as(Some(user));
        let form = browser.get("/admin/signin").await;
        assert_eq!(form.status, 200);
        assert!(
            form.body
                .contains("href=\"/admin/oidc/start?issuer=0\">Sign in with 127.0.0.1</a>"),
            "{}",
            form.body
        );
        let start = browser.get("/admin/oidc/start?issuer=0").await;
        assert_eq!(start.status, 303, "{}", start.body);
        let pending = start
            .set_cookies
            .iter()
            .find(|cookie| cookie.starts_with(&format!("{LOGIN_COOKIE}=")))
            .expect("the pending sign-in's cookie");
        assert!(
            pending.contains("HttpOnly")
                && pending.contains("SameSite=Lax")
                && pending.contains("Path=/admin/oidc"),
            "{pending}"
        );
        let authorize = Url::parse(&start.location).expect("an authorization URL");
        assert!(
            start.location.starts_with(self.issuer.issuer().as_str()),
            "{authorize}"
        );
        let query: Vec<(String, String)> = authorize.query_pairs().into_owned().collect();
        let param = |name: &str| {
            query
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.as_str())
        };
        assert_eq!(param("client_id"), Some(CLIENT_ID));
        assert_eq!(param("response_type"), Some("code"));
        assert_eq!(param("code_challenge_method"), Some("S256"));
        assert_eq!(
            param("redirect_uri").map(str::to_owned),
            Some(format!("{}/admin/oidc/callback", self.server.base))
        );
        for name in ["state", "nonce", "code_challenge"] {
            assert!(param(name).is_some_and(|value| value.len() >= 43), "{name}");
        }
        let issued = browser.get_url(&start.location).await;
        assert_eq!(issued.status, 303, "{}", issued.body);
        assert!(
            issued
                .location
                .starts_with(&format!("{}/admin/oidc/callback?", self.server.base)),
            "{}",
            issued.location
        );
        issued.location
    }
}

/// `url` with its query parameters changed by `change` (a forged or declined callback).
fn with_query(url: &str, change: impl FnOnce(&mut Vec<(String, String)>)) -> String {
    let mut url = Url::parse(url).expect("the callback URL");
    let mut pairs: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    change(&mut pairs);
    url.query_pairs_mut().clear().extend_pairs(&pairs);
    url.into()
}

fn session_opened(page: &Page) -> bool {
    page.set_cookies.iter().any(|cookie| {
        cookie.starts_with(&format!("{SESSION_COOKIE}=")) && !cookie.contains("Max-Age=0")
    })
}

async fn signed_in_as(browser: &mut Browser) -> Option<String> {
    let page = browser.get("/admin").await;
    (page.status == 200).then(|| {
        let at = page.body.find("Signed in as ").expect("the header") + 13;
        page.body[at..at + page.body[at..].find('<').unwrap_or(0)].to_owned()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_farm_admin_signs_in_at_the_issuer_and_gets_a_session() {
    let fixture = Fixture::start(None, None).await;
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let done = browser.get_url(&callback).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert!(done.body.contains("Signed in"), "{}", done.body);
    assert_eq!(
        done.headers.get("refresh").and_then(|v| v.to_str().ok()),
        Some("0; url=/admin"),
        "the page moves on by itself, as a navigation of this site"
    );
    let session = done
        .set_cookies
        .iter()
        .find(|cookie| cookie.starts_with(&format!("{SESSION_COOKIE}=")))
        .expect("the session cookie");
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Strict"),
        "{session}"
    );
    assert_eq!(
        browser.cookie(LOGIN_COOKIE),
        None,
        "the pending sign-in is cleared"
    );
    assert_eq!(signed_in_as(&mut browser).await.as_deref(), Some("admin"));
    assert_eq!(fixture.issuer.token_requests(), 1);
}

/// Regression: the farm kept 10,000 pending sign-ins and a new start evicted the oldest, so
/// 10,000 anonymous starts evicted the sign-in of a person at their identity provider.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_anonymous_starts_does_not_evict_a_sign_in_under_way() {
    let fixture = Fixture::start(None, None).await;
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let mut flood = Browser::new(&fixture.server);
    let mut refused = 0;
    for _ in 0..10_000 {
        let start = flood.get("/admin/oidc/start?issuer=0").await;
        assert!(matches!(start.status, 303 | 429), "{}", start.status);
        refused += usize::from(start.status == 429);
    }
    let done = browser.get_url(&callback).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(signed_in_as(&mut browser).await.as_deref(), Some("admin"));
    assert!(
        refused > 9_900,
        "one address started {} sign-ins",
        10_000 - refused
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_callback_with_another_state_is_refused_before_any_exchange() {
    let fixture = Fixture::start(None, None).await;
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let forged = with_query(&callback, |pairs| {
        for (key, value) in pairs.iter_mut() {
            if key == "state" {
                *value = "A".repeat(43);
            }
        }
    });
    let refused = browser.get_url(&forged).await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(refused.body.contains("Sign-in failed"), "{}", refused.body);
    assert!(!session_opened(&refused));
    assert_eq!(
        fixture.issuer.token_requests(),
        0,
        "the code was not even tried"
    );
    assert_eq!(signed_in_as(&mut browser).await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replayed_code_is_refused_with_or_without_the_old_cookie() {
    let fixture = Fixture::start(None, None).await;
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let pending = browser.cookie(LOGIN_COOKIE).expect("the pending sign-in");
    let done = browser.get_url(&callback).await;
    assert_eq!(done.status, 200, "{}", done.body);

    // The browser cleared the cookie: the callback has nothing to be checked against.
    let mut replay = Browser::new(&fixture.server);
    let expired = replay.get_url(&callback).await;
    assert_eq!(expired.status, 400, "{}", expired.body);
    assert_eq!(
        expired.refusal(),
        Some(Refusal::SignInExpired.code()),
        "{}",
        expired.body
    );
    assert!(!session_opened(&expired));

    // Someone who kept the cookie too: the farm took its record at the first callback, so the
    // replay is refused before the code is even tried (the issuer would refuse it as well).
    replay.cookies.push((LOGIN_COOKIE.to_owned(), pending));
    let refused = replay.get_url(&callback).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert_eq!(
        refused.refusal(),
        Some(Refusal::SignInExpired.code()),
        "{}",
        refused.body
    );
    assert!(!session_opened(&refused));
    assert_eq!(fixture.issuer.token_requests(), 1);
    assert_eq!(signed_in_as(&mut replay).await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_callback_replayed_on_another_replica_is_refused_before_any_exchange() {
    let fixture = Fixture::start(None, None).await;
    let replica = fixture
        .server
        .replica(Some(Arc::clone(&fixture.oidc)))
        .await;
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let pending = browser.cookie(LOGIN_COOKIE).expect("the pending sign-in");
    assert_eq!(browser.get_url(&callback).await.status, 200);

    // The same callback, cookie and all, sent to the other server of the farm.
    let mut elsewhere = Browser::at(&replica.base);
    elsewhere.cookies.push((LOGIN_COOKIE.to_owned(), pending));
    let replayed = callback.replacen(&fixture.server.base, &replica.base, 1);
    let refused = elsewhere.get_url(&replayed).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert_eq!(
        refused.refusal(),
        Some(Refusal::SignInExpired.code()),
        "{}",
        refused.body
    );
    assert!(!session_opened(&refused));
    assert_eq!(
        fixture.issuer.token_requests(),
        1,
        "the replica did not try the code"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_token_with_another_nonce_is_refused() {
    let fixture = Fixture::start(None, None).await;
    fixture
        .issuer
        .override_id_token_claim("nonce", "A".repeat(43));
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let refused = browser.get_url(&callback).await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(!session_opened(&refused));
    assert_eq!(signed_in_as(&mut browser).await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_token_for_another_client_is_refused() {
    let fixture = Fixture::start(None, None).await;
    fixture.issuer.override_id_token_claim("aud", "another-app");
    fixture.issuer.override_id_token_claim("azp", "another-app");
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let refused = browser.get_url(&callback).await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(!session_opened(&refused));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_who_administers_nothing_is_refused_with_a_page_saying_so() {
    let fixture = Fixture::start(None, None).await;
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, DEMO_USER).await;
    let refused = browser.get_url(&callback).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused.body.contains(&format!(
            "signed in at the identity provider as {DEMO_USER}, but {DEMO_USER} does not administer"
        )),
        "{}",
        refused.body
    );
    assert!(!session_opened(&refused));
    assert_eq!(signed_in_as(&mut browser).await, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_issuer_declining_is_a_clear_refusal() {
    let fixture = Fixture::start(None, None).await;
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let declined = with_query(&callback, |pairs| {
        pairs.retain(|(key, _)| key != "code");
        pairs.push(("error".to_owned(), "access_denied".to_owned()));
    });
    let refused = browser.get_url(&declined).await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("The identity provider did not sign you in"),
        "{}",
        refused.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confidential_client_signs_in_with_its_secret_and_not_without() {
    let fixture = Fixture::start(Some("s3cret:&="), Some("s3cret:&=")).await;
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let done = browser.get_url(&callback).await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(signed_in_as(&mut browser).await.as_deref(), Some("admin"));

    let wrong = Fixture::start(Some("not-it"), Some("s3cret:&=")).await;
    let mut browser = Browser::new(&wrong.server);
    let callback = wrong.to_callback(&mut browser, "admin").await;
    let refused = browser.get_url(&callback).await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert!(!session_opened(&refused));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_client_id_the_sign_in_page_offers_tokens_only() {
    let server = TestServer::start().await;
    let mut browser = Browser::new(&server);
    let form = browser.get("/admin/signin").await;
    assert!(!form.body.contains("/admin/oidc/start"), "{}", form.body);
    let start = browser.get("/admin/oidc/start?issuer=0").await;
    assert_eq!(start.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_identity_whose_claim_names_the_administrator_is_not_the_administrator() {
    let fixture = Fixture::start(None, None).await;
    // A correctly signed ID token of the configured issuer: another person, who chose the
    // administrator's name at the provider.
    fixture.issuer.override_id_token_claim("sub", "mallory");
    let mut browser = Browser::new(&fixture.server);
    let callback = fixture.to_callback(&mut browser, "admin").await;
    let refused = browser.get_url(&callback).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused.body.contains("not linked to a wiki user"),
        "{}",
        refused.body
    );
    assert!(!session_opened(&refused));
    assert_eq!(signed_in_as(&mut browser).await, None);
}
