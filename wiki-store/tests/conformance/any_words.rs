//! Full-text search in any-word mode (`WordMatch::Any`): one word is enough, more of the words
//! rank higher, English function words do not match, and every word is still a plain
//! term, never syntax.

use wiki_store::model::search::{SearchQuery, WordMatch};
use wiki_store::testing::backend_test;

use crate::harness::{Fixture, put};
use crate::search::{refs, search, text};

fn any(words: &str) -> SearchQuery {
    let mut query = text(words);
    query.words = WordMatch::Any;
    query
}

#[backend_test]
fn one_word_is_enough_and_more_words_rank_higher(db: &Fixture) {
    let store = db.store();
    put(
        &*store,
        "A.Both",
        "",
        "install the server on a linux machine",
    );
    put(&*store, "A.One", "", "the server room is cold");
    put(&*store, "A.None", "", "quarterly budget figures");
    let results = search(&*store, &any("how do I install the server"));
    assert_eq!(refs(&results), ["A.Both", "A.One"], "{results:?}");
    assert_eq!(
        results.terms,
        ["install", "server"],
        "the function words are left out"
    );
    let all = text("how do I install the server");
    assert_eq!(
        search(&*store, &all).total,
        0,
        "the default mode still requires every word"
    );
}

#[backend_test]
fn function_words_do_not_match_every_page(db: &Fixture) {
    let store = db.store();
    put(
        &*store,
        "F.Setup",
        "",
        "the setup of the wiki is described here",
    );
    put(&*store, "F.Other", "", "the weather is fine in the valley");
    assert_eq!(
        refs(&search(&*store, &any("what is the setup"))),
        ["F.Setup"],
        "\"the\" and \"is\" are in both pages but only \"setup\" counts"
    );
    // A question of function words alone is searched as written.
    let results = search(&*store, &any("the"));
    assert_eq!(results.total, 2, "{results:?}");
}

#[backend_test]
fn syntax_is_still_plain_words(db: &Fixture) {
    let store = db.store();
    put(&*store, "S.Plain", "", "cats and dogs near the river");
    put(&*store, "S.Other", "", "unrelated text");
    for query in [
        "\"cats",
        "NEAR(cats dogs)",
        "cats*",
        "title:cats",
        "OR NOT",
        "cats:dogs",
        "'cats' | !dogs",
        "cats <-> dogs",
        "(",
        "cats\u{0}dogs",
    ] {
        let results = store.search(&any(query), &mut |_| true);
        assert!(results.is_ok(), "{query:?}: {results:?}");
    }
    assert_eq!(refs(&search(&*store, &any("NOT cats"))), ["S.Plain"]);
    // A column filter is not interpreted: "title:cats" is one word (a phrase), not in a title.
    assert_eq!(search(&*store, &any("title:cats")).total, 0);
    assert_eq!(search(&*store, &any("ca* zzz")).total, 0);
    assert_eq!(refs(&search(&*store, &any("giraffes river"))), ["S.Plain"]);
}

#[backend_test]
fn snippets_mark_whichever_words_matched(db: &Fixture) {
    let store = db.store();
    put(
        &*store,
        "N.Page",
        "",
        "Backups run nightly. The restore procedure is documented below.",
    );
    let results = search(&*store, &any("how to restore a deleted page"));
    let hit = results.hits.first().expect("a hit");
    let marked: Vec<&str> = hit
        .snippet
        .highlights
        .iter()
        .map(|range| &hit.snippet.text[range.clone()])
        .collect();
    assert!(marked.contains(&"restore"), "{:?}", hit.snippet);
}
