//! `query_documents` through the real middleware: words and browsing, every filter, the paging
//! footers and their continuations, the limit clamp, the errors, and the security cases (denied
//! pages leave no countable trace, space filter, reach, hidden pages, FTS syntax, forged titles).

use serde_json::{Value, json};
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::document::DocumentSave;
use wiki_tool_sdk::store::model::mcp_config::SpaceFilterMode;

use crate::harness::{Farm, GUEST, assert_text, ok, reference};

/// What a search of several words that matched nothing adds: all of them must match, and where
/// to go for fewer or for meaning.
const EVERY_WORD: &str = ": every word must occur in a page. Try fewer words, or \
                          search_collections (when this endpoint offers it) to search by meaning.";

async fn query(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call("query_documents", arguments, user, "main").await
}

/// The `Reference:` values of a result, in order.
fn references(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("Reference: "))
        .map(str::to_owned)
        .collect()
}

/// `count` pages `Paging.P00`… whose content holds the word "zebra".
fn seed_zebras(farm: &Farm, count: usize) {
    let saves: Vec<DocumentSave> = (0..count)
        .map(|i| {
            DocumentSave::new(
                reference(&format!("Paging.P{i:02}")),
                format!("zebra number {i}\n"),
                "alice",
            )
            .title(format!("Zebra {i:02}"))
        })
        .collect();
    ok(farm.store.save_documents(&saves));
}

#[backend_test]
async fn a_search_prints_the_result_grammar_and_an_exact_footer() {
    let farm = Farm::new();
    let text = query(&farm, json!({"query": "place try"}), "alice").await;
    let text = text.unwrap_or_else(|error| panic!("{error}"));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Title: Sandbox");
    assert_eq!(lines[1], "Reference: main:Sandbox.WebHome");
    assert_eq!(lines[2], "Language: en");
    assert!(lines[3].starts_with("Modified: 20") && lines[3].ends_with("Z by alice"));
    assert_eq!(lines[4], "Rank: 1", "{text}");
    assert!(lines[5].starts_with("Snippet: ") && lines[5].contains("place to try"));
    assert_eq!(text.lines().last(), Some("Found 1 matching documents."));
}

#[backend_test]
async fn denied_pages_leave_no_countable_trace() {
    let farm = Farm::new();
    // (Forged.Title's title also names the secret page: the space keeps it out.)
    let arguments = json!({"query": "secret plan", "space": "Secret"});
    let bob = ok(query(&farm, arguments.clone(), "bob").await);
    assert_eq!(references(&bob), ["main:Secret.Plans"], "{bob}");
    for user in ["alice", GUEST] {
        let text = query(&farm, arguments.clone(), user).await;
        assert_eq!(
            text,
            Ok(format!(
                "No documents found matching \"secret plan\"{EVERY_WORD} Active filters: \
                 space=Secret."
            ))
        );
    }
    // Browsing: bob's total is alice's plus exactly the Secret page, and nobody else sees it.
    let total = |text: &str| {
        text.lines()
            .last()
            .and_then(|line| line.strip_prefix("Found "))
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
    };
    let alice = ok(query(&farm, json!({"limit": 25}), "alice").await);
    let bob = ok(query(&farm, json!({"limit": 25}), "bob").await);
    assert_eq!(total(&bob), total(&alice).map(|n| n + 1));
    assert!(
        !references(&alice)
            .iter()
            .any(|r| r.starts_with("main:Secret."))
    );
    assert!(bob.contains("main:Secret.Plans"));
}

/// `count` pages `Secret.Z0000`… (only bob may view space Secret) holding `words`.
fn seed_secret(farm: &Farm, count: usize, words: &str) {
    let saves: Vec<DocumentSave> = (0..count)
        .map(|i| DocumentSave::new(reference(&format!("Secret.Z{i:04}")), words, "bob"))
        .collect();
    ok(farm.store.save_documents(&saves));
}

