//! `get_tree` through the real middleware: survey and explore on the seeded farm, markers, the
//! clamps, paging that continues, the node budget and the fetch ceiling, and the security cases
//! (denied nodes vanish from lines and counts, hidden pages only when asked, space filter, reach,
//! forged titles and names, nested spaces built only from pages the caller may view, a space
//! root whose home page is denied opening through those pages only).

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::attachment::AttachmentWrite;
use wiki_tool_sdk::store::model::class::FieldType;
use wiki_tool_sdk::store::model::document::{DocumentSave, Expected};
use wiki_tool_sdk::store::model::mcp_config::SpaceFilterMode;
use wiki_tool_sdk::store::model::object::{ClassChange, FieldChange, ObjectWrite};
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::SpacePath;
use wiki_tool_sdk::store::rights::{Effect, Right, RightRule, RightScope, Subject};

use crate::harness::{Farm, GUEST, assert_text, ok, past_note, reference};

async fn tree(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call("get_tree", arguments, user, "main").await
}

/// Saves many small pages at once.
fn pages(farm: &Farm, names: impl IntoIterator<Item = String>) {
    let saves: Vec<DocumentSave> = names
        .into_iter()
        .map(|name| DocumentSave::new(reference(&name), "text\n", "alice"))
        .collect();
    ok(farm.store.save_documents(&saves));
}

/// The line that starts with `prefix`, if any.
fn line<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    text.lines().find(|line| line.starts_with(prefix))
}

#[backend_test]
async fn the_survey_counts_and_inlines_small_spaces() {
    let farm = Farm::new();
    let text = ok(tree(&farm, json!({}), "alice").await);
    let text = past_note(&text);
    assert!(
        text.starts_with("Spaces of wiki \"main\": 4 top-level spaces\n"),
        "{text}"
    );
    assert_eq!(
        line(text, "Help/"),
        Some("Help/  (no home page to open; explore root=\"Help\")  — 3 pages, just now")
    );
    let help_block: Vec<&str> = text
        .lines()
        .skip_while(|line| !line.starts_with("Help/"))
        .skip(1)
        .take(3)
        .collect();
    assert_eq!(
        help_block,
        [
            "  Guide  [main:Help.Guide]",
            "  Nested/  [main:Help.Nested.WebHome]",
            "  Nested/Deep  [main:Help.Nested.Deep]",
        ]
    );
    assert_eq!(
        line(text, "Sandbox/"),
        Some("Sandbox/  [main:Sandbox.WebHome]  — 2 pages, just now")
    );
    assert!(line(text, "Tasks/").is_some());
    assert!(line(text, "Forged/").is_some());
    assert!(
        !text.contains("[main:Secret") && !text.contains("Hidden"),
        "{text}"
    );
}

#[backend_test]
async fn denied_and_hidden_pages_vanish_from_lines_and_counts() {
    let farm = Farm::new();
    let bob = ok(tree(&farm, json!({}), "bob").await);
    assert!(past_note(&bob).starts_with("Spaces of wiki \"main\": 5 top-level spaces\n"));
    assert!(line(&bob, "Secret/").is_some_and(|l| l.contains("— 1 page,")));
    // One page of Help denied to alice only: gone from her count and her inline lines.
    ok(farm.store.save_document(&DocumentSave::new(
        reference("Help.Private"),
        "private\n",
        "admin",
    )));
    ok(farm.store.set_right(&RightRule {
        scope: RightScope::Page(reference("Help.Private")),
        subject: Subject::User("alice".to_owned()),
        right: Right::View,
        effect: Effect::Deny,
    }));
    let alice = ok(tree(&farm, json!({}), "alice").await);
    assert!(line(&alice, "Help/").is_some_and(|l| l.contains("— 3 pages,")));
    assert!(!alice.contains("Private"));
    let bob = ok(tree(&farm, json!({}), "bob").await);
    assert!(line(&bob, "Help/").is_some_and(|l| l.contains("— 4 pages,")));

    // Hidden: counted apart, listed only with showHidden.
    ok(farm.store.save_document(
        &DocumentSave::new(reference("Help.Internal"), "x\n", "admin").hidden(true),
    ));
    let counted = ok(tree(&farm, json!({}), "alice").await);
    assert!(line(&counted, "Help/").is_some_and(|l| l.contains("— 3 pages + 1 hidden,")));
    assert!(!counted.contains("Internal") && !counted.contains("Hidden/"));
    let shown = ok(tree(&farm, json!({"showHidden": true}), "admin").await);
    assert!(line(&shown, "Hidden/").is_some_and(|l| l.contains("— 0 pages + 1 hidden,")));
    assert!(shown.contains("  Internal  [main:Help.Internal]"));
    let explored = ok(tree(&farm, json!({"root": "Help"}), "alice").await);
    assert!(!explored.contains("Internal") && !explored.contains("Private"));
    let explored = ok(tree(&farm, json!({"root": "Help", "showHidden": true}), "admin").await);
    assert!(
        explored.contains("  Internal  [main:Help.Internal] {hidden}"),
        "{explored}"
    );
}

