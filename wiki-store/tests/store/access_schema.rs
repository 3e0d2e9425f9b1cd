//! Schema constraints of the access half, checked straight on the database file, and what
//! deleting a wiki takes with it.

use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::trash::DocumentDelete;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{DocumentStore, RightsStore, TrashStore, UserStore, WikiStore};

use crate::harness::store;

fn refused(conn: &rusqlite::Connection, sql: &str) -> bool {
    conn.execute(sql, []).is_err()
}

#[test]
fn the_schema_refuses_rows_the_code_never_writes() {
    let (dir, _store) = store();
    let conn = rusqlite::Connection::open(dir.path().join("data").join("wiki.db")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    let rule = |space: &str, page: &str, right: &str, effect: &str| {
        format!(
            "INSERT INTO rights (wiki, space, page, subject_kind, subject, right_name, effect) \
             VALUES ('main', '{space}', '{page}', 'user', 'alice', '{right}', '{effect}')"
        )
    };
    assert!(!refused(&conn, &rule("A", "P", "view", "allow")));
    assert!(
        refused(&conn, &rule("", "P", "view", "allow")),
        "a page rule needs its space"
    );
    assert!(
        refused(&conn, &rule("A", "", "read", "allow")),
        "unknown right"
    );
    assert!(
        refused(&conn, &rule("A", "", "view", "maybe")),
        "unknown effect"
    );
    assert!(refused(
        &conn,
        "INSERT INTO group_members VALUES ('nogroup', 'user', 'alice')"
    ));
    assert!(
        refused(
            &conn,
            "INSERT INTO api_tokens VALUES ('p', x'00', 'alice', '', 0)"
        ),
        "a digest is 32 bytes (and the user must exist)"
    );
    assert!(refused(
        &conn,
        "INSERT INTO objects (document_id, class, number) VALUES (999, 'C', 0)"
    ));
}

#[test]
fn deleting_a_wiki_takes_its_rights_and_bin_with_it() {
    let (_dir, store) = store();
    let dev = WikiId::new("dev").unwrap();
    store.create_wiki(&dev, "Dev").unwrap();
    store.create_user("alice", None).unwrap();
    let rule = RightRule {
        scope: RightScope::Wiki(dev.clone()),
        subject: Subject::User("alice".into()),
        right: Right::View,
        effect: Effect::Allow,
    };
    store.set_right(&rule).unwrap();
    let page = DocumentReference::parse("Space.Page", &dev).unwrap();
    store
        .save_document(&DocumentSave::new(page.clone(), "x", "alice"))
        .unwrap();
    store
        .delete_document(&DocumentDelete {
            reference: page,
            author: "alice".into(),
            comment: String::new(),
            expected: Expected::Any,
        })
        .unwrap();
    assert_eq!(store.trash(&dev).unwrap().len(), 1);
    store.delete_wiki(&dev).unwrap();
    assert!(store.list_rights(&dev).unwrap().is_empty());
    assert!(store.trash(&dev).unwrap().is_empty());
    assert!(store.rights_snapshot().unwrap().rules().next().is_none());
}
