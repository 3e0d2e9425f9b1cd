//! The admin page on two servers of one farm, as behind a load balancer without sticky
//! sessions: each request may reach either. Sessions and the audit record live in the farm's
//! database, so a session opened on one works on the other (pages and CSRF-protected forms), a
//! sign-out on one ends it on both, and a call made through one shows in the other's audit
//! view. (`wiki-mcp/tests/replicas` runs two `serve` processes on PostgreSQL; these run on the
//! SQLite file two store connections share, through the same store API.)

use crate::admin::{Browser, input_value};
use crate::harness::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_opened_on_one_server_works_on_another_until_signed_out_there() {
    let server = TestServer::start().await;
    let replica = server.replica(None).await;
    let mut on_a = Browser::new(&server);
    assert_eq!(on_a.sign_in(&server.admin_token).await.status, 303);

    let mut on_b = on_a.routed_to(&replica.base);
    let index = on_b.get("/admin").await;
    assert_eq!(index.status, 200, "{}", index.body);
    assert!(index.body.contains("Signed in as admin"), "{}", index.body);

    // A CSRF-protected form, its token read from the other server's page.
    let csrf = on_a.csrf("/admin/tokens").await;
    let created = on_b
        .post(
            "/admin/tokens",
            &[("csrf", &csrf), ("user", "admin"), ("label", "made on B")],
        )
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert!(created.body.contains("made on B"), "{}", created.body);
    let forged = on_b
        .post(
            "/admin/tokens",
            &[("csrf", "forged"), ("user", "admin"), ("label", "x")],
        )
        .await;
    assert_eq!(forged.status, 403, "{}", forged.body);

    // Signing out on B ends the session A knows too.
    let kept_cookie = on_a.cookies.clone();
    let csrf = input_value(&on_b.get("/admin").await.body, "csrf").expect("the sign-out form");
    let out = on_b.post("/admin/signout", &[("csrf", &csrf)]).await;
    assert_eq!(out.status, 303, "{}", out.body);
    let mut replayed = Browser::at(&server.base);
    replayed.cookies = kept_cookie;
    let refused = replayed.get("/admin").await;
    assert_eq!(refused.status, 303, "{}", refused.body);
    assert_eq!(refused.location, "/admin/signin");
    let post = replayed
        .post(
            "/admin/tokens",
            &[("csrf", &csrf), ("user", "admin"), ("label", "after")],
        )
        .await;
    assert_eq!(
        post.status, 403,
        "the old session's form is refused on A: {}",
        post.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_made_through_one_server_shows_in_the_others_audit_view() {
    let server = TestServer::start().await;
    let replica = server.replica(None).await;
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "list_wikis", "arguments": {}}});
    let answered = server
        .post("main", Some(&server.alice_token), &call, &[])
        .await;
    assert_eq!(answered.status(), 200);

    let mut on_b = Browser::at(&replica.base);
    assert_eq!(on_b.sign_in(&server.admin_token).await.status, 303);
    let audit = on_b
        .get_until(
            "/admin/audit?tool=list_wikis&user=alice",
            "<code>list_wikis</code>",
        )
        .await;
    assert!(audit.body.contains("<td>alice</td>"), "{}", audit.body);
    let other = on_b.get("/admin/audit?tool=list_wikis&user=bob").await;
    assert!(other.body.contains("No call matches."), "{}", other.body);
}