#[backend_test]
async fn explore_walks_breadth_first_with_markers() {
    let farm = Farm::new();
    let text = ok(tree(&farm, json!({"root": "Help"}), "alice").await);
    assert_eq!(
        text,
        "Tree: root=main:Help.WebHome (space), depth=2 — 3 pages shown\n\
         Help/  (no home page to open; explore root=\"Help\")\n  \
         Guide  [main:Help.Guide]\n  \
         Nested/  [main:Help.Nested.WebHome]\n    \
         Deep  [main:Help.Nested.Deep]"
    );
    let shallow = ok(tree(&farm, json!({"root": "Help.WebHome", "depth": 1}), "alice").await);
    assert!(
        shallow.contains("\n  Nested/  [main:Help.Nested.WebHome] ⋯\n")
            || shallow.ends_with("  Nested/  [main:Help.Nested.WebHome] ⋯"),
        "{shallow}"
    );
    assert!(!shallow.contains("Deep"));

    let sandbox = ok(tree(&farm, json!({"root": "Sandbox"}), "alice").await);
    assert!(
        sandbox.contains("Sandbox/  [main:Sandbox.WebHome] {att:3}\n"),
        "{sandbox}"
    );
    // Noise classes are left out of the markers; content classes stay.
    ok(farm.store.change_class(&ClassChange {
        class_document: reference("XWiki.TagClass"),
        change: FieldChange::Add {
            rules: Default::default(),
            name: "tags".to_owned(),
            field_type: FieldType::String,
            pretty_name: None,
        },
        author: "admin".to_owned(),
        comment: "tags".to_owned(),
        major: false,
        expected: Expected::Any,
    }));
    ok(farm.store.write_object(&ObjectWrite {
        reference: reference("Tasks.Task1"),
        class: "XWiki.TagClass".to_owned(),
        number: None,
        values: [("tags".to_owned(), "x".to_owned())].into(),
        title: None,
        author: "alice".to_owned(),
        comment: "tag".to_owned(),
        major: false,
        expected: Expected::Any,
    }));
    let tasks = ok(tree(&farm, json!({"root": "Tasks"}), "alice").await);
    assert!(
        tasks.contains("  Task1  [main:Tasks.Task1] {Tasks.TaskClass}\n"),
        "{tasks}"
    );
    assert!(!tasks.contains("TagClass"));
}

