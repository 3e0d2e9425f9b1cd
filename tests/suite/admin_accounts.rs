//! Users, groups and rights changed on the admin page: each change lands in the store as the
//! command line would make it, a refused one leaves everything as it was and says what to fix,
//! the farm's last administrator cannot be removed, and every change, made or refused, is in the
//! audit record under the administrator who made it.

use wiki_store::model::admin::{AuditCall, AuditFilter};
use wiki_store::model::wiki::WikiId;
use wiki_store::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::{AdminStore, RightsStore, UserStore};

use crate::admin::Browser;
use crate::harness::TestServer;

/// The audit record's rows of `command`, newest first.
fn audited(server: &TestServer, command: &str) -> Vec<AuditCall> {
    let filter = AuditFilter {
        tool: Some(command),
        ..AuditFilter::default()
    };
    server
        .store
        .recent_audit(&filter, 50)
        .expect("the audit record reads")
}

fn user_names(server: &TestServer) -> Vec<String> {
    let users = server.store.list_users().expect("the users");
    users.into_iter().map(|user| user.name).collect()
}

fn main_rules(server: &TestServer) -> Vec<RightRule> {
    server
        .store
        .list_rights(&WikiId::main())
        .expect("the main wiki's rules")
}

/// A browser signed in as the farm administrator, and its CSRF token.
async fn farm_admin(server: &TestServer) -> (Browser, String) {
    let mut browser = Browser::new(server);
    assert_eq!(browser.sign_in(&server.admin_token).await.status, 303);
    let csrf = browser.csrf("/admin/users").await;
    (browser, csrf)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_farm_admin_creates_and_deletes_users_and_each_change_is_audited() {
    let server = TestServer::start().await;
    let (mut browser, csrf) = farm_admin(&server).await;

    let created = browser
        .post(
            "/admin/users/create",
            &[
                ("csrf", &csrf),
                ("name", "bob"),
                ("display_name", "Bob Builder"),
            ],
        )
        .await;
    assert_eq!(created.status, 303, "{}", created.body);
    assert_eq!(created.location, "/admin/users?created=1");
    let bob = server.store.user("bob").expect("bob is stored");
    assert_eq!(bob.display_name.as_deref(), Some("Bob Builder"));
    let listed = browser.get("/admin/users?created=1").await;
    assert!(listed.body.contains("Bob Builder"), "{}", listed.body);
    assert!(
        listed.body.contains("role=\"status\">Created"),
        "{}",
        listed.body
    );

    // Refused: a bad name, a taken one. Nothing is written; the page says what to fix.
    let before = user_names(&server);
    let bad = browser
        .post(
            "/admin/users/create",
            &[("csrf", &csrf), ("name", "bob builder")],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(
        bad.body
            .contains("Cannot create the user `bob builder`: invalid user name"),
        "{}",
        bad.body
    );
    assert!(
        bad.body
            .contains("id=\"new-name\" name=\"name\" value=\"bob builder\""),
        "the name is shown back to correct: {}",
        bad.body
    );
    let taken = browser
        .post("/admin/users/create", &[("csrf", &csrf), ("name", "bob")])
        .await;
    assert_eq!(taken.status, 422);
    assert!(
        taken.body.contains("exists already: choose another name"),
        "{}",
        taken.body
    );
    let guest = browser
        .post("/admin/users/delete", &[("csrf", &csrf), ("name", "guest")])
        .await;
    assert_eq!(guest.status, 422);
    assert!(
        guest.body.contains("the guest is built in"),
        "{}",
        guest.body
    );
    assert_eq!(user_names(&server), before);

    let deleted = browser
        .post("/admin/users/delete", &[("csrf", &csrf), ("name", "bob")])
        .await;
    assert_eq!(deleted.status, 303, "{}", deleted.body);
    assert!(server.store.user("bob").is_err(), "bob is gone");
    let gone = browser
        .post("/admin/users/delete", &[("csrf", &csrf), ("name", "bob")])
        .await;
    assert_eq!(gone.status, 422);
    assert!(
        gone.body.contains("there is no user `bob`"),
        "{}",
        gone.body
    );

    // The audit record names who made each change, and how it ended.
    let creates = audited(&server, "user create");
    let outcomes: Vec<(&str, &str, Option<&str>)> = creates
        .iter()
        .map(|row| {
            (
                row.user.as_str(),
                row.outcome.as_str(),
                row.reason.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            ("admin", "error", Some("conflict")),
            ("admin", "error", Some("bad_argument")),
            ("admin", "ok", None),
        ]
    );
    assert!(creates.iter().all(|row| row.wiki == "main"));
    let deletes = audited(&server, "user delete");
    assert_eq!(
        deletes.len(),
        3,
        "guest refused, bob deleted, bob not found"
    );
    // The audit view shows them.
    let view = browser.get("/admin/audit?tool=user+delete").await;
    assert_eq!(view.status, 200);
    assert_eq!(
        view.body.matches("<code>user delete</code>").count(),
        3,
        "{}",
        view.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_last_farm_administrator_cannot_be_removed_from_the_page() {
    let server = TestServer::start().await;
    let (mut browser, csrf) = farm_admin(&server).await;
    let rules = main_rules(&server);
    let lockout = "would leave the farm without an administrator";

    let delete = browser
        .post("/admin/users/delete", &[("csrf", &csrf), ("name", "admin")])
        .await;
    assert_eq!(delete.status, 422, "{}", delete.body);
    assert!(delete.body.contains(lockout), "{}", delete.body);
    assert!(server.store.user("admin").is_ok());

    let admin_rule = [
        ("csrf", csrf.as_str()),
        ("wiki", "main"),
        ("right", "admin"),
        ("kind", "user"),
        ("subject", "admin"),
    ];
    let removed = browser.post("/admin/rights/remove", &admin_rule).await;
    assert_eq!(removed.status, 422, "{}", removed.body);
    assert!(removed.body.contains(lockout), "{}", removed.body);
    let denied = browser
        .post(
            "/admin/rights/set",
            &[&admin_rule[..], &[("effect", "deny")]].concat(),
        )
        .await;
    assert_eq!(denied.status, 422, "{}", denied.body);
    assert_eq!(main_rules(&server), rules, "nothing changed");
    assert_eq!(
        browser.get("/admin/users").await.status,
        200,
        "still an admin"
    );
    let refused = audited(&server, "rights remove");
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].reason.as_deref(), Some("forbidden"));

    // With a second administrator, the first may step down.
    let second = browser
        .post(
            "/admin/rights/set",
            &[
                ("csrf", &csrf),
                ("wiki", "main"),
                ("right", "admin"),
                ("effect", "allow"),
                ("kind", "user"),
                ("subject", "alice"),
            ],
        )
        .await;
    assert_eq!(second.status, 303, "{}", second.body);
    let removed = browser.post("/admin/rights/remove", &admin_rule).await;
    assert_eq!(removed.status, 303, "{}", removed.body);
    assert!(!server.store.rights_snapshot().expect("the rights").can(
        "admin",
        Right::Admin,
        &RightScope::Wiki(WikiId::main())
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn groups_and_members_are_managed_on_the_groups_page() {
    let server = TestServer::start().await;
    let (mut browser, csrf) = farm_admin(&server).await;
    let page = browser.get("/admin/groups").await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("all-users"),
        "the built-in group is listed"
    );

    let created = browser
        .post(
            "/admin/groups/create",
            &[("csrf", &csrf), ("name", "editors")],
        )
        .await;
    assert_eq!(created.status, 303, "{}", created.body);
    let add = |kind: &'static str, member: &'static str| {
        [("group", "editors"), ("kind", kind), ("member", member)]
    };
    let added = browser
        .post(
            "/admin/groups/add",
            &[&[("csrf", csrf.as_str())][..], &add("user", "alice")].concat(),
        )
        .await;
    assert_eq!(added.status, 303, "{}", added.body);
    let editors = server.store.group("editors").expect("the group");
    assert_eq!(editors.users, ["alice"]);
    let listed = browser.get("/admin/groups").await;
    assert!(
        listed
            .body
            .contains("aria-label=\"Remove alice from editors\""),
        "{}",
        listed.body
    );

    let unknown = browser
        .post(
            "/admin/groups/add",
            &[&[("csrf", csrf.as_str())][..], &add("user", "nobody")].concat(),
        )
        .await;
    assert_eq!(unknown.status, 422);
    assert!(
        unknown
            .body
            .contains("there is no user `nobody`: create it first"),
        "{}",
        unknown.body
    );
    let built_in = browser
        .post(
            "/admin/groups/add",
            &[
                ("csrf", csrf.as_str()),
                ("group", "all-users"),
                ("kind", "user"),
                ("member", "alice"),
            ],
        )
        .await;
    assert_eq!(built_in.status, 422);
    assert_eq!(
        server.store.group("editors").expect("the group").users,
        ["alice"]
    );

    let removed = browser
        .post(
            "/admin/groups/remove",
            &[&[("csrf", csrf.as_str())][..], &add("user", "alice")].concat(),
        )
        .await;
    assert_eq!(removed.status, 303, "{}", removed.body);
    assert!(
        server
            .store
            .group("editors")
            .expect("the group")
            .users
            .is_empty()
    );
    let deleted = browser
        .post(
            "/admin/groups/delete",
            &[("csrf", &csrf), ("name", "editors")],
        )
        .await;
    assert_eq!(deleted.status, 303, "{}", deleted.body);
    assert!(server.store.group("editors").is_err());
    let commands: Vec<String> = ["group create", "group add", "group remove", "group delete"]
        .iter()
        .filter(|command| {
            audited(&server, command)
                .iter()
                .any(|row| row.outcome == "ok")
        })
        .map(|command| (*command).to_owned())
        .collect();
    assert_eq!(commands.len(), 4, "{commands:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_are_set_and_removed_and_effective_rights_explained_on_the_rights_page() {
    let server = TestServer::start().await;
    let (mut browser, csrf) = farm_admin(&server).await;
    let rule = [
        ("csrf", csrf.as_str()),
        ("wiki", "main"),
        ("space", "Sandbox"),
        ("page", ""),
        ("right", "edit"),
        ("kind", "user"),
        ("subject", "alice"),
    ];
    let set = browser
        .post(
            "/admin/rights/set",
            &[&rule[..], &[("effect", "allow")]].concat(),
        )
        .await;
    assert_eq!(set.status, 303, "{}", set.body);
    assert_eq!(set.location, "/admin/rights?wiki=main&done=set");
    let expected = RightRule {
        scope: RightScope::Space {
            wiki: WikiId::main(),
            space: wiki_store::reference::SpacePath::parse("Sandbox").expect("a space"),
        },
        subject: Subject::User("alice".to_owned()),
        right: Right::Edit,
        effect: Effect::Allow,
    };
    assert!(main_rules(&server).contains(&expected));

    let effective = browser
        .get("/admin/rights?wiki=main&user=alice&page=Sandbox.WebHome")
        .await;
    assert_eq!(effective.status, 200, "{}", effective.body);
    assert!(
        effective
            .body
            .contains("allow edit to user alice on space main:Sandbox"),
        "{}",
        effective.body
    );

    // Refused input changes nothing.
    let rules = main_rules(&server);
    for (fields, says) in [
        (vec![("right", "fly")], "`fly` is not a right"),
        (vec![("wiki", "nowhere")], "unknown wiki `nowhere`"),
        (vec![("page", "Sandbox.WebHome")], "not both"),
        (
            vec![("kind", "group"), ("subject", "nobody")],
            "there is no group `nobody`",
        ),
    ] {
        let mut posted: Vec<(&str, &str)> = rule
            .iter()
            .filter(|(name, _)| !fields.iter().any(|(field, _)| field == name))
            .copied()
            .collect();
        posted.extend(fields.iter().copied());
        posted.push(("effect", "deny"));
        let refused = browser.post("/admin/rights/set", &posted).await;
        assert_eq!(refused.status, 422, "{}", refused.body);
        assert_eq!(
            refused.body.matches(says).count(),
            1,
            "{says}: {}",
            refused.body
        );
        assert!(
            refused.body.contains("value=\"deny\" checked")
                && refused
                    .body
                    .contains("id=\"rule-space\" name=\"space\" value=\"Sandbox\""),
            "the rule is shown back to correct: {}",
            refused.body
        );
    }
    assert_eq!(main_rules(&server), rules);

    let removed = browser.post("/admin/rights/remove", &rule).await;
    assert_eq!(removed.status, 303, "{}", removed.body);
    assert!(!main_rules(&server).contains(&expected));
    let again = browser.post("/admin/rights/remove", &rule).await;
    assert_eq!(again.status, 422);
    assert!(again.body.contains("nothing to remove"), "{}", again.body);
    let allowed = audited(&server, "rights allow");
    assert_eq!(allowed.len(), 1);
    assert_eq!(
        (allowed[0].user.as_str(), allowed[0].outcome.as_str()),
        ("admin", "ok")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wiki_admins_and_forged_posts_change_no_account() {
    let server = TestServer::start().await;
    server
        .store
        .set_right(&RightRule {
            scope: RightScope::Wiki(WikiId::new("dev").expect("a wiki id")),
            subject: Subject::User("alice".to_owned()),
            right: Right::Admin,
            effect: Effect::Allow,
        })
        .expect("alice administers dev");
    let mut alice = Browser::new(&server);
    assert_eq!(alice.sign_in(&server.alice_token).await.status, 303);
    let csrf = alice.csrf("/admin/tokens").await;
    for page in ["/admin/groups", "/admin/rights"] {
        assert_eq!(alice.get(page).await.status, 403, "{page}");
    }
    let refused = alice
        .post("/admin/groups/create", &[("csrf", &csrf), ("name", "mine")])
        .await;
    assert_eq!(refused.status, 403);
    assert!(server.store.group("mine").is_err());

    let (mut browser, _) = farm_admin(&server).await;
    let forged = browser
        .post("/admin/users/create", &[("name", "mallory")])
        .await;
    assert_eq!(forged.status, 403);
    assert!(server.store.user("mallory").is_err());
    assert!(audited(&server, "user create").is_empty());
}