/// Regression: the printed bm25 score was computed over the whole index, so adding
/// pages alice cannot view that hold a word moved her scores (14.124 -> 9.105 in the audit): an
/// oracle for how many invisible documents contain any word. Her answer must not change at all.
#[backend_test]
async fn hidden_documents_do_not_move_what_a_search_prints() {
    let farm = Farm::new();
    seed_zebras(&farm, 3);
    let arguments = json!({"query": "zebra number"});
    let before = ok(query(&farm, arguments.clone(), "alice").await);
    assert!(
        before.contains("\nRank: 1\n") && before.contains("\nRank: 3\n"),
        "{before}"
    );
    seed_secret(&farm, 20, "zebra zebra number");
    let after = ok(query(&farm, arguments.clone(), "alice").await);
    assert_text(&after, &before);
    let bob = ok(query(&farm, arguments, "bob").await);
    assert!(
        bob.ends_with(
            "Found 23 matching documents. Showing 10 from offset 0. Continue with offset=10."
        ),
        "{bob}"
    );
}

/// Regression: the scan window was filled before authorization: with more invisible
/// matches than the 2000 examined, alice was told "Found at least 1 ... only the first 2000
/// examined" (an oracle) and her own documents vanished from browse and title sort.
#[backend_test]
async fn invisible_matches_neither_crowd_out_visible_ones_nor_mark_the_total() {
    let farm = Farm::new();
    seed_secret(&farm, 2100, "zebra");
    seed_zebras(&farm, 3);
    for arguments in [
        json!({"query": "zebra"}),
        json!({"query": "zebra", "sort": "title"}),
        json!({"query": "zebra", "sort": "oldest"}),
    ] {
        let alice = ok(query(&farm, arguments.clone(), "alice").await);
        assert_eq!(
            references(&alice),
            ["main:Paging.P00", "main:Paging.P01", "main:Paging.P02"],
            "{arguments}: {alice}"
        );
        assert!(
            alice.ends_with("\nFound 3 matching documents."),
            "{arguments}: {alice}"
        );
    }
    let browse = ok(query(&farm, json!({"sort": "title", "limit": 25}), "alice").await);
    assert!(browse.contains("main:Paging.P00"), "{browse}");
    assert!(!browse.contains("at least"), "{browse}");
    let bob = ok(query(&farm, json!({"query": "zebra"}), "bob").await);
    assert!(
        bob.ends_with(
            "Found at least 2000 matching documents. Showing 10 from offset 0. Continue with \
             offset=10. Counting stopped after 2000 matches (at most 2000 are counted per call): \
             narrow the query or add filters to reach the rest."
        ),
        "{bob}"
    );
}

#[backend_test]
async fn paging_continuations_really_continue() {
    let farm = Farm::new();
    seed_zebras(&farm, 30);
    let first = ok(query(&farm, json!({"query": "zebra"}), "alice").await);
    assert!(first.ends_with(
        "Found 30 matching documents. Showing 10 from offset 0. Continue with offset=10."
    ));
    let second = ok(query(&farm, json!({"query": "zebra", "offset": 10}), "alice").await);
    assert!(second.ends_with(
        "Found 30 matching documents. Showing 10 from offset 10. Continue with offset=20."
    ));
    let third = ok(query(&farm, json!({"query": "zebra", "offset": 20}), "alice").await);
    assert!(third.ends_with("Found 30 matching documents. Showing 10 from offset 20."));
    let mut all: Vec<String> = [&first, &second, &third]
        .iter()
        .flat_map(|text| references(text))
        .collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 30, "three pages cover every result once");

    let past = query(&farm, json!({"query": "zebra", "offset": 30}), "alice").await;
    assert_eq!(
        past,
        Err(
            "Error: 'offset' 30 is past the last result (30 matching documents). Use an offset \
             below 30."
                .to_owned()
        )
    );
    let negative = query(&farm, json!({"query": "zebra", "offset": -1}), "alice").await;
    assert_eq!(
        negative,
        Err("Error: 'offset' must be 0 or more (got -1).".to_owned())
    );
}

#[backend_test]
async fn limit_is_capped_at_25_with_a_note_and_0_is_refused() {
    let farm = Farm::new();
    seed_zebras(&farm, 30);
    let capped = ok(query(&farm, json!({"query": "zebra", "limit": 100}), "alice").await);
    assert_eq!(references(&capped).len(), 25);
    assert!(capped.ends_with(
        "Showing 25 from offset 0. Continue with offset=25. Note: 'limit' was capped to 25."
    ));
    let zero = query(&farm, json!({"query": "zebra", "limit": 0}), "alice").await;
    assert!(
        zero.as_ref()
            .is_err_and(|e| e.starts_with("Error: 'limit' must be at least 1 (got 0)")),
        "a limit of 0 asks for nothing: {zero:?}"
    );
    let wrong = query(&farm, json!({"limit": 2.5}), "alice").await;
    assert_eq!(wrong, Err("Error: 'limit' must be an integer.".to_owned()));
}