#[backend_test]
async fn roots_fall_back_to_space_homes_and_terminal_pages_say_so() {
    let farm = Farm::new();
    let nested = ok(tree(&farm, json!({"root": "Help.Nested"}), "alice").await);
    assert!(nested.starts_with("Tree: root=main:Help.Nested.WebHome (space)"));
    assert!(nested.contains("  Deep  [main:Help.Nested.Deep]"));
    let terminal = ok(tree(&farm, json!({"root": "Sandbox.Notes"}), "alice").await);
    assert_eq!(
        terminal,
        "Tree: root=main:Sandbox.Notes (page), depth=2 — 0 pages shown\n\
         Notes  [main:Sandbox.Notes]\n\
         This is a terminal page: it has no child pages."
    );
    let missing = tree(&farm, json!({"root": "No.Where"}), "alice").await;
    assert_eq!(
        missing,
        Err(
            "No such document: \"main:No.Where\". Call get_tree without root to see the \
             spaces."
                .to_owned()
        )
    );
    let denied = tree(&farm, json!({"root": "Secret"}), "alice").await;
    assert_eq!(
        denied,
        Err("You do not have permission to view \"main:Secret.WebHome\".".to_owned())
    );
}

#[backend_test]
async fn depth_and_limit_are_capped_and_0_or_a_negative_offset_refused() {
    let farm = Farm::new();
    let deep = ok(tree(&farm, json!({"root": "Help", "depth": 9}), "alice").await);
    assert!(deep.starts_with("Tree: root=main:Help.WebHome (space), depth=4 — 3 pages shown"));
    let zero = tree(&farm, json!({"root": "Help", "limit": 0}), "alice").await;
    assert!(
        zero.as_ref()
            .is_err_and(|e| e.starts_with("Error: 'limit' must be between 1 and 200 (got 0)")),
        "a limit of 0 asks for nothing: {zero:?}"
    );
    let one = ok(tree(
        &farm,
        json!({"root": "Help", "depth": 1, "limit": 1}),
        "alice",
    )
    .await);
    assert!(one.contains("— 1 page shown\n"));
    assert!(one.ends_with("More direct children exist (showing 1-1 of 2); re-call with offset=1."));
    let negative = tree(&farm, json!({"root": "Help", "offset": -4}), "alice").await;
    assert_eq!(
        negative,
        Err("Error: 'offset' must be 0 or more (got -4).".to_owned())
    );
    let wrong = tree(&farm, json!({"depth": "deep"}), "alice").await;
    assert_eq!(wrong, Err("Error: 'depth' must be an integer.".to_owned()));
    // depth has no effect on a survey: refused, not ignored.
    let survey = tree(&farm, json!({"depth": 3}), "alice").await;
    assert!(
        survey
            .as_ref()
            .is_err_and(|e| e.starts_with("Error: 'depth' applies only when exploring")),
        "{survey:?}"
    );
}

#[backend_test]
async fn paging_root_children_really_continues() {
    let farm = Farm::new();
    pages(&farm, (0..12).map(|i| format!("Many.P{i:02}")));
    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let text = ok(tree(
            &farm,
            json!({"root": "Many", "limit": 5, "offset": offset}),
            "alice",
        )
        .await);
        seen.extend(
            text.lines()
                .filter(|l| l.starts_with("  P"))
                .map(str::to_owned),
        );
        match text.rsplit_once("re-call with offset=") {
            Some((_, next)) => offset = ok(next.trim_end_matches('.').parse::<usize>()),
            None => break,
        }
    }
    assert_eq!(seen.len(), 12);
    seen.dedup();
    assert_eq!(seen.len(), 12, "no child shown twice");
    let past = tree(&farm, json!({"root": "Many", "offset": 12}), "alice").await;
    assert_eq!(
        past,
        Err(
            "Error: 'offset' 12 is past the last child (12 direct children). Use an offset \
             below 12."
                .to_owned()
        )
    );
    let spaces = tree(&farm, json!({"offset": 50}), "alice").await;
    assert!(
        spaces
            .as_ref()
            .is_err_and(|e| e.starts_with("Error: 'offset' 50 is past the last space (")),
        "{spaces:?}"
    );

    let surveyed = ok(tree(&farm, json!({"limit": 2}), "alice").await);
    assert!(surveyed.ends_with("More spaces exist (showing 1-2 of 5); re-call with offset=2."));
    let rest = ok(tree(&farm, json!({"limit": 2, "offset": 4}), "alice").await);
    assert!(line(&rest, "Tasks/").is_some() && !rest.contains("More spaces"));
}

