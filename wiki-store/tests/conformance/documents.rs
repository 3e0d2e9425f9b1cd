//! Saving and reading documents, versions, translations, history and diffs.

use wiki_store::model::document::{DocumentSave, Expected, MARKDOWN_SYNTAX, SaveOutcome};
use wiki_store::model::history::DiffLineKind;
use wiki_store::model::locale::Locale;
use wiki_store::model::wiki::WikiId;
use wiki_store::testing::backend_test;
use wiki_store::{Entity, Field, InvalidInput, Limits, StoreConfig, StoreError};

use crate::harness::{Fixture, put, reference, v};

#[backend_test]
fn creation_is_1_1_then_minor_by_default_and_major_on_request(db: &Fixture) {
    let store = db.store();
    let r = reference("Sandbox.Test");
    let save = DocumentSave::new(r.clone(), "one", "alice")
        .title("Test")
        .comment("created");
    assert_eq!(
        store.save_document(&save).unwrap(),
        SaveOutcome::Created { version: v("1.1") }
    );
    let second = DocumentSave::new(r.clone(), "two", "bob");
    assert_eq!(
        store.save_document(&second).unwrap(),
        SaveOutcome::Updated {
            previous: v("1.1"),
            version: v("1.2")
        }
    );
    let third = DocumentSave::new(r.clone(), "three", "carol").major(true);
    assert_eq!(store.save_document(&third).unwrap().version(), v("2.1"));

    let doc = store.document(&r, None).unwrap().unwrap();
    assert_eq!(doc.title, "Test", "an absent title keeps the current one");
    assert_eq!(doc.content, "three");
    assert_eq!(doc.syntax, MARKDOWN_SYNTAX);
    assert_eq!(doc.creator, "alice");
    assert_eq!(doc.author, "carol");
    assert_eq!(doc.version, v("2.1"));
    assert_eq!(doc.default_locale.as_str(), "en");
    assert!(doc.created <= doc.updated);
}

#[backend_test]
fn an_unchanged_save_writes_nothing(db: &Fixture) {
    let store = db.store();
    put(&*store, "A.B", "Title", "body");
    let again = DocumentSave::new(reference("A.B"), "body", "bob").title("Title");
    assert_eq!(
        store.save_document(&again).unwrap(),
        SaveOutcome::Unchanged { version: v("1.1") }
    );
    let history = store
        .history(&reference("A.B"), None, 0, 10)
        .unwrap()
        .unwrap();
    assert_eq!(history.total, 1);
    let retitled = DocumentSave::new(reference("A.B"), "body", "bob").title("New title");
    assert_eq!(store.save_document(&retitled).unwrap().version(), v("1.2"));
}

#[backend_test]
fn every_revision_keeps_its_full_content_and_metadata(db: &Fixture) {
    let store = db.store();
    let r = reference("Notes.Daily");
    for (i, text) in ["first\n", "first\nsecond\n", "second\nthird\n"]
        .iter()
        .enumerate()
    {
        let save =
            DocumentSave::new(r.clone(), *text, format!("user{i}")).comment(format!("edit {i}"));
        store.save_document(&save).unwrap();
    }
    let page = store.history(&r, None, 0, 2).unwrap().unwrap();
    assert_eq!(page.current, v("1.3"));
    assert_eq!(page.total, 3);
    let listed: Vec<String> = page
        .revisions
        .iter()
        .map(|r| format!("{} {} {}", r.version, r.author, r.comment))
        .collect();
    assert_eq!(listed, ["1.3 user2 edit 2", "1.2 user1 edit 1"]);
    let rest = store.history(&r, None, 2, 10).unwrap().unwrap();
    assert_eq!(rest.revisions.len(), 1);
    assert_eq!(rest.revisions[0].version, v("1.1"));

    let old = store.revision(&r, None, v("1.2")).unwrap().unwrap();
    assert_eq!(old.content, "first\nsecond\n");
    assert_eq!(old.info.author, "user1");
    assert_eq!(store.revision(&r, None, v("1.9")).unwrap(), None);
    assert_eq!(
        store
            .history(&reference("Notes.Missing"), None, 0, 10)
            .unwrap(),
        None
    );
}