#[backend_test]
async fn filters_space_author_locale_and_hidden() {
    let farm = Farm::new();
    let help = ok(query(&farm, json!({"space": "Help"}), "alice").await);
    let mut found = references(&help);
    found.sort();
    assert_eq!(
        found,
        [
            "main:Help.Guide",
            "main:Help.Guide",
            "main:Help.Nested.Deep",
            "main:Help.Nested.WebHome"
        ],
        "nested spaces included, and the fr translation is a row of its own"
    );
    for author in ["bob", "XWiki.bob"] {
        let by_bob = ok(query(&farm, json!({"author": author}), "alice").await);
        assert_eq!(references(&by_bob), ["main:Sandbox.Notes"], "{author}");
    }
    let french = ok(query(&farm, json!({"locale": "fr"}), "alice").await);
    assert!(french.contains("Reference: main:Help.Guide\nLanguage: fr (translation)"));
    assert_eq!(references(&french).len(), 1);
    let bad_locale = query(&farm, json!({"locale": "french"}), "alice").await;
    assert!(bad_locale.is_err_and(|e| e.starts_with("Error: 'locale' must be a locale")));
    let bad_space = query(&farm, json!({"space": "a..b"}), "alice").await;
    assert!(bad_space.is_err_and(|e| e.starts_with("Error: 'space' must be a space name")));

    let hidden = |text: &str| text.contains("main:Hidden.Config");
    let without = ok(query(&farm, json!({"query": "hidden things"}), "admin").await);
    assert_eq!(
        without,
        format!("No documents found matching \"hidden things\"{EVERY_WORD}")
    );
    let with = ok(query(
        &farm,
        json!({"query": "hidden things", "includeHidden": true}),
        "admin",
    )
    .await);
    assert!(hidden(&with));
}

#[backend_test]
async fn dates_within_and_strict_ranges() {
    let farm = Farm::new();
    let recent = ok(query(&farm, json!({"modifiedWithin": "day"}), "alice").await);
    assert!(recent.contains("main:Sandbox.WebHome"));
    let both = query(
        &farm,
        json!({"query": "sandbox", "modifiedRange": "[* TO 2000-01-01T00:00:00Z]", "modifiedWithin": "day"}),
        "alice",
    )
    .await;
    assert!(
        both.as_ref().is_err_and(
            |e| e.starts_with("Error: give 'modifiedWithin' or 'modifiedRange', not both")
        ),
        "{both:?}"
    );
    let old = ok(query(
        &farm,
        json!({"query": "sandbox", "modifiedRange": "[* TO 2000-01-01T00:00:00Z]"}),
        "alice",
    )
    .await);
    assert_eq!(
        old,
        "No documents found matching \"sandbox\". Active filters: \
         modifiedRange=[* TO 2000-01-01T00:00:00Z]."
    );
    let open = ok(query(
        &farm,
        json!({"modifiedRange": "[NOW-1DAY/DAY TO *]"}),
        "alice",
    )
    .await);
    assert!(open.contains("main:Sandbox.WebHome"));
    for injection in [
        "[* TO NOW] OR hidden:true",
        "[NOW-7DAYS TO NOW] [* TO *]",
        "NOW-7DAYS",
        "[2026-01-01 TO *]",
    ] {
        let refused = query(&farm, json!({"modifiedRange": injection}), "alice").await;
        assert!(
            refused.is_err_and(|e| e.starts_with(
                "Error: 'modifiedRange' must be exactly one range such as \"[NOW-7DAYS TO NOW]\""
            )),
            "{injection}"
        );
    }
    let reversed = query(
        &farm,
        json!({"modifiedRange": "[NOW TO NOW-1DAY]"}),
        "alice",
    )
    .await;
    assert!(reversed.is_err_and(|e| e.starts_with("Error: 'modifiedRange' starts after it ends")));
    let within = query(&farm, json!({"modifiedWithin": "decade"}), "alice").await;
    assert_eq!(
        within,
        Err(
            "Error: 'modifiedWithin' must be one of: day, week, month, year (got \"decade\")."
                .to_owned()
        )
    );
}