#[backend_test]
async fn the_node_budget_stops_at_300_lines() {
    let farm = Farm::new();
    pages(
        &farm,
        (0..200)
            .map(|i| format!("Big.A.P{i:03}"))
            .chain((0..200).map(|i| format!("Big.B.P{i:03}"))),
    );
    let text = ok(tree(
        &farm,
        json!({"root": "Big", "limit": 200, "depth": 3}),
        "alice",
    )
    .await);
    assert!(text.starts_with("Tree: root=main:Big.WebHome (space), depth=3 — 300 pages shown\n"));
    assert!(
        text.contains("  B/  (no home page to open; explore root=\"Big.B\")\n"),
        "{text}"
    );
    assert!(text.contains("  (98 of 200 children shown; explore with root=\"Big.B.WebHome\")"));
}

#[backend_test]
async fn past_the_fetch_ceiling_counts_are_sampled() {
    let farm = Farm::new();
    pages(&farm, (0..2001).map(|i| format!("Bulk.P{i:04}")));
    let text = ok(tree(&farm, json!({}), "alice").await);
    assert!(text.starts_with(
        "Spaces of wiki \"main\": 5 top-level spaces (counts sampled from the first 2000 pages)\n"
    ), "{text}");
    assert!(
        line(&text, "Bulk/").is_some_and(|l| l.contains("2000+ pages")),
        "{text}"
    );
    assert!(
        !text.contains("  Guide  "),
        "nothing inlined past the ceiling"
    );
    assert!(
        line(&text, "Sandbox/").is_some_and(|l| l.contains("not counted")),
        "{text}"
    );
}

/// Regression: the 2000-row sample was filled before authorization, so pages alice
/// cannot view (Secret sorts before her spaces) made her survey "sampled", with `+` counts and
/// her own spaces "not counted".
#[backend_test]
async fn pages_the_caller_cannot_view_do_not_use_up_the_sample() {
    let farm = Farm::new();
    let before = ok(tree(&farm, json!({}), "alice").await);
    pages(&farm, (0..2100).map(|i| format!("Secret.Bulk{i:04}")));
    let after = ok(tree(&farm, json!({}), "alice").await);
    assert_text(&after, &before);
    assert!(
        !after.contains("sampled") && !after.replace("U+", "").contains('+'),
        "{after}"
    );
    let bob = ok(tree(&farm, json!({}), "bob").await);
    assert!(
        bob.contains("(counts sampled from the first 2000 pages)"),
        "{bob}"
    );
}

