//! Signed links through a real server: tools print them, a browser (plain HTTP, no Bearer
//! header) opens them; a valid link serves, an altered one is refused, and a user who lost the
//! view right since is refused too (rights are checked when the link is opened, not when it was
//! printed). Guest links open only what the guest may view. Links are off unless the wiki's
//! configuration or the call asks for them.

use serde_json::{Value, json};
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::user::GUEST_USER;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::SpacePath;
use wiki_store::{ConfigStore, RightsStore};

use crate::harness::{Answer, TestServer, call_tool, header, text_of};
use wiki_server::http::Refusal;

/// Calls `tool` on main as the token's user (or the guest) and returns the value of the first
/// output line starting with `prefix` (e.g. `"URL: "`).
async fn link_from(
    server: &TestServer,
    token: Option<&str>,
    tool: &str,
    arguments: Value,
    prefix: &str,
) -> String {
    let text = tool_text(server, token, tool, arguments).await;
    text.lines()
        .find_map(|line| line.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in {text}"))
        .to_owned()
}

/// The whole text of `tool`'s result on main as the token's user (or the guest).
async fn tool_text(
    server: &TestServer,
    token: Option<&str>,
    tool: &str,
    arguments: Value,
) -> String {
    let client = server.client("main", token).await;
    let result = call_tool(&client, tool, arguments).await;
    client.cancel().await.expect("the client closes");
    text_of(&result).unwrap_or_default()
}

/// The `URL:` line get_document prints for `reference` on main, as the token's user (or the
/// guest).
async fn view_link(server: &TestServer, token: Option<&str>, reference: &str) -> String {
    link_from(
        server,
        token,
        "get_document",
        json!({ "reference": reference }),
        "URL: ",
    )
    .await
}

/// How a browser opening `url` is answered.
async fn answer_of(url: &str) -> Answer {
    Answer::of(&reqwest::get(url).await.expect("the link answers"))
}

/// `server` with links in tool output on both demo wikis (they are off by default).
fn linked(server: TestServer) -> TestServer {
    for wiki in ["main", "dev"] {
        let wiki = WikiId::new(wiki).expect("a wiki id");
        let mut config = server.store.mcp_config(&wiki);
        config.links = true;
        server
            .store
            .set_mcp_config(&wiki, &config, "admin")
            .expect("the configuration saves");
    }
    server
}

fn deny_view(server: &TestServer, space: &str, user: &str) {
    server
        .store
        .set_right(&RightRule {
            scope: RightScope::Space {
                wiki: WikiId::main(),
                space: SpacePath::parse(space).expect("a space"),
            },
            subject: Subject::User(user.to_owned()),
            right: Right::View,
            effect: Effect::Deny,
        })
        .expect("a deny rule");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_link_serves_the_bytes_as_an_attachment() {
    let server = linked(TestServer::start().await);
    let url = link_from(
        &server,
        Some(&server.alice_token),
        "get_attachment",
        json!({"reference": "Guides.Install", "filename": "install-notes.txt"}),
        "Download: ",
    )
    .await;
    assert!(url.contains("&sig="), "{url}");
    let response = reqwest::get(&url).await.expect("the link answers");
    assert_eq!(response.status(), 200);
    assert!(header(&response, "content-type").is_some_and(|value| value.starts_with("text/plain")));
    assert!(
        header(&response, "content-disposition")
            .is_some_and(|value| value.starts_with("attachment; filename=\"install-notes.txt\""))
    );
    assert_eq!(
        header(&response, "x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert_eq!(
        header(&response, "referrer-policy").as_deref(),
        Some("no-referrer")
    );
    let body = response.text().await.expect("a body");
    assert!(body.starts_with("1. Install Rust"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_link_serves_sanitized_html_and_altered_links_are_refused() {
    let server = linked(TestServer::start().await);
    let url = view_link(&server, Some(&server.alice_token), "Internal.WebHome").await;
    let response = reqwest::get(&url).await.expect("the link answers");
    assert_eq!(response.status(), 200);
    assert!(
        header(&response, "content-security-policy")
            .is_some_and(|value| value.contains("default-src 'none'"))
    );
    let html = response.text().await.expect("a body");
    assert!(html.contains("<h1>Internal</h1>"), "{html}");
    assert!(html.contains("For registered users only"));
    // Another page, another user, a later expiry, a forged signature: all refused alike.
    for altered in [
        url.replace("/Internal/", "/Guides/"),
        url.replace("user=alice", "user=admin"),
        url.replace("expires=", "expires=9"),
        format!("{}A", url),
        url.split("&sig=").next().unwrap_or_default().to_owned(),
    ] {
        let refused = reqwest::get(&altered).await.expect("the link answers");
        assert_eq!(
            Answer::of(&refused),
            Answer::refused(&Refusal::LinkRefused),
            "{altered}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_dies_with_its_users_view_right() {
    let server = linked(TestServer::start().await);
    let url = view_link(&server, Some(&server.alice_token), "Internal.Roadmap").await;
    assert_eq!(answer_of(&url).await, Answer::ok());
    deny_view(&server, "Internal", "alice");
    assert_eq!(
        answer_of(&url).await,
        Answer::refused(&Refusal::LinkRefused)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guest_links_open_only_what_the_guest_may_view() {
    let server = linked(TestServer::start().await);
    let url = view_link(&server, None, "Guides.Install").await;
    assert!(!url.contains("user="), "{url}");
    assert_eq!(answer_of(&url).await, Answer::ok());
    // Pointing the guest's link at the private space breaks the signature.
    let private = url.replace("/Guides/Install", "/Internal/WebHome");
    assert_eq!(
        answer_of(&private).await,
        Answer::refused(&Refusal::LinkRefused)
    );
    deny_view(&server, "Guides", GUEST_USER);
    assert_eq!(
        answer_of(&url).await,
        Answer::refused(&Refusal::LinkRefused)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compare_link_serves_the_escaped_diff() {
    let server = linked(TestServer::start().await);
    let reference =
        wiki_store::reference::DocumentReference::parse("Sandbox.WebHome", &WikiId::main())
            .expect("a reference");
    let save = wiki_store::model::document::DocumentSave::new(
        reference,
        "<script>alert(1)</script>\nnew line\n",
        "alice",
    );
    let saved = wiki_store::DocumentStore::save_document(&server.store, &save).expect("a save");
    let to = saved.version().to_string();
    let url = link_from(
        &server,
        Some(&server.alice_token),
        "get_history",
        json!({"reference": "Sandbox.WebHome", "from": "1.1", "to": to}),
        "Compare: ",
    )
    .await;
    let response = reqwest::get(&url).await.expect("the link answers");
    assert_eq!(response.status(), 200);
    let html = response.text().await.expect("a body");
    assert!(html.contains("+&lt;script&gt;alert(1)"), "{html}");
    assert!(!html.contains("<script>"));
    let other = url.replace("from=1.1", "from=1.2");
    assert_eq!(
        answer_of(&other).await,
        Answer::refused(&Refusal::LinkRefused)
    );
}

/// Saves `content` as alice on main's `reference`.
fn save_page(server: &TestServer, reference: &str, content: &str) {
    let reference = wiki_store::reference::DocumentReference::parse(reference, &WikiId::main())
        .expect("a reference");
    let save = wiki_store::model::document::DocumentSave::new(reference, content, "alice");
    wiki_store::DocumentStore::save_document(&server.store, &save).expect("a save");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_link_past_the_render_bounds_shows_the_escaped_source() {
    let server = linked(TestServer::start().await);
    // 100,000 nested list items: quadratic to render, and the HTML sanitizer's worst case.
    save_page(
        &server,
        "Sandbox.Deep",
        &format!("{}x <b>y", "- ".repeat(100_000)),
    );
    let url = link_from(
        &server,
        Some(&server.alice_token),
        "get_document",
        json!({"reference": "Sandbox.Deep", "limit": 1}),
        "URL: ",
    )
    .await;
    let response = reqwest::get(&url).await.expect("the link answers");
    assert_eq!(response.status(), 200);
    let html = response.text().await.expect("a body");
    assert!(
        html.contains("Shown as source: its lists or block quotes nest more than 32 levels deep"),
        "{}",
        &html[..html.len().min(2000)]
    );
    assert!(
        html.contains("- - x &lt;b&gt;y</pre>"),
        "{}",
        &html[html.len().saturating_sub(200)..]
    );
    assert!(!html.contains("<li>"));
    // A page within the bounds is rendered, in the tools' dialect (tables on).
    save_page(
        &server,
        "Sandbox.Table",
        "| a | b |\n|---|---|\n| 1 | 2 |\n",
    );
    let url = view_link(&server, Some(&server.alice_token), "Sandbox.Table").await;
    let html = reqwest::get(&url)
        .await
        .expect("answer")
        .text()
        .await
        .expect("a body");
    assert!(
        html.contains("<table>") && !html.contains("Shown as source"),
        "{html}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn link_pages_have_a_rate_limit_per_address_of_their_own() {
    let server = linked(
        TestServer::start_with(wiki_server::http::HttpOptions {
            rate_limit: Some(wiki_server::http::RateLimit {
                per_second: 1,
                burst: 5,
            }),
            page_rate_limit: Some(wiki_server::http::RateLimit {
                per_second: 1,
                burst: 5,
            }),
            ..wiki_server::http::HttpOptions::default()
        })
        .await,
    );
    // alice's MCP requests (initialize, initialized, the call) draw from her bucket, not the
    // pages' one.
    let url = view_link(&server, Some(&server.alice_token), "Guides.Install").await;
    for _ in 0..5 {
        assert_eq!(answer_of(&url).await, Answer::ok());
    }
    let limited = reqwest::get(&url).await.expect("answer");
    assert_eq!(
        Answer::of(&limited),
        Answer::refused(&Refusal::RateLimited { retry_after: 1 })
    );
    assert_eq!(header(&limited, "retry-after").as_deref(), Some("1"));
    // The guest's MCP bucket of the same address is untouched by the pages.
    let list = server.list_tools("main", None).await;
    assert_eq!(list.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_link_dies_when_the_wiki_turns_the_guest_off() {
    let server = linked(TestServer::start().await);
    let url = view_link(&server, None, "Guides.Install").await;
    assert_eq!(answer_of(&url).await, Answer::ok());
    let main = WikiId::main();
    let mut config = wiki_store::ConfigStore::mcp_config(&server.store, &main);
    config.guest_access = false;
    wiki_store::ConfigStore::set_mcp_config(&server.store, &main, &config, "admin")
        .expect("the configuration saves");
    assert_eq!(
        answer_of(&url).await,
        Answer::refused(&Refusal::LinkRefused)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_deleted_and_created_again_does_not_inherit_the_old_links() {
    let server = linked(TestServer::start().await);
    let url = view_link(&server, Some(&server.alice_token), "Guides.Install").await;
    assert_eq!(answer_of(&url).await, Answer::ok());
    // A second later, so the new account is created after the link was issued, to the second.
    server.clock.advance(std::time::Duration::from_secs(1));
    wiki_store::UserStore::delete_user(&server.store, "alice").expect("alice is deleted");
    assert_eq!(
        answer_of(&url).await,
        Answer::refused(&Refusal::LinkRefused)
    );
    wiki_store::UserStore::create_user(&server.store, "alice", None).expect("a new alice");
    assert_eq!(
        answer_of(&url).await,
        Answer::refused(&Refusal::LinkRefused)
    );
    // The new account's own links open.
    let token = wiki_store::TokenStore::create_token(&server.store, "alice", "test")
        .expect("a token")
        .token
        .expose()
        .to_owned();
    let fresh = view_link(&server, Some(&token), "Guides.Install").await;
    assert_eq!(answer_of(&fresh).await, Answer::ok());
}

/// The `href` (or `src`) values of `html` that point into the link pages, `&amp;` unescaped.
fn signed_targets(html: &str, attribute: &str) -> Vec<String> {
    html.split(&format!("{attribute}=\""))
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|value| value.contains("/wikis/"))
        .map(|value| value.replace("&amp;", "&"))
        .collect()
}

/// Regression: the view page's wiki links were relative (`Guides.Install`) and answered 403, its
/// attachment links and images were dropped. They are signed links for the page's holder, and
/// they open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_links_of_a_view_page_are_signed_links_that_open() {
    let server = linked(TestServer::start().await);
    save_page(
        &server,
        "Sandbox.Linked",
        "See [the guide](Guides.Install), [its notes](attach:Guides.Install@install-notes.txt) \
         and ![a picture](attach:Guides.Install@install-notes.txt), or \
         [the web](https://example.com/).\n",
    );
    let url = view_link(&server, Some(&server.alice_token), "Sandbox.Linked").await;
    let response = reqwest::get(&url).await.expect("the link answers");
    assert_eq!(response.status(), 200);
    assert!(
        header(&response, "content-security-policy")
            .is_some_and(|value| value.contains("img-src data: 'self'"))
    );
    let html = response.text().await.expect("a body");
    assert!(html.contains("href=\"https://example.com/\""), "{html}");
    let links = signed_targets(&html, "href");
    assert_eq!(links.len(), 2, "{html}");
    // The server has a public URL: the links are absolute, under it.
    assert!(
        links.iter().all(|link| link.starts_with(&server.base)),
        "{links:?}"
    );
    let guide = reqwest::get(&links[0])
        .await
        .expect("the guide's link answers");
    assert_eq!(guide.status(), 200, "{}", links[0]);
    assert!(guide.text().await.expect("a body").contains("Install"));
    let images = signed_targets(&html, "src");
    assert_eq!(images.len(), 1, "{html}");
    for file in [&links[1], &images[0]] {
        let download = reqwest::get(file).await.expect("the file's link answers");
        assert_eq!(download.status(), 200, "{file}");
        assert!(
            download
                .text()
                .await
                .expect("a body")
                .starts_with("1. Install Rust")
        );
    }
    // The links are alice's: they say so, and altering them breaks them like any link.
    assert!(
        links.iter().all(|link| link.contains("user=alice")),
        "{links:?}"
    );
}

/// Regression: `get_document rendered=true format=html` dropped the targets of cross-wiki links,
/// `attach:` links and images (the sanitizer knows no `dev:` or `attach:` scheme) and printed
/// wiki links as relative references that open nothing. Each is now the signed link of its
/// target for the caller: it opens for a caller who may view the target, and is refused
/// otherwise, as every link is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rendered_html_carries_signed_links_that_open_for_those_who_may_view() {
    let server = linked(TestServer::start().await);
    save_page(
        &server,
        "Sandbox.Linked",
        "See [the guide](Guides.Install), [the dev home](dev:Main.WebHome), \
         [its notes](attach:Guides.Install@install-notes.txt), \
         ![a picture](attach:Guides.Install@install-notes.txt) and \
         [a closed page](Closed.WebHome).\n",
    );
    save_page(&server, "Closed.WebHome", "# Closed\n");
    deny_view(&server, "Closed", "alice");
    for detail in ["stripped", "full"] {
        let arguments = json!({"reference": "Sandbox.Linked", "rendered": true, "format": "html",
                               "detail": detail});
        let text = tool_text(
            &server,
            Some(&server.alice_token),
            "get_document",
            arguments,
        )
        .await;
        let links = signed_targets(&text, "href");
        let images = signed_targets(&text, "src");
        assert_eq!((links.len(), images.len()), (4, 1), "{detail}: {text}");
        assert!(
            links
                .iter()
                .chain(&images)
                .all(|link| link.starts_with(&server.base) && link.contains("user=alice")),
            "{links:?} {images:?}"
        );
        let status = |url: String| async move { answer_of(&url).await };
        // The guide, the dev home (alice may view dev), the notes and the picture open.
        for url in [&links[0], &links[1], &links[2], &images[0]] {
            assert_eq!(status(url.clone()).await, Answer::ok(), "{detail}: {url}");
        }
        // The page alice may not view is signed (it gives nothing away) and refused.
        assert_eq!(
            status(links[3].clone()).await,
            Answer::refused(&Refusal::LinkRefused),
            "{detail}: {}",
            links[3]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_are_off_unless_the_wiki_or_the_call_asks_for_them() {
    let server = TestServer::start().await;
    let arguments = json!({ "reference": "Guides.Install" });
    let quiet = tool_text(
        &server,
        Some(&server.alice_token),
        "get_document",
        arguments.clone(),
    )
    .await;
    assert!(
        !quiet.contains("URL: ") && !quiet.contains("http"),
        "{quiet}"
    );

    let client = server.client("main", Some(&server.alice_token)).await;
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    let meta =
        serde_json::Map::from_iter([(wiki_server::LINKS_META_KEY.to_owned(), Value::Bool(true))]);
    let mut request =
        rmcp::model::CallToolRequestParams::new("get_document").with_arguments(arguments);
    request.meta = Some(meta.into());
    let asked = client.call_tool(request).await.expect("tools/call");
    client.cancel().await.expect("the client closes");
    let asked = text_of(&asked).unwrap_or_default();
    let url = asked
        .lines()
        .find_map(|line| line.strip_prefix("URL: "))
        .unwrap_or_else(|| panic!("no URL line when the call asks: {asked}"));
    assert_eq!(answer_of(url).await, Answer::ok());
}
