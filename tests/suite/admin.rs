//! The admin page over HTTP on the real server: sign-in, sessions, CSRF refusals, and that its
//! changes reach MCP clients. (The browser test in `tests/browser/` drives the same pages in
//! Chromium; these pin the refusals a browser would never send.)

use serde_json::Value;
use wiki_store::model::wiki::WikiId;
use wiki_store::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::{ConfigStore, IdentityStore, RightsStore, TokenStore};

use crate::harness::TestServer;

/// A browser's part, by hand: cookies kept, redirects not followed.
pub(crate) struct Browser {
    http: reqwest::Client,
    base: String,
    pub(crate) cookies: Vec<(String, String)>,
}

/// What a page answered.
pub(crate) struct Page {
    pub(crate) status: u16,
    pub(crate) location: String,
    pub(crate) set_cookies: Vec<String>,
    pub(crate) headers: reqwest::header::HeaderMap,
    pub(crate) body: String,
}

impl Page {
    /// The refusal's code, when the page is one.
    pub(crate) fn refusal(&self) -> Option<&str> {
        self.headers
            .get(wiki_server::http::REFUSAL_HEADER)
            .and_then(|value| value.to_str().ok())
    }
}

pub(crate) fn form_encode(fields: &[(&str, &str)]) -> String {
    let encode = |text: &str| {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect::<String>()
    };
    fields
        .iter()
        .map(|(name, value)| format!("{}={}", encode(name), encode(value)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The value of the first `name="…" value="…"` input in `html`.
pub(crate) fn input_value(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\" value=\""))?;
    let rest = &html[at + name.len() + 15..];
    Some(rest[..rest.find('"')?].to_owned())
}

impl Browser {
    pub(crate) fn new(server: &TestServer) -> Self {
        Self::at(&server.base)
    }

    /// A browser talking to the server at `base` (a replica, say).
    pub(crate) fn at(base: &str) -> Self {
        Browser {
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("a client"),
            base: base.to_owned(),
            cookies: Vec::new(),
        }
    }

    /// This browser's cookies sent to the server at `base` instead (a load balancer choosing
    /// another replica for the next request).
    pub(crate) fn routed_to(&self, base: &str) -> Self {
        let mut moved = Self::at(base);
        moved.cookies = self.cookies.clone();
        moved
    }

    fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    async fn finish(&mut self, response: reqwest::Response) -> Page {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let location = response
            .headers()
            .get("location")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let set_cookies: Vec<String> = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .map(str::to_owned)
            .collect();
        for cookie in &set_cookies {
            let pair = cookie.split(';').next().unwrap_or_default();
            if let Some((name, value)) = pair.split_once('=') {
                self.cookies.retain(|(kept, _)| kept != name);
                if !value.is_empty() && !cookie.contains("Max-Age=0") {
                    self.cookies.push((name.to_owned(), value.to_owned()));
                }
            }
        }
        let body = response.text().await.expect("a body");
        Page {
            status,
            location,
            set_cookies,
            headers,
            body,
        }
    }

    pub(crate) async fn get(&mut self, path: &str) -> Page {
        let url = format!("{}{path}", self.base);
        self.get_url(&url).await
    }

    /// GETs an absolute `url`; the server's cookies go only to the server (an identity
    /// provider elsewhere gets none).
    pub(crate) async fn get_url(&mut self, url: &str) -> Page {
        let mut request = self.http.get(url);
        if url.starts_with(&format!("{}/", self.base)) {
            request = request.header("cookie", self.cookie_header());
            let response = request.send().await.expect("the server answers");
            return self.finish(response).await;
        }
        let response = request.send().await.expect("the issuer answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let location = headers
            .get("location")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let body = response.text().await.expect("a body");
        Page {
            status,
            location,
            set_cookies: Vec::new(),
            headers,
            body,
        }
    }

    /// GETs `path` until its body contains `needle` (what another moment makes true: the audit
    /// record is written a fraction of a second after a call), at most 10 s; the last answer.
    pub(crate) async fn get_until(&mut self, path: &str, needle: &str) -> Page {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let page = self.get(path).await;
            if page.body.contains(needle) || std::time::Instant::now() > deadline {
                assert!(
                    page.body.contains(needle),
                    "{path}: no {needle:?} in {}",
                    page.body
                );
                return page;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// The value of the cookie `name` the browser holds.
    pub(crate) fn cookie(&self, name: &str) -> Option<String> {
        self.cookies
            .iter()
            .find(|(kept, _)| kept == name)
            .map(|(_, value)| value.clone())
    }

    pub(crate) async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .header("content-type", "application/x-www-form-urlencoded")
            .header("origin", self.base.clone())
            .body(form_encode(fields))
            .send()
            .await
            .expect("the server answers");
        self.finish(response).await
    }

    /// Signs in with `token`; returns the sign-in POST's answer.
    pub(crate) async fn sign_in(&mut self, token: &str) -> Page {
        let form = self.get("/admin/signin").await;
        assert_eq!(form.status, 200);
        let nonce = input_value(&form.body, "csrf").expect("the sign-in form's token");
        self.post("/admin/signin", &[("csrf", &nonce), ("token", token)])
            .await
    }

    /// The CSRF token of the page at `path`.
    pub(crate) async fn csrf(&mut self, path: &str) -> String {
        let page = self.get(path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        input_value(&page.body, "csrf").expect("a form with its CSRF token")
    }
}

/// The tools `token`'s user (or the guest) gets on the main wiki; none when refused.
async fn tool_names(server: &TestServer, token: impl Into<Option<&str>>) -> Vec<String> {
    let response = server.list_tools("main", token.into()).await;
    let body: Value = response.json().await.unwrap_or_default();
    body["result"]["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_signs_in_and_a_write_tool_turned_on_is_listed_over_mcp() {
    let server = TestServer::start().await;
    let mut browser = Browser::new(&server);
    let signed_in = browser.sign_in(&server.admin_token).await;
    assert_eq!(signed_in.status, 303, "{}", signed_in.body);
    assert_eq!(signed_in.location, "/admin");
    let session = signed_in
        .set_cookies
        .iter()
        .find(|cookie| cookie.starts_with("wiki_mcp_admin="))
        .expect("a session cookie");
    assert!(session.contains("HttpOnly"), "{session}");
    assert!(session.contains("SameSite=Strict"), "{session}");
    assert!(
        !session.contains("Secure"),
        "plain http on loopback: {session}"
    );

    let index = browser.get("/admin").await;
    assert_eq!(index.status, 200);
    assert!(index.body.contains("href=\"/admin/wikis/main\""));
    assert!(
        !tool_names(&server, server.admin_token.as_str())
            .await
            .contains(&"write_document".to_owned())
    );

    let wiki_page = browser.get("/admin/wikis/main").await;
    assert!(wiki_page.body.contains("value=\"write_document\""));
    assert!(
        wiki_page.body.contains("name=\"links\" value=\"on\">"),
        "links are off by default"
    );
    assert!(
        !wiki_page.body.contains("name=\"tool\" value=\"man\""),
        "man is not a toggle"
    );
    let csrf = input_value(&wiki_page.body, "csrf").expect("the CSRF token");
    let saved = browser
        .post(
            "/admin/wikis/main",
            &[
                ("csrf", &csrf),
                ("enabled", "on"),
                ("guest_access", "on"),
                ("links", "on"),
                ("description", "Edited in the admin page"),
                ("tool", "get_document"),
                ("tool", "write_document"),
                ("space_filter_mode", "none"),
                ("reach", "main"),
            ],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.body);
    let names = tool_names(&server, server.admin_token.as_str()).await;
    assert!(names.contains(&"write_document".to_owned()), "{names:?}");
    assert!(names.contains(&"man".to_owned()), "{names:?}");
    assert!(!names.contains(&"get_tree".to_owned()), "{names:?}");
    let config = server.store.mcp_config(&WikiId::main());
    assert_eq!(
        config.description.as_deref(),
        Some("Edited in the admin page")
    );
    assert!(config.links, "the links box turns them on");
    let guest = tool_names(&server, None).await;
    assert!(!guest.contains(&"write_document".to_owned()), "{guest:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_admin_or_invalid_token_is_refused_at_sign_in() {
    let server = TestServer::start().await;
    let mut browser = Browser::new(&server);
    let refused = browser.sign_in(&server.alice_token).await;
    assert_eq!(refused.status, 401);
    assert!(
        refused.body.contains("does not administer"),
        "{}",
        refused.body
    );
    assert!(
        !refused
            .set_cookies
            .iter()
            .any(|cookie| cookie.starts_with("wiki_mcp_admin=")),
        "no session"
    );
    let invalid = browser.sign_in("wmcp_000000000000_nope").await;
    assert_eq!(invalid.status, 401);
    assert!(invalid.body.contains("not valid"), "{}", invalid.body);
    assert_eq!(browser.get("/admin").await.status, 303, "still signed out");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_posts_without_the_sessions_csrf_token_are_refused() {
    let server = TestServer::start().await;
    let before = server.store.mcp_config(&WikiId::main());

    // Sign-in itself: without the form's double-submit token.
    let mut stranger = Browser::new(&server);
    let forged_signin = stranger
        .post("/admin/signin", &[("token", &server.admin_token)])
        .await;
    assert_eq!(forged_signin.status, 403);

    let mut browser = Browser::new(&server);
    assert_eq!(browser.sign_in(&server.admin_token).await.status, 303);
    let forged = [("enabled", "on"), ("tool", "write_document")];
    let missing = browser.post("/admin/wikis/main", &forged).await;
    assert_eq!(missing.status, 403);
    let mut wrong = vec![("csrf", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")];
    wrong.extend(forged);
    assert_eq!(browser.post("/admin/wikis/main", &wrong).await.status, 403);
    // Another session's token does not do either.
    let mut other = Browser::new(&server);
    assert_eq!(other.sign_in(&server.admin_token).await.status, 303);
    let others = other.csrf("/admin/wikis/main").await;
    let mut borrowed = vec![("csrf", others.as_str())];
    borrowed.extend(forged);
    assert_eq!(
        browser.post("/admin/wikis/main", &borrowed).await.status,
        403
    );
    // No session at all.
    let mut anonymous = Browser::new(&server);
    let mut with_token = vec![("csrf", others.as_str())];
    with_token.extend(forged);
    assert_eq!(
        anonymous
            .post("/admin/wikis/main", &with_token)
            .await
            .status,
        403
    );
    assert_eq!(
        server.store.mcp_config(&WikiId::main()),
        before,
        "nothing was saved"
    );
    let revoke = browser
        .post("/admin/tokens/revoke", &[("prefix", "000000000000")])
        .await;
    assert_eq!(revoke.status, 403);
}

/// The token a creation page shows once.
fn new_token(page: &str) -> String {
    let at = page.find("id=\"new-token\">").expect("the new token") + 15;
    page[at..]
        .split('<')
        .next()
        .expect("the token text")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_created_on_the_page_works_until_revoked_there() {
    let server = TestServer::start().await;
    let mut browser = Browser::new(&server);
    assert_eq!(browser.sign_in(&server.admin_token).await.status, 303);
    let csrf = browser.csrf("/admin/tokens").await;
    let created = browser
        .post(
            "/admin/tokens",
            &[
                ("csrf", &csrf),
                ("user", "alice"),
                ("label", "from the page"),
            ],
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let token = new_token(&created.body);
    assert!(token.starts_with("wmcp_"), "{token}");
    assert!(!tool_names(&server, token.as_str()).await.is_empty());
    let shown_again = browser.get("/admin/tokens").await;
    assert!(!shown_again.body.contains(&token), "shown once");
    assert!(shown_again.body.contains("from the page"));

    let prefix = server
        .store
        .list_tokens(Some("alice"))
        .expect("the tokens")
        .into_iter()
        .find(|info| info.label == "from the page")
        .expect("listed")
        .prefix;
    let revoked = browser
        .post(
            "/admin/tokens/revoke",
            &[("csrf", &csrf), ("prefix", &prefix)],
        )
        .await;
    assert_eq!(revoked.status, 303, "{}", revoked.body);
    let refused = server.list_tools("main", Some(&token)).await;
    assert_eq!(
        crate::harness::Answer::of(&refused),
        crate::harness::Answer::refused(&wiki_server::http::Refusal::InvalidToken {
            resource_metadata: None
        }),
        "revoked from the next request on"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scoped_token_made_on_the_page_is_listed_with_its_scope_and_obeys_it() {
    let server = TestServer::start().await;
    let mut browser = Browser::new(&server);
    assert_eq!(browser.sign_in(&server.admin_token).await.status, 303);
    let csrf = browser.csrf("/admin/tokens").await;
    let misspelt = browser
        .post(
            "/admin/tokens",
            &[
                ("csrf", &csrf),
                ("user", "alice"),
                ("label", "narrow"),
                ("tools", "get_treee"),
            ],
        )
        .await;
    assert!(
        misspelt.body.contains("`get_treee`") && !misspelt.body.contains("new-token"),
        "{}",
        misspelt.body
    );
    let created = browser
        .post(
            "/admin/tokens",
            &[
                ("csrf", &csrf),
                ("user", "alice"),
                ("label", "narrow"),
                ("read_only", "on"),
                ("tools", "get_tree, get_document"),
                ("wikis", "main"),
                ("expires", "30d"),
            ],
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let token = new_token(&created.body);
    assert!(
        created
            .body
            .contains("read-only; tools: get_document, get_tree; wikis: main; expires 20"),
        "{}",
        created.body
    );
    assert_eq!(
        tool_names(&server, token.as_str()).await,
        ["get_document", "get_tree", "man"]
    );
    // A scoped token opens no admin session: the page would give it its user's every right.
    let mut other = Browser::new(&server);
    let refused = other.sign_in(&token).await;
    assert_eq!(refused.status, 401);
    assert!(refused.body.contains("scoped"), "{}", refused.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_text_is_escaped_and_sign_out_ends_the_session() {
    let server = TestServer::start().await;
    let main = WikiId::main();
    let mut config = server.store.mcp_config(&main);
    config.description = Some("<script>alert('x')</script>".to_owned());
    server
        .store
        .set_mcp_config(&main, &config, "admin")
        .expect("saved");
    let mut browser = Browser::new(&server);
    assert_eq!(browser.sign_in(&server.admin_token).await.status, 303);
    let page = browser.get("/admin").await;
    assert!(!page.body.contains("<script>alert"), "{}", page.body);
    assert!(
        page.body
            .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
    );

    // The audit view shows a call made over MCP, never its arguments.
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "man", "arguments": {"secret_looking_argument": "hunter2"}}});
    assert_eq!(
        server
            .post("main", Some(&server.admin_token), &call, &[])
            .await
            .status(),
        200
    );
    let audit = browser
        .get_until("/admin/audit?tool=man&user=admin", "<code>man</code>")
        .await;
    assert_eq!(audit.status, 200);
    assert!(!audit.body.contains("hunter2"), "never the arguments");
    // The unknown argument is a bad argument: its category has a column, and a filter.
    assert!(
        audit.body.contains("<td>bad_argument</td>"),
        "{}",
        audit.body
    );
    let bad = browser
        .get("/admin/audit?tool=man&reason=bad_argument")
        .await;
    assert!(bad.body.contains("<code>man</code>"), "{}", bad.body);
    let conflicts = browser.get("/admin/audit?tool=man&reason=conflict").await;
    assert!(
        conflicts.body.contains("No call matches."),
        "{}",
        conflicts.body
    );
    let none = browser.get("/admin/audit?outcome=failed").await;
    assert!(none.body.contains("No call matches."), "{}", none.body);

    let csrf = input_value(&page.body, "csrf").expect("the sign-out form's token");
    let out = browser.post("/admin/signout", &[("csrf", &csrf)]).await;
    assert_eq!(out.status, 303);
    assert_eq!(browser.get("/admin").await.status, 303, "signed out");
    assert_eq!(browser.get("/admin").await.location, "/admin/signin");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wiki_admin_sees_only_their_wikis_and_their_own_tokens() {
    use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
    use wiki_store::{RightsStore, UserStore};

    let server = TestServer::start().await;
    server.store.create_user("bob", None).expect("bob");
    server
        .store
        .set_right(&RightRule {
            scope: RightScope::Wiki(WikiId::new("dev").expect("a wiki id")),
            subject: Subject::User("bob".to_owned()),
            right: Right::Admin,
            effect: Effect::Allow,
        })
        .expect("bob administers dev");
    let bob = server
        .store
        .create_token("bob", "bob's")
        .expect("a token")
        .token
        .expose()
        .to_owned();
    let mut browser = Browser::new(&server);
    assert_eq!(browser.sign_in(&bob).await.status, 303);
    let index = browser.get("/admin").await;
    assert!(
        index.body.contains("href=\"/admin/wikis/dev\""),
        "{}",
        index.body
    );
    assert!(
        !index.body.contains("href=\"/admin/wikis/main\""),
        "{}",
        index.body
    );
    assert_eq!(browser.get("/admin/wikis/main").await.status, 404);
    let dev = browser.get("/admin/wikis/dev").await;
    assert_eq!(dev.status, 200);
    assert!(
        !dev.body.contains("Cross-wiki reach"),
        "reach is the main wiki's"
    );

    let admin_prefix = server
        .store
        .list_tokens(Some("admin"))
        .expect("tokens")
        .remove(0)
        .prefix;
    let tokens = browser.get("/admin/tokens").await;
    assert!(
        !tokens.body.contains(&admin_prefix),
        "only bob's own tokens"
    );
    let csrf = input_value(&tokens.body, "csrf").expect("the CSRF token");
    let created = browser
        .post(
            "/admin/tokens",
            &[("csrf", &csrf), ("user", "alice"), ("label", "sneaky")],
        )
        .await;
    assert_eq!(created.status, 200);
    let sneaky = server
        .store
        .list_tokens(None)
        .expect("tokens")
        .into_iter()
        .find(|token| token.label == "sneaky")
        .expect("created");
    assert_eq!(
        sneaky.user, "bob",
        "a wiki admin mints tokens for themselves only"
    );
    let revoke_admins = browser
        .post(
            "/admin/tokens/revoke",
            &[("csrf", &csrf), ("prefix", &admin_prefix)],
        )
        .await;
    assert_eq!(revoke_admins.status, 404);
    assert!(
        server
            .store
            .list_tokens(Some("admin"))
            .expect("tokens")
            .iter()
            .any(|token| token.prefix == admin_prefix),
        "the admin's token is untouched"
    );

    // Withdrawing bob's right ends what his session may do, at once.
    server
        .store
        .remove_right(
            &RightScope::Wiki(WikiId::new("dev").expect("a wiki id")),
            &Subject::User("bob".to_owned()),
            Right::Admin,
        )
        .expect("the right is removed");
    assert_eq!(browser.get("/admin").await.status, 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_farm_admin_links_and_unlinks_identities_on_the_users_page() {
    let server = TestServer::start().await;
    let issuer = "https://id.example.com";
    // A user who administers a wiki but not the farm sees no users page.
    let mut alice = Browser::new(&server);
    server
        .store
        .set_right(&RightRule {
            scope: RightScope::Wiki(WikiId::new("dev").expect("a wiki id")),
            subject: Subject::User("alice".to_owned()),
            right: Right::Admin,
            effect: Effect::Allow,
        })
        .expect("alice administers dev");
    assert_eq!(alice.sign_in(&server.alice_token).await.status, 303);
    assert!(!alice.get("/admin").await.body.contains("/admin/users\""));
    assert_eq!(alice.get("/admin/users").await.status, 403);

    let mut browser = Browser::new(&server);
    assert_eq!(browser.sign_in(&server.admin_token).await.status, 303);
    let page = browser.get("/admin/users").await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body
            .contains("signs in the user its <strong>issuer and subject</strong> are linked to"),
        "the page says the rule: {}",
        page.body
    );
    let csrf = input_value(&page.body, "csrf").expect("the link form");
    let linked = browser
        .post(
            "/admin/users/link",
            &[
                ("csrf", &csrf),
                ("user", "alice"),
                ("issuer", issuer),
                ("subject", "248289761001"),
            ],
        )
        .await;
    assert_eq!(linked.status, 303, "{}", linked.body);
    assert_eq!(
        server
            .store
            .linked_user(issuer, "248289761001")
            .expect("the store reads")
            .as_deref(),
        Some("alice")
    );
    let listed = browser.get("/admin/users").await;
    assert!(
        listed
            .body
            .contains("<code>248289761001</code> at https://id.example.com")
    );

    let taken = browser
        .post(
            "/admin/users/link",
            &[
                ("csrf", &csrf),
                ("user", "admin"),
                ("issuer", issuer),
                ("subject", "248289761001"),
            ],
        )
        .await;
    assert_eq!(taken.status, 422, "{}", taken.body);
    assert!(taken.body.contains("linked to another user"));

    let unlinked = browser
        .post(
            "/admin/users/unlink",
            &[
                ("csrf", &csrf),
                ("issuer", issuer),
                ("subject", "248289761001"),
            ],
        )
        .await;
    assert_eq!(unlinked.status, 303, "{}", unlinked.body);
    assert_eq!(
        server
            .store
            .linked_user(issuer, "248289761001")
            .expect("the store reads"),
        None
    );
    // Without the session's CSRF token nothing is linked.
    let forged = browser
        .post(
            "/admin/users/link",
            &[("user", "admin"), ("issuer", issuer), ("subject", "x")],
        )
        .await;
    assert_eq!(forged.status, 403);
    assert_eq!(
        server
            .store
            .linked_user(issuer, "x")
            .expect("the store reads"),
        None
    );
}
