//! The farm of wikis: the main wiki always exists, sub-wikis come and go with everything in them.

use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::trash::DocumentDelete;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::testing::backend_test;
use wiki_store::{Entity, InvalidInput, StoreError};

use crate::harness::Fixture;

#[backend_test]
fn the_main_wiki_exists_and_cannot_be_deleted(db: &Fixture) {
    let store = db.store();
    let wikis = store.list_wikis().unwrap();
    assert_eq!(wikis.len(), 1);
    assert!(wikis[0].id.is_main());
    let err = store.delete_wiki(&WikiId::main()).unwrap_err();
    assert!(
        matches!(err, StoreError::Invalid(InvalidInput::DeleteMainWiki)),
        "{err:?}"
    );
}

#[backend_test]
fn create_list_and_delete_sub_wikis(db: &Fixture) {
    let store = db.store();
    let dev = WikiId::new("dev").unwrap();
    store.create_wiki(&dev, "Developers").unwrap();
    let err = store.create_wiki(&dev, "Again").unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::AlreadyExists {
                entity: Entity::Wiki,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(store.wiki(&dev).unwrap().unwrap().pretty_name, "Developers");
    let ids: Vec<String> = store
        .list_wikis()
        .unwrap()
        .into_iter()
        .map(|w| w.id.to_string())
        .collect();
    assert_eq!(ids, ["dev", "main"]);
    store.delete_wiki(&dev).unwrap();
    assert_eq!(store.wiki(&dev).unwrap(), None);
    let err = store.delete_wiki(&dev).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::NotFound {
                entity: Entity::Wiki,
                ..
            }
        ),
        "{err:?}"
    );
}

#[backend_test]
fn reopening_keeps_the_wikis(db: &Fixture) {
    let dev = WikiId::new("dev").unwrap();
    db.store().create_wiki(&dev, "Developers").unwrap();
    let store = db.reopen();
    assert!(store.wiki(&dev).unwrap().is_some());
}

#[backend_test]
fn deleting_a_wiki_takes_its_rights_and_bin_with_it(db: &Fixture) {
    let store = db.store();
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
