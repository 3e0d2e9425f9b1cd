//! The admin page behind a reverse proxy that serves it under a path (`--public-url
//! http://wiki.example.com/wiki-mcp/`, the proxy stripping `/wiki-mcp` before forwarding): every
//! link, form action, redirect and cookie path the pages send must carry the prefix, or the
//! browser would leave the proxy's path (and its cookie would not come back).
//!
//! The test plays browser and proxy: it only follows URLs as the browser sees them, refuses any
//! that leaves `/wiki-mcp/`, strips the prefix to forward, and sends a cookie only to the paths
//! its `Path` covers, as a browser does.

use std::net::SocketAddr;

use wiki_server::http::BaseUrl;

use crate::admin::{Page, form_encode, input_value};
use crate::harness::TestServer;

const HOST: &str = "wiki.example.com";
const PREFIX: &str = "/wiki-mcp";

/// A browser behind the proxy: cookies with their paths, requests by public path.
struct Proxied {
    http: reqwest::Client,
    bound: SocketAddr,
    /// (name, value, path).
    cookies: Vec<(String, String, String)>,
}

/// Every `href="…"` and `action="…"` value in `html`.
fn targets(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in ["href=\"", "action=\""] {
        let mut rest = html;
        while let Some(at) = rest.find(attribute) {
            rest = &rest[at + attribute.len()..];
            if let Some(end) = rest.find('"') {
                found.push(rest[..end].replace("&amp;", "&"));
            }
        }
    }
    found
}

/// The action of the form whose action ends with `ending`.
fn action(html: &str, ending: &str) -> String {
    targets(html)
        .into_iter()
        .find(|target| target.ends_with(ending))
        .unwrap_or_else(|| panic!("no form action ending {ending} in {html}"))
}

impl Proxied {
    fn new(server: &TestServer) -> Self {
        Proxied {
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("a client"),
            bound: server.bound,
            cookies: Vec::new(),
        }
    }