#[backend_test]
async fn browsing_defaults_to_newest_and_sorts_on_request() {
    let farm = Farm::new();
    farm.save("Sandbox.Latest", "the newest page\n", "new");
    let newest = ok(query(&farm, json!({}), "alice").await);
    assert_eq!(
        references(&newest).first().map(String::as_str),
        Some("main:Sandbox.Latest")
    );
    assert!(
        !newest.contains("\nRank: "),
        "no rank outside relevance order"
    );
    let oldest = ok(query(&farm, json!({"sort": "oldest", "limit": 25}), "alice").await);
    let mut newest_all = references(&ok(query(&farm, json!({"limit": 25}), "alice").await));
    newest_all.reverse();
    assert_eq!(references(&oldest), newest_all);
    let by_title = ok(query(&farm, json!({"sort": "title", "space": "Help"}), "alice").await);
    let titles: Vec<&str> = by_title
        .lines()
        .filter_map(|line| line.strip_prefix("Title: "))
        .collect();
    assert_eq!(titles, ["Deep", "Guide", "Guide (fr)", "Nested"]);
    let bogus = query(&farm, json!({"sort": "random"}), "alice").await;
    assert!(bogus.is_err_and(|e| e.contains("relevance, newest, oldest, title")));
}

#[backend_test]
async fn wiki_scope_needs_reach_and_all_spans_the_farm() {
    let farm = Farm::new();
    let sub = ok(query(&farm, json!({"query": "ship", "wiki": "sub"}), "alice").await);
    assert_eq!(references(&sub), ["sub:Team.Roadmap"]);
    let all = ok(query(&farm, json!({"wiki": "ALL", "limit": 25}), "alice").await);
    assert!(all.contains("sub:Team.WebHome") && all.contains("main:Sandbox.WebHome"));
    let unknown = query(&farm, json!({"wiki": "nowhere"}), "alice").await;
    assert!(unknown.is_err_and(|e| e.contains("does not exist") && e.contains("list_wikis")));
    for wiki in ["main", "all"] {
        let refused = farm
            .call("query_documents", json!({"wiki": wiki}), "alice", "sub")
            .await;
        assert!(
            refused.is_err_and(|e| e.contains("cross-wiki reach is not enabled")),
            "{wiki}"
        );
    }
    let own = ok(farm
        .call("query_documents", json!({"query": "Q1"}), "alice", "sub")
        .await);
    assert_eq!(references(&own), ["sub:Team.Roadmap"], "{own}");
}

#[backend_test]
async fn a_wiki_the_caller_may_not_view_answers_as_an_unknown_one() {
    use wiki_tool_sdk::store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
    let farm = Farm::new();
    ok(farm.store.set_right(&RightRule {
        scope: RightScope::Wiki(crate::harness::wiki("sub")),
        subject: Subject::User("alice".to_owned()),
        right: Right::View,
        effect: Effect::Deny,
    }));
    let hidden = query(&farm, json!({"query": "ship", "wiki": "sub"}), "alice").await;
    let unknown = query(&farm, json!({"query": "ship", "wiki": "nowhere"}), "alice").await;
    assert_eq!(
        hidden.map_err(|e| e.replace("\"sub\"", "\"nowhere\"")),
        unknown,
        "the same refusal, with the name the caller gave"
    );
}

#[backend_test]
async fn the_space_filter_applies_in_both_modes() {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.space_filter_mode = SpaceFilterMode::Whitelist;
        config.space_filter_spaces = vec!["Help".to_owned()];
    });
    let white = ok(query(&farm, json!({"limit": 25}), "alice").await);
    assert!(
        references(&white)
            .iter()
            .all(|r| r.starts_with("main:Help."))
    );
    assert!(white.ends_with("Found 4 matching documents."));
    farm.configure("main", |config| {
        config.space_filter_mode = SpaceFilterMode::Blacklist;
    });
    let black = ok(query(&farm, json!({"limit": 25}), "alice").await);
    assert!(!references(&black).is_empty());
    assert!(
        references(&black)
            .iter()
            .all(|r| !r.starts_with("main:Help."))
    );
}