#[backend_test]
async fn other_wikis_need_reach_and_the_filter_applies() {
    let farm = Farm::new();
    let sub = ok(tree(&farm, json!({"wiki": "sub"}), "alice").await);
    assert!(
        sub.contains("Team/  [sub:Team.WebHome]  — 2 pages,"),
        "{sub}"
    );
    let prefixed = ok(tree(&farm, json!({"root": "sub:Team"}), "alice").await);
    assert!(prefixed.contains("  Roadmap  [sub:Team.Roadmap]"));
    let refused = farm
        .call("get_tree", json!({"wiki": "main"}), "alice", "sub")
        .await;
    assert!(refused.is_err_and(|e| e.contains("cross-wiki reach is not enabled")));
    let all = tree(&farm, json!({"wiki": "all"}), "alice").await;
    assert!(all.is_err_and(|e| e.starts_with("Error: 'wiki' must name one wiki here")));

    // Regression: an unknown wiki was read as an empty one ("0 top-level spaces"),
    // and one the caller may not view must answer exactly like it.
    let unknown = "Error: wiki \"nope\" does not exist. Call list_wikis for the wikis you can use.";
    assert_eq!(
        tree(&farm, json!({"wiki": "nope"}), "alice").await,
        Err(unknown.to_owned())
    );
    assert_eq!(
        tree(&farm, json!({"wiki": "sub"}), GUEST).await,
        Err(unknown.replace("nope", "sub"))
    );
    assert_eq!(
        farm.call("get_schema", json!({"wiki": "nope"}), "alice", "main")
            .await,
        Err(unknown.to_owned())
    );
    assert_eq!(
        farm.call("query_documents", json!({"wiki": "sub"}), GUEST, "main")
            .await,
        Err(unknown.replace("nope", "sub"))
    );
    // The readers of one page or class say the same, by 'wiki' or by a reference's prefix,
    // instead of "No such document" or "0 backlinks".
    let readers = [
        (
            "get_document",
            json!({"reference": "Team.Roadmap", "wiki": "nope"}),
        ),
        ("get_document", json!({"reference": "nope:Team.Roadmap"})),
        (
            "get_documents",
            json!({"documents": [{"reference": "nope:Team.Roadmap"}]}),
        ),
        (
            "get_history",
            json!({"reference": "Team.Roadmap", "wiki": "nope"}),
        ),
        ("get_links", json!({"reference": "nope:Team.Roadmap"})),
        (
            "get_links",
            json!({"reference": "Team.Roadmap", "wiki": "nope", "direction": "out"}),
        ),
        ("get_schema", json!({"class": "nope:Tasks.TaskClass"})),
        (
            "query_objects",
            json!({"class": "Tasks.TaskClass", "wiki": "nope"}),
        ),
    ];
    for (tool, arguments) in readers {
        let answer = farm.call(tool, arguments.clone(), "alice", "main").await;
        // get_documents answers each document in turn, a refused one among them.
        let (Ok(text) | Err(text)) = &answer;
        assert!(text.contains(unknown), "{tool} {arguments}: {answer:?}");
    }
    let guest = farm
        .call(
            "get_document",
            json!({"reference": "sub:Team.Roadmap"}),
            GUEST,
            "main",
        )
        .await;
    assert!(
        guest
            .as_ref()
            .is_err_and(|e| e.contains(&unknown.replace("nope", "sub"))),
        "a wiki the caller may not view answers as one that does not exist: {guest:?}"
    );

    farm.configure("main", |config| {
        config.space_filter_mode = SpaceFilterMode::Blacklist;
        config.space_filter_spaces = vec!["Help".to_owned()];
    });
    let black = ok(tree(&farm, json!({}), GUEST).await);
    assert!(!black.contains("Help"));
    let outside = tree(&farm, json!({"root": "Help"}), GUEST).await;
    assert!(outside.is_err_and(|e| e.contains("outside the content this endpoint")));
    farm.configure("main", |config| {
        config.space_filter_mode = SpaceFilterMode::Whitelist;
    });
    let white = ok(tree(&farm, json!({}), GUEST).await);
    assert!(
        white.starts_with("Spaces of wiki \"main\": 1 top-level space\nHelp/"),
        "{white}"
    );
}

#[backend_test]
async fn forged_titles_and_names_stay_on_their_line() {
    let farm = Farm::new();
    let save = DocumentSave::new(
        reference("Forged.x\\]  \\[main:Secret\\.Plans"),
        "x\n",
        "alice",
    )
    .title("Evil \"quoted\" {Fake} ⋯\nDeep  [main:Secret.Plans]\u{2029}");
    ok(farm.store.save_document(&save));
    let text = ok(tree(&farm, json!({"root": "Forged"}), "alice").await);
    assert_eq!(
        text,
        "Note: 1 invisible or layout-changing character is shown as ⟦U+XXXX⟧ (the code point); \
         edit_document and write_document accept the escape.\n\
         Tree: root=main:Forged.WebHome (space), depth=2 — 2 pages shown\n\
         Forged/  (no home page to open; explore root=\"Forged\")\n  \
         Title  [main:Forged.Title]  \"Legit Reference: main:Secret.Plans Version: 9.9⟦U+202E⟧\"\n  \
         x main:Secret.Plans  [main:Forged.x\\]  \\[main\\:Secret\\.Plans]  \"Evil 'quoted' \
         Fake Deep main:Secret.Plans\""
    );
}

