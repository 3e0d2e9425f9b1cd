//! The admin page on two `serve` processes sharing one PostgreSQL farm, as behind a load
//! balancer without sticky sessions: a session opened on A works on B (a page, a CSRF-protected
//! form), a sign-out on B ends it on A, a call made through A shows in B's audit view, and users,
//! groups and rules changed on either page are the farm's, as the command line sees them.

use std::time::Duration;

use serde_json::json;

use crate::farm::{Farm, Replica, within};
use wiki_store::testing::{PostgresServer, backend_test};

/// A browser's part: one cookie jar, redirects not followed, any replica.
pub(crate) struct Browser {
    http: reqwest::blocking::Client,
    cookie: String,
}

/// `fields` as an HTML form posts them.
fn encode(fields: &[(&str, &str)]) -> String {
    let escape = |text: &str| -> String {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    fields
        .iter()
        .map(|(name, value)| format!("{}={}", escape(name), escape(value)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The value of the first `name="…" value="…"` input in `html`.
pub(crate) fn input(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let at = html.find(&marker).map(|at| at + marker.len());
    let rest = &html[at.unwrap_or_else(|| panic!("no {name} in {html}"))..];
    rest[..rest.find('"').unwrap()].to_owned()
}

impl Browser {
    /// Signs in on `replica` with `token` through the sign-in form, as a person would.
    pub(crate) fn sign_in(&mut self, replica: &Replica, token: &str) {
        let (_, form) = self.send(replica, "/admin/signin", None);
        let nonce = input(&form, "csrf");
        let (status, _) = self.send(
            replica,
            "/admin/signin",
            Some(&[("csrf", &nonce), ("token", token)]),
        );
        assert_eq!(status, 303, "signed in with the admin token");
    }

    pub(crate) fn new() -> Self {
        Browser {
            http: reqwest::blocking::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
            cookie: String::new(),
        }
    }

    pub(crate) fn send(
        &mut self,
        on: &Replica,
        path: &str,
        form: Option<&[(&str, &str)]>,
    ) -> (u16, String) {
        let url = format!("http://{}{path}", on.address);
        let request = match form {
            Some(fields) => self
                .http
                .post(url)
                .header("origin", format!("http://{}", on.address))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(encode(fields)),
            None => self.http.get(url),
        };
        let response = request
            .header("cookie", self.cookie.clone())
            .send()
            .unwrap();
        for set in response.headers().get_all("set-cookie") {
            let pair = set.to_str().unwrap().split(';').next().unwrap().to_owned();
            if pair.starts_with("wiki_mcp_") && !pair.ends_with('=') {
                self.cookie = [self.cookie.clone(), pair]
                    .into_iter()
                    .filter(|part| !part.is_empty())
                    .collect::<Vec<_>>()
                    .join("; ");
            }
        }
        let status = response.status().as_u16();
        (status, response.text().unwrap_or_default())
    }
}

#[backend_test(only = "postgres")]
fn an_admin_session_and_the_audit_are_shared_by_the_replicas(server: &PostgresServer) {
    let farm = Farm::create(server);
    let (a, b) = (farm.replica(), farm.replica());
    let mut browser = Browser::new();
    browser.sign_in(&a, &farm.admin_token);

    let (status, tokens) = browser.send(&b, "/admin/tokens", None);
    assert_eq!(status, 200, "B knows A's session: {tokens}");
    let csrf = input(&tokens, "csrf");
    let (status, created) = browser.send(
        &b,
        "/admin/tokens",
        Some(&[("csrf", &csrf), ("user", "admin"), ("label", "made on B")]),
    );
    assert_eq!(status, 200, "{created}");
    assert!(created.contains("made on B"), "{created}");

    a.call(&farm.admin_token, "list_wikis", json!({})).ok();
    within("A's call in B's audit view", Duration::from_secs(5), || {
        let (_, audit) = browser.send(&b, "/admin/audit?tool=list_wikis", None);
        audit.contains("<code>list_wikis</code>").then_some(())
    });

    let kept = browser.cookie.clone();
    let (status, _) = browser.send(&b, "/admin/signout", Some(&[("csrf", &csrf)]));
    assert_eq!(status, 303, "signed out on B");
    let mut replay = Browser::new();
    replay.cookie = kept;
    let (status, _) = replay.send(&a, "/admin", None);
    assert_eq!(
        status, 303,
        "A refuses the session B ended (to the sign-in page)"
    );
}

#[backend_test(only = "postgres")]
fn accounts_changed_on_either_replicas_page_are_the_farms_and_audited(server: &PostgresServer) {
    let farm = Farm::create(server);
    let (a, b) = (farm.replica(), farm.replica());
    let mut browser = Browser::new();
    browser.sign_in(&a, &farm.admin_token);
    let (_, page) = browser.send(&a, "/admin/users", None);
    let csrf = input(&page, "csrf");
    let mut post = |on: &Replica, path: &str, fields: &[(&str, &str)]| {
        let fields = [&[("csrf", csrf.as_str())][..], fields].concat();
        browser.send(on, path, Some(&fields))
    };

    assert_eq!(post(&a, "/admin/users/create", &[("name", "carol")]).0, 303);
    assert_eq!(
        post(&b, "/admin/groups/create", &[("name", "editors")]).0,
        303
    );
    let member = [("group", "editors"), ("kind", "user"), ("member", "carol")];
    assert_eq!(post(&a, "/admin/groups/add", &member).0, 303);
    let rule = [
        ("wiki", "main"),
        ("effect", "allow"),
        ("right", "delete"),
        ("kind", "group"),
        ("subject", "editors"),
    ];
    assert_eq!(post(&b, "/admin/rights/set", &rule).0, 303);
    let effective = farm.admin(&["rights", "effective", "--user", "carol", "--wiki", "main"]);
    assert!(
        effective.contains("allow delete to group editors on wiki main"),
        "{effective}"
    );

    let (status, refused) = post(&b, "/admin/users/delete", &[("name", "admin")]);
    assert_eq!(status, 422, "{refused}");
    assert!(refused.contains("without an administrator"), "{refused}");
    assert!(farm.admin(&["user", "list"]).contains("admin"));

    farm.admin(&["user", "create", "dave"]);
    let (_, audit) = browser.send(&a, "/admin/audit?tool=user+create", None);
    assert_eq!(
        audit.matches("<td><code>user create</code></td>").count(),
        2,
        "{audit}"
    );
    assert!(audit.contains("command line"), "{audit}");
    let (_, audit) = browser.send(&a, "/admin/audit?tool=user+delete&outcome=error", None);
    assert!(audit.contains("forbidden"), "{audit}");
}