#[backend_test]
fn diff_between_any_two_revisions_is_unified(db: &Fixture) {
    let store = db.store();
    let r = reference("Notes.Diff");
    let base: String = (1..=20).map(|i| format!("line {i}\n")).collect();
    store
        .save_document(&DocumentSave::new(r.clone(), base.clone(), "a").title("Old"))
        .unwrap();
    let changed = base.replace("line 10\n", "line ten\n");
    store
        .save_document(&DocumentSave::new(r.clone(), changed, "a").title("New"))
        .unwrap();

    let diff = store.diff(&r, None, v("1.1"), v("1.2")).unwrap();
    assert_eq!(
        diff.title_change,
        Some(("Old".to_owned(), "New".to_owned()))
    );
    assert_eq!(diff.hunks.len(), 1);
    let hunk = &diff.hunks[0];
    assert_eq!(hunk.header, "@@ -7,7 +7,7 @@");
    let text = hunk.to_string();
    assert!(text.contains("-line 10\n+line ten\n"), "{text}");
    assert_eq!(
        hunk.lines
            .iter()
            .filter(|l| l.kind == DiffLineKind::Context)
            .count(),
        6
    );

    let same = store.diff(&r, None, v("1.2"), v("1.2")).unwrap();
    assert!(same.hunks.is_empty());
    let err = store.diff(&r, None, v("1.1"), v("3.1")).unwrap_err();
    assert!(
        matches!(err, StoreError::NotFound { entity: Entity::Revision, ref key } if key == "3.1"),
        "{err:?}"
    );
}

#[backend_test]
fn base_version_is_a_compare_and_set(db: &Fixture) {
    let store = db.store();
    let r = reference("Cas.Page");
    let create = DocumentSave::new(r.clone(), "x", "a").expected(Expected::Absent);
    store.save_document(&create).unwrap();
    let err = store.save_document(&create).unwrap_err();
    assert!(
        matches!(err, StoreError::VersionConflict { expected: None, actual: Some(a) } if a == v("1.1")),
        "{err:?}"
    );

    let stale = DocumentSave::new(r.clone(), "y", "a").expected(Expected::Version(v("1.2")));
    let err = store.save_document(&stale).unwrap_err();
    assert!(
        matches!(err, StoreError::VersionConflict { expected: Some(e), actual: Some(a) } if e == v("1.2") && a == v("1.1")),
        "{err:?}"
    );
    let fresh = DocumentSave::new(r.clone(), "y", "a").expected(Expected::Version(v("1.1")));
    assert_eq!(store.save_document(&fresh).unwrap().version(), v("1.2"));

    let missing =
        DocumentSave::new(reference("Cas.Missing"), "z", "a").expected(Expected::Version(v("1.1")));
    let err = store.save_document(&missing).unwrap_err();
    assert!(
        matches!(err, StoreError::VersionConflict { actual: None, .. }),
        "{err:?}"
    );
    assert_eq!(
        store.document(&reference("Cas.Missing"), None).unwrap(),
        None
    );
}

#[backend_test]
fn translations_are_exact_match_rows_with_their_own_history(db: &Fixture) {
    let store = db.store();
    let r = reference("Docs.Guide");
    let fr = Locale::parse("fr").unwrap();
    let de = Locale::parse("de").unwrap();
    let en = Locale::parse("en").unwrap();

    let orphan = DocumentSave::new(r.clone(), "Bonjour", "a").locale(fr.clone());
    let err = store.save_document(&orphan).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Invalid(InvalidInput::TranslationWithoutDefault)
        ),
        "{err:?}"
    );

    put(&*store, "Docs.Guide", "Guide", "Hello");
    store
        .save_document(&DocumentSave::new(r.clone(), "Hello again", "a"))
        .unwrap();
    let created = store
        .save_document(&orphan.clone().title("Guide FR"))
        .unwrap();
    assert_eq!(
        created,
        SaveOutcome::Created { version: v("1.1") },
        "a translation starts its own history"
    );

    let french = store.document(&r, Some(&fr)).unwrap().unwrap();
    assert_eq!(french.locale, Some(fr.clone()));
    assert_eq!(french.content, "Bonjour");
    assert_eq!(french.default_locale, en);
    let default = store.document(&r, Some(&en)).unwrap().unwrap();
    assert_eq!(
        default.locale, None,
        "the default language addresses the default row"
    );
    assert_eq!(default.version, v("1.2"));
    assert_eq!(default.translations, vec![fr.clone()]);
    assert_eq!(
        store.document(&r, Some(&de)).unwrap(),
        None,
        "no fallback to the default row"
    );

    // Saving with the default language updates the default row.
    let via_en = DocumentSave::new(r.clone(), "Hello, en", "a").locale(en.clone());
    assert_eq!(store.save_document(&via_en).unwrap().version(), v("1.3"));
    assert_eq!(
        store.history(&r, Some(&fr), 0, 10).unwrap().unwrap().total,
        1
    );
    assert_eq!(store.history(&r, None, 0, 10).unwrap().unwrap().total, 3);

    let locales = store.document_locales(&r).unwrap().unwrap();
    assert_eq!(locales.default_locale, en);
    assert_eq!(locales.translations, vec![fr.clone()]);

    // With several translations each read gets its own row, and every read lists them all.
    let es = Locale::parse("es").unwrap();
    store
        .save_document(&DocumentSave::new(r.clone(), "Hola", "a").locale(es.clone()))
        .unwrap();
    for (locale, content) in [(&es, "Hola"), (&fr, "Bonjour")] {
        let read = store.document(&r, Some(locale)).unwrap().unwrap();
        assert_eq!(read.content, content);
        assert_eq!(read.translations, vec![es.clone(), fr.clone()]);
    }
    let default = store.document(&r, None).unwrap().unwrap();
    assert_eq!(default.content, "Hello, en");
    assert_eq!(default.translations, vec![es.clone(), fr.clone()]);
    assert_eq!(store.document(&r, Some(&de)).unwrap(), None);
}