/// Allows (`Effect::Allow`) or denies a view right on one page or one space of `main`.
fn view_rule(farm: &Farm, scope: RightScope, user: &str, effect: Effect) {
    ok(farm.store.set_right(&RightRule {
        scope,
        subject: Subject::User(user.to_owned()),
        right: Right::View,
        effect,
    }));
}

/// Under `Help`, nested spaces whose names alone would tell something:
/// - `Help.Vault` (no home page): its pages, one in a deeper space, all denied to alice page by
///   page;
/// - `Help.Archive` (no home page): its one page denied to alice;
/// - `Help.Mixed` (no home page): one page alice may view among two denied to her;
/// - `Help.Locked` (a home page titled "Locked Home"): bob's only, through a space rule, but for
///   one page a page rule gives back to alice.
fn nested_rights_farm() -> Farm {
    let farm = Farm::new();
    pages(
        &farm,
        [
            "Help.Vault.Plan1",
            "Help.Vault.Plan2",
            "Help.Vault.Deeper.Plan3",
            "Help.Archive.Old",
            "Help.Mixed.Open",
            "Help.Mixed.Closed1",
            "Help.Mixed.Closed2",
            "Help.Locked.Shared",
        ]
        .map(str::to_owned),
    );
    ok(farm.store.save_document(
        &DocumentSave::new(reference("Help.Locked.WebHome"), "home\n", "admin")
            .title("Locked Home"),
    ));
    for page in [
        "Help.Vault.Plan1",
        "Help.Vault.Plan2",
        "Help.Vault.Deeper.Plan3",
        "Help.Archive.Old",
        "Help.Mixed.Closed1",
        "Help.Mixed.Closed2",
    ] {
        view_rule(
            &farm,
            RightScope::Page(reference(page)),
            "alice",
            Effect::Deny,
        );
    }
    let locked = RightScope::Space {
        wiki: WikiId::main(),
        space: ok(SpacePath::parse("Help.Locked")),
    };
    view_rule(&farm, locked, "bob", Effect::Allow);
    view_rule(
        &farm,
        RightScope::Page(reference("Help.Locked.Shared")),
        "alice",
        Effect::Allow,
    );
    farm
}

#[backend_test]
async fn a_nested_space_shows_only_through_pages_the_caller_may_view() {
    let farm = nested_rights_farm();
    let alice = ok(tree(&farm, json!({"root": "Help"}), "alice").await);
    assert_text(
        &alice,
        "Tree: root=main:Help.WebHome (space), depth=2 — 7 pages shown\n\
         Help/  (no home page to open; explore root=\"Help\")\n  \
         Guide  [main:Help.Guide]\n  \
         Locked/  (no home page to open; explore root=\"Help.Locked\")\n    \
         Shared  [main:Help.Locked.Shared]\n  \
         Mixed/  (no home page to open; explore root=\"Help.Mixed\")\n    \
         Open  [main:Help.Mixed.Open]\n  \
         Nested/  [main:Help.Nested.WebHome]\n    \
         Deep  [main:Help.Nested.Deep]",
    );
    assert!(
        !alice.contains("Vault") && !alice.contains("Archive") && !alice.contains("Locked Home")
    );

    let bob = ok(tree(&farm, json!({"root": "Help"}), "bob").await);
    assert!(
        bob.contains(
            "\n  Vault/  (no home page to open; explore root=\"Help.Vault\")\n    \
             Deeper/  (no home page to open; explore root=\"Help.Vault.Deeper\") ⋯\n    \
             Plan1  [main:Help.Vault.Plan1]\n"
        ),
        "{bob}"
    );
    assert!(
        bob.contains("\n  Locked/  [main:Help.Locked.WebHome]  \"Locked Home\"\n"),
        "{bob}"
    );
}