    /// Sends `public` (a path the browser was given) through the proxy; checks everything the
    /// answer points the browser to.
    async fn send(&mut self, public: &str, form: Option<&[(&str, &str)]>) -> Page {
        assert!(
            public.starts_with(&format!("{PREFIX}/admin")),
            "the page sent the browser outside the proxy's path: {public}"
        );
        let forwarded = &public[PREFIX.len()..];
        let url = format!("http://{}{forwarded}", self.bound);
        let cookie = self
            .cookies
            .iter()
            .filter(|(_, _, path)| public.starts_with(path.as_str()))
            .map(|(name, value, _)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("; ");
        let request = match form {
            Some(fields) => self
                .http
                .post(url)
                .header("origin", format!("http://{HOST}"))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(form_encode(fields)),
            None => self.http.get(url),
        };
        let response = request
            .header("host", HOST)
            .header("cookie", cookie)
            .send()
            .await
            .expect("the server answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let location = headers
            .get("location")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let set_cookies: Vec<String> = headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|value| value.to_str().ok().map(str::to_owned))
            .collect();
        let body = response.text().await.expect("a body");
        if !location.is_empty() {
            assert!(
                location.starts_with(&format!("{PREFIX}/admin")),
                "Location: {location}"
            );
        }
        for set in &set_cookies {
            let path = set
                .split(';')
                .map(str::trim)
                .find_map(|part| part.strip_prefix("Path="))
                .unwrap_or_else(|| panic!("a cookie without a path: {set}"));
            assert!(
                path.starts_with(&format!("{PREFIX}/admin")),
                "Set-Cookie: {set}"
            );
            let (name, value) = set
                .split(';')
                .next()
                .and_then(|pair| pair.split_once('='))
                .expect("name=value");
            self.cookies.retain(|(kept, _, _)| kept != name);
            if !value.is_empty() && !set.contains("Max-Age=0") {
                self.cookies
                    .push((name.to_owned(), value.to_owned(), path.to_owned()));
            }
        }
        for target in targets(&body) {
            let inside = target.starts_with(&format!("{PREFIX}/"))
                || target.starts_with(&format!("http://{HOST}{PREFIX}/"));
            assert!(inside, "{public} links outside the proxy's path: {target}");
        }
        Page {
            status,
            location,
            set_cookies,
            headers,
            body,
        }
    }

    async fn get(&mut self, public: &str) -> Page {
        self.send(public, None).await
    }

    async fn post(&mut self, public: &str, fields: &[(&str, &str)]) -> Page {
        self.send(public, Some(fields)).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_link_form_redirect_and_cookie_path_carries_the_public_urls_prefix() {
    let public = BaseUrl::parse(&format!("http://{HOST}{PREFIX}/")).expect("a URL");
    let server = TestServer::start_with_settings(|settings| settings.with_public_url(public)).await;
    let mut browser = Proxied::new(&server);

    let first = browser.get(&format!("{PREFIX}/admin")).await;
    assert_eq!(first.status, 303);
    let form = browser.get(&first.location).await;
    assert_eq!(form.status, 200, "{}", form.body);
    let nonce = input_value(&form.body, "csrf").expect("the sign-in form's token");
    let signed_in = browser
        .post(
            &action(&form.body, "/admin/signin"),
            &[("csrf", &nonce), ("token", &server.admin_token)],
        )
        .await;
    assert_eq!(signed_in.status, 303, "{}", signed_in.body);
    assert_eq!(signed_in.location, format!("{PREFIX}/admin"));

    let index = browser.get(&signed_in.location).await;
    assert_eq!(
        index.status, 200,
        "the session cookie came back: {}",
        index.body
    );
    assert!(
        index
            .body
            .contains(&format!("http://{HOST}{PREFIX}/rest/wikis/main/aiLLM/mcp")),
        "{}",
        index.body
    );
    for page in ["/admin/wikis/main", "/admin/tokens", "/admin/audit"] {
        let link = format!("{PREFIX}{page}");
        assert!(
            targets(&index.body).contains(&link),
            "{link} in {}",
            index.body
        );
        assert_eq!(browser.get(&link).await.status, 200, "{link}");
    }

    let wiki = browser.get(&format!("{PREFIX}/admin/wikis/main")).await;
    let csrf = input_value(&wiki.body, "csrf").expect("the form's token");
    let saved = browser
        .post(
            &action(&wiki.body, "/admin/wikis/main"),
            &[
                ("csrf", &csrf),
                ("enabled", "on"),
                ("tool", "get_document"),
                ("space_filter_mode", "none"),
            ],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.body);
    assert_eq!(saved.location, format!("{PREFIX}/admin/wikis/main?saved=1"));
    assert_eq!(browser.get(&saved.location).await.status, 200);

    let tokens = browser.get(&format!("{PREFIX}/admin/tokens")).await;
    let created = browser
        .post(
            &action(&tokens.body, "/admin/tokens"),
            &[
                ("csrf", &csrf),
                ("user", "admin"),
                ("label", "behind the proxy"),
            ],
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let prefix = created
        .body
        .split("name=\"prefix\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a token to revoke")
        .to_owned();
    let revoked = browser
        .post(
            &action(&created.body, "/admin/tokens/revoke"),
            &[("csrf", &csrf), ("prefix", &prefix)],
        )
        .await;
    assert_eq!(revoked.status, 303, "{}", revoked.body);
    assert_eq!(revoked.location, format!("{PREFIX}/admin/tokens?revoked=1"));

    let forged = browser
        .post(&format!("{PREFIX}/admin/tokens"), &[("csrf", "forged")])
        .await;
    assert_eq!(forged.status, 403);
    assert!(
        targets(&forged.body).contains(&format!("{PREFIX}/admin")),
        "the refusal links back under the prefix: {}",
        forged.body
    );

    let out = browser
        .post(&action(&index.body, "/admin/signout"), &[("csrf", &csrf)])
        .await;
    assert_eq!(out.status, 303, "{}", out.body);
    assert_eq!(out.location, format!("{PREFIX}/admin/signin"));
    assert!(
        out.set_cookies
            .iter()
            .any(|cookie| cookie.starts_with("wiki_mcp_admin=;") && cookie.contains("Max-Age=0")),
        "{:?}",
        out.set_cookies
    );
    assert_eq!(browser.get(&format!("{PREFIX}/admin")).await.status, 303);
}
