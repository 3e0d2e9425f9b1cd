//! The admin page's audit view as a person pages through it: the Older and Newer links carry
//! the filters and a row number, so a page shows the same calls however many arrive meanwhile;
//! the From/Until window is read in UTC; what cannot be read is refused with the form to use.

use crate::admin::{Browser, Page};
use crate::harness::TestServer;

/// The `href` of the link with `rel` on `page`, unescaped, if there is one.
fn link(page: &Page, rel: &str) -> Option<String> {
    let marker = format!("rel=\"{rel}\" href=\"");
    let start = page.body.find(&marker)? + marker.len();
    let end = start + page.body[start..].find('"')?;
    Some(page.body[start..end].replace("&amp;", "&"))
}

/// How many calls of `man` the page lists.
fn shown(page: &Page) -> usize {
    page.body.matches("<code>man</code>").count()
}

async fn call_man(server: &TestServer, n: usize) {
    for id in 0..n {
        let call = serde_json::json!({"jsonrpc": "2.0", "id": id + 10, "method": "tools/call",
            "params": {"name": "man", "arguments": {}}});
        let answer = server
            .post("main", Some(&server.admin_token), &call, &[])
            .await;
        assert_eq!(answer.status(), 200);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audit_view_pages_by_row_and_keeps_its_filters() {
    let server = TestServer::start().await;
    let mut browser = Browser::new(&server);
    assert_eq!(browser.sign_in(&server.admin_token).await.status, 303);
    call_man(&server, 5).await;
    // Wait for the fifth call to be recorded (its rows reach the store a moment later).
    let page = browser
        .get_until("/admin/audit?tool=man&size=4", "rel=\"next\"")
        .await;
    assert_eq!(shown(&page), 4, "{}", page.body);
    assert_eq!(
        link(&page, "prev"),
        None,
        "the newest page has nothing newer"
    );
    let older = link(&page, "next").expect("an older page");
    assert!(
        older.contains("tool=man") && older.contains("size=4"),
        "{older}"
    );

    // Calls made now do not move the older page's rows.
    call_man(&server, 3).await;
    browser
        .get_until("/admin/audit?tool=man&size=7", "rel=\"next\"")
        .await;
    let second = browser.get(&older).await;
    assert_eq!(second.status, 200);
    assert_eq!(
        shown(&second),
        1,
        "the fifth-newest of the first five: {}",
        second.body
    );
    assert_eq!(
        link(&second, "next"),
        None,
        "the oldest page has nothing older"
    );
    let newer = link(&second, "prev").expect("a newer page");
    let back = browser.get(&newer).await;
    assert_eq!(shown(&back), 4, "{}", back.body);
    assert!(link(&back, "prev").is_some(), "three calls arrived since");
    assert!(link(&back, "next").is_some());

    // The time window, in UTC: everything is after 2000 and before 2100.
    let all = browser
        .get("/admin/audit?tool=man&size=200&from=2000-01-01T00:00&to=2100-01-01")
        .await;
    assert_eq!(shown(&all), 8, "{}", all.body);
    let none = browser
        .get("/admin/audit?tool=man&to=2000-01-01T00:00")
        .await;
    assert!(none.body.contains("No call matches."), "{}", none.body);
    let future = browser.get("/admin/audit?tool=man&from=2100-01-01").await;
    assert!(future.body.contains("No call matches."), "{}", future.body);
    assert!(
        future.body.contains("value=\"2100-01-01\""),
        "the form shows the window back: {}",
        future.body
    );

    let refused = browser.get("/admin/audit?from=yesterday").await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.body.contains("2026-12-06T19:30"),
        "{}",
        refused.body
    );
    let refused = browser.get("/admin/audit?size=0").await;
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("1 to 200"), "{}", refused.body);
}