#[backend_test]
async fn search_syntax_in_queries_is_harmless() {
    let farm = Farm::new();
    for hostile in [
        "NEAR(secret plan) OR *",
        "title:* OR hidden:true",
        "\"unbalanced",
        "secret) OR (1=1",
        "* ( ) : ^",
    ] {
        let text = query(&farm, json!({"query": hostile}), "alice").await;
        assert!(
            text.as_deref()
                .is_ok_and(|t| t.starts_with("No documents found matching")),
            "{hostile}: {text:?}"
        );
    }
}

#[backend_test]
async fn forged_titles_and_queries_cannot_forge_lines() {
    let farm = Farm::new();
    let text = ok(query(&farm, json!({"query": "forged title"}), "alice").await);
    assert_eq!(references(&text), ["main:Forged.Title"]);
    assert!(
        text.contains("Title: LegitReference: main:Secret.Plans⟦U+2028⟧Version: 9.9⟦U+202E⟧\n")
    );
    assert!(!text.contains('\u{2028}') && !text.contains('\u{202E}'));
    let echoed = ok(query(
        &farm,
        json!({"query": "nothing\nFound 99 matching documents."}),
        "alice",
    )
    .await);
    assert_eq!(echoed.lines().count(), 1);
    let snippet = ok(query(&farm, json!({"query": "second"}), "alice").await);
    assert!(
        !snippet.contains("line\nsecond"),
        "snippets stay on one line"
    );
}

#[backend_test(only = "sqlite")]
fn the_wiki_parameter_is_advertised_only_with_reach() {
    let registry = ok(wiki_server::registry());
    for id in ["query_documents", "get_tree", "get_links"] {
        let tool = registry
            .get(id)
            .unwrap_or_else(|| panic!("{id} is registered"));
        let has_wiki = |reach: bool| {
            let definition = ok(tool.definition(wiki_server::schema_variant(reach)));
            definition
                .input_schema
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|properties| properties.contains_key("wiki"))
        };
        assert!(has_wiki(true), "{id} with reach");
        assert!(!has_wiki(false), "{id} without reach");
    }
}

/// Regression: `space="sub:Team"` and `author="main:XWiki.alice"` matched nothing,
/// silently. A space's wiki prefix selects that wiki (reach permitting); a user reference's
/// prefixes are dropped (users are farm-wide).
#[backend_test]
async fn prefixed_spaces_and_authors_are_honoured() {
    let farm = Farm::new();
    let prefixed = ok(query(
        &farm,
        json!({"query": "ship", "space": "sub:Team"}),
        "alice",
    )
    .await);
    assert_eq!(references(&prefixed), ["sub:Team.Roadmap"], "{prefixed}");
    let same = query(
        &farm,
        json!({"query": "ship", "space": "sub:Team", "wiki": "sub"}),
        "alice",
    )
    .await;
    assert_eq!(
        same.as_deref().map(references),
        Ok(vec!["sub:Team.Roadmap".to_owned()])
    );
    assert_eq!(
        query(&farm, json!({"space": "sub:Team", "wiki": "main"}), "alice").await,
        Err(
            "Error: 'space' names wiki \"sub\" but 'wiki' is \"main\": drop the prefix from \
             space or the wiki argument."
                .to_owned()
        )
    );
    let no_reach = farm
        .call(
            "query_documents",
            json!({"space": "main:Sandbox"}),
            "alice",
            "sub",
        )
        .await;
    assert!(
        no_reach
            .as_ref()
            .is_err_and(|e| e.contains("cross-wiki reach is not enabled")),
        "{no_reach:?}"
    );

    let plain = ok(query(
        &farm,
        json!({"author": "alice", "space": "Sandbox"}),
        "alice",
    )
    .await);
    assert!(!references(&plain).is_empty(), "{plain}");
    for author in ["main:XWiki.alice", "XWiki.alice", "sub:alice"] {
        let prefixed = ok(query(
            &farm,
            json!({"author": author, "space": "Sandbox"}),
            "alice",
        )
        .await);
        assert_eq!(references(&prefixed), references(&plain), "{author}");
    }
}