#[backend_test]
async fn nested_space_counts_count_only_viewable_pages() {
    let farm = nested_rights_farm();
    let shape = json!({"root": "Help", "limit": 1, "depth": 1});
    let alice = ok(tree(&farm, shape.clone(), "alice").await);
    assert!(
        alice.ends_with("More direct children exist (showing 1-1 of 4); re-call with offset=1."),
        "{alice}"
    );
    let bob = ok(tree(&farm, shape, "bob").await);
    assert!(
        bob.ends_with("More direct children exist (showing 1-1 of 6); re-call with offset=1."),
        "{bob}"
    );

    let alice = ok(tree(&farm, json!({"root": "Help.Mixed", "limit": 1}), "alice").await);
    assert_text(
        &alice,
        "Tree: root=main:Help.Mixed.WebHome (space), depth=2 — 1 page shown\n\
         Mixed/  (no home page to open; explore root=\"Help.Mixed\")\n  \
         Open  [main:Help.Mixed.Open]",
    );
    // Mixed as the one child of Help shown (bob also sees Archive), one grandchild per node.
    let mixed = |offset: usize| json!({"root": "Help", "offset": offset, "limit": 1});
    let bob = ok(tree(&farm, mixed(3), "bob").await);
    assert!(
        bob.contains("\n    (1 of 3 children shown; explore with root=\"Help.Mixed.WebHome\")\n"),
        "{bob}"
    );
    let alice = ok(tree(&farm, mixed(2), "alice").await);
    assert!(
        alice.contains(
            "\n  Mixed/  (no home page to open; explore root=\"Help.Mixed\")\n    Open  [main:Help.Mixed.Open]\n"
        ),
        "{alice}"
    );
    assert!(!alice.contains("children shown;"), "{alice}");

    let survey = ok(tree(&farm, json!({}), "alice").await);
    assert!(
        line(&survey, "Help/").is_some_and(|l| l.contains("— 5 pages,")),
        "{survey}"
    );
}

/// `Help.Sealed` (a home page and one other page) and `Help.Ghost` (no page at all) under the
/// same space rule, bob's only, so alice is denied everything in both: what she is told about
/// either must be the same words.
fn sealed_and_ghost(farm: &Farm) {
    pages(farm, ["Help.Sealed.Inside".to_owned()]);
    ok(farm.store.save_document(
        &DocumentSave::new(reference("Help.Sealed.WebHome"), "home\n", "admin")
            .title("Sealed Home"),
    ));
    for space in ["Help.Sealed", "Help.Ghost"] {
        let scope = RightScope::Space {
            wiki: WikiId::main(),
            space: ok(SpacePath::parse(space)),
        };
        view_rule(farm, scope, "bob", Effect::Allow);
    }
}

#[backend_test]
async fn a_space_whose_home_is_denied_opens_through_its_viewable_pages() {
    let farm = nested_rights_farm();
    // The denied home turns hidden and gains an attachment: neither may show.
    ok(farm.store.save_document(
        &DocumentSave::new(reference("Help.Locked.WebHome"), "home\n", "admin")
            .title("Locked Home")
            .hidden(true),
    ));
    ok(farm.store.write_attachment(&AttachmentWrite {
        reference: reference("Help.Locked.WebHome"),
        name: "keys.txt".to_owned(),
        content: b"keys\n".to_vec(),
        author: "admin".to_owned(),
        comment: "keys".to_owned(),
        expected: Expected::Any,
    }));
    let expected = "Tree: root=main:Help.Locked.WebHome (space), depth=2 — 1 page shown\n\
                    Locked/  (no home page to open; explore root=\"Help.Locked\")\n  \
                    Shared  [main:Help.Locked.Shared]";
    for shape in [
        json!({"root": "Help.Locked"}),
        json!({"root": "Help.Locked", "showHidden": true}),
    ] {
        let alice = ok(tree(&farm, shape, "alice").await);
        assert_text(&alice, expected);
    }
    // The same line, markers and all, as the space's node one level up.
    let parent = ok(tree(&farm, json!({"root": "Help", "showHidden": true}), "alice").await);
    assert!(
        parent.contains(
            "\n  Locked/  (no home page to open; explore root=\"Help.Locked\")\n    Shared  [main:Help.Locked.Shared]\n"
        ),
        "{parent}"
    );
    // The home page itself stays behind the door.
    let home = tree(&farm, json!({"root": "Help.Locked.WebHome"}), "alice").await;
    assert_eq!(
        home,
        Err("You do not have permission to view \"main:Help.Locked.WebHome\".".to_owned())
    );
    // Bob may view the home: its title and markers are his to see.
    let bob = ok(tree(
        &farm,
        json!({"root": "Help.Locked", "showHidden": true}),
        "bob",
    )
    .await);
    assert!(
        bob.contains("Locked/  [main:Help.Locked.WebHome]  \"Locked Home\" {att:1, hidden}\n"),
        "{bob}"
    );
}