#[backend_test]
fn bad_input_is_refused_before_anything_is_written(db: &Fixture) {
    let limits = Limits {
        max_content_chars: 10,
        max_title_chars: 5,
        ..Limits::default()
    };
    let store = db.open_with(StoreConfig {
        limits,
        ..StoreConfig::default()
    });
    let r = reference("Limits.Page");
    type Check = fn(&StoreError) -> bool;
    let cases: Vec<(DocumentSave, Check)> = vec![
        (
            DocumentSave::new(r.clone(), "ééééééééééé", "a"),
            |e| {
                matches!(
                    e,
                    StoreError::TooLarge {
                        field: Field::Content,
                        limit: 10,
                        actual: 11
                    }
                )
            },
        ),
        (
            DocumentSave::new(r.clone(), "ok", "a").title("toolong"),
            |e| {
                matches!(
                    e,
                    StoreError::TooLarge {
                        field: Field::Title,
                        ..
                    }
                )
            },
        ),
        (DocumentSave::new(r.clone(), "nul\0", "a"), |e| {
            matches!(
                e,
                StoreError::Invalid(InvalidInput::NulCharacter(Field::Content))
            )
        }),
        (DocumentSave::new(r.clone(), "ok", "  "), |e| {
            matches!(e, StoreError::Invalid(InvalidInput::EmptyAuthor))
        }),
        (
            DocumentSave {
                syntax: Some("markdown".into()),
                ..DocumentSave::new(r.clone(), "ok", "a")
            },
            |e| matches!(e, StoreError::Invalid(InvalidInput::SyntaxId)),
        ),
        (
            DocumentSave::new(reference("nowhere:Space.Page"), "ok", "a"),
            |e| {
                matches!(
                    e,
                    StoreError::NotFound {
                        entity: Entity::Wiki,
                        ..
                    }
                )
            },
        ),
    ];
    for (save, expected) in cases {
        let err = store.save_document(&save).unwrap_err();
        assert!(expected(&err), "{err:?}");
    }
    assert_eq!(store.document(&r, None).unwrap(), None);
    assert_eq!(
        wiki_store::ChangeFeed::change_seq(&*store).unwrap(),
        0,
        "nothing was written"
    );

    // A batch with one bad save writes none of it.
    let batch = [
        DocumentSave::new(r.clone(), "ok", "a"),
        DocumentSave::new(reference("Limits.Other"), "x".repeat(11), "a"),
    ];
    assert!(store.save_documents(&batch).is_err());
    assert_eq!(store.document(&r, None).unwrap(), None);
    let _ = WikiId::main();
}

#[backend_test]
fn a_failing_batch_rolls_back_the_saves_before_it(db: &Fixture) {
    let store = db.store();
    let batch = [
        DocumentSave::new(reference("Batch.One"), "one", "a"),
        DocumentSave::new(reference("Batch.One"), "again", "a").expected(Expected::Absent),
    ];
    let err = store.save_documents(&batch).unwrap_err();
    assert!(matches!(err, StoreError::VersionConflict { .. }), "{err:?}");
    assert_eq!(store.document(&reference("Batch.One"), None).unwrap(), None);
}

#[backend_test]
fn documents_survive_reopening(db: &Fixture) {
    {
        let store = db.reopen();
        put(&*store, "Keep.Me", "Kept", "content");
    }
    let store = db.reopen();
    assert_eq!(
        store
            .document(&reference("Keep.Me"), None)
            .unwrap()
            .unwrap()
            .title,
        "Kept"
    );
}