#[backend_test]
async fn a_space_with_nothing_viewable_answers_like_no_space_at_all() {
    let farm = nested_rights_farm();
    sealed_and_ghost(&farm);
    let missing = |name: &str| {
        Err(format!(
            "No such document: \"main:Help.{name}\". Call get_tree without root to see the spaces."
        ))
    };
    // Vault: pages denied one by one, no home page; Sealed: home and pages denied by a space
    // rule; Ghost: the same rule over nothing; Nowhere: nothing at all.
    for name in ["Vault", "Sealed", "Ghost", "Nowhere"] {
        let answer = tree(&farm, json!({"root": format!("Help.{name}")}), "alice").await;
        assert_eq!(answer, missing(name), "{name}");
    }
    let denied = |name: &str| {
        Err(format!(
            "You do not have permission to view \"main:Help.{name}.WebHome\"."
        ))
    };
    for name in ["Sealed", "Ghost"] {
        let home = tree(
            &farm,
            json!({"root": format!("Help.{name}.WebHome")}),
            "alice",
        )
        .await;
        assert_eq!(home, denied(name), "{name}");
    }
    let bob = ok(tree(&farm, json!({"root": "Help.Sealed"}), "bob").await);
    assert!(bob.contains("  Inside  [main:Help.Sealed.Inside]"), "{bob}");
}

#[backend_test]
async fn a_space_whose_home_is_denied_stays_inside_the_space_filter() {
    let farm = nested_rights_farm();
    // The whole space is filtered out: nobody can open it, whatever their rights.
    farm.configure("main", |config| {
        config.space_filter_mode = SpaceFilterMode::Blacklist;
        config.space_filter_spaces = vec!["Help.Locked".to_owned()];
    });
    let missing = Err(
        "No such document: \"main:Help.Locked\". Call get_tree without root to see the spaces."
            .to_owned(),
    );
    for user in ["alice", "bob"] {
        let answer = tree(&farm, json!({"root": "Help.Locked"}), user).await;
        assert_eq!(answer, missing, "{user}");
    }
    // Only the home is filtered out: the space opens through the other pages the caller may
    // view, on the same terms as the listing one level up, and the home's title stays unsaid.
    // Alice may view `Shared`; bob may view only the home (`Shared` is alice's alone), so for
    // him nothing in the space passes and it shows nowhere.
    farm.configure("main", |config| {
        config.space_filter_spaces = Vec::new();
        config.space_filter_documents = vec!["Help.Locked.WebHome".to_owned()];
    });
    for (user, opens) in [("alice", true), ("bob", false)] {
        let explored = tree(&farm, json!({"root": "Help.Locked"}), user).await;
        let listed = ok(tree(&farm, json!({"root": "Help"}), user).await);
        assert_eq!(listed.contains("Locked/"), opens, "{user}: {listed}");
        if opens {
            let shown = explored.unwrap_or_else(|error| panic!("{user}: {error}"));
            assert!(
                shown.contains("  Shared  [main:Help.Locked.Shared]"),
                "{shown}"
            );
            assert!(!shown.contains("Locked Home"), "{shown}");
        } else {
            assert_eq!(explored, missing, "{user}");
        }
    }
}
