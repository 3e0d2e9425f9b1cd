//! The doors, in order (reach, rights, space filter, then existence), with their messages, on a
//! real store through the `peek` test tool and the doors API.

use std::collections::BTreeMap;
use wiki_store::testing::backend_test;

use mcp_runtime::signals::ScanSignals;
use serde_json::json;
use wiki_server::Caller;
use wiki_store::model::class::FieldType;
use wiki_store::model::document::Expected;
use wiki_store::model::mcp_config::SpaceFilterMode;
use wiki_store::model::object::{ClassChange, FieldChange, ObjectWrite};
use wiki_store::model::search::{SearchQuery, WikiScope};
use wiki_store::objects::query::ObjectQuery;

use crate::harness::{Farm, alice, call, client, guest, reference, wiki};

#[backend_test]
async fn rights_are_checked_before_existence() {
    let farm = Farm::new();
    let alice = client(farm.manager(), alice("main")).await;
    assert_eq!(
        call(&alice, "peek", json!({"reference": "Sandbox"})).await,
        Ok("main:Sandbox.WebHome — Sandbox".to_owned())
    );
    let denied = Err("You do not have permission to view \"main:Private.Secret\".".to_owned());
    assert_eq!(
        call(&alice, "peek", json!({"reference": "Private.Secret"})).await,
        denied
    );
    // A page that does not exist in a space alice cannot view says the same: no leak.
    assert_eq!(
        call(&alice, "peek", json!({"reference": "Private.Missing"})).await,
        Err("You do not have permission to view \"main:Private.Missing\".".to_owned())
    );
    let bob = client(farm.manager(), Caller::user(wiki("main"), "bob")).await;
    assert_eq!(
        call(&bob, "peek", json!({"reference": "Private.Missing"})).await,
        Err("Error: the document \"main:Private.Missing\" does not exist.".to_owned())
    );
}

#[backend_test]
async fn the_reach_gate_comes_first() {
    let farm = Farm::new();
    // dev has no reach: another wiki is refused before its rights are even looked at.
    let alice = client(farm.manager(), alice("dev")).await;
    let refused = Err(
        "Error: wiki \"main\" cannot be reached from this endpoint: cross-wiki \
         reach is not enabled for this endpoint. Work in wiki \"dev\" (drop the wiki prefix or \
         the 'wiki' argument)."
            .to_owned(),
    );
    assert_eq!(
        call(&alice, "peek", json!({"reference": "main:Sandbox"})).await,
        refused
    );
    assert_eq!(
        call(&alice, "peek", json!({"reference": "main:Private.Secret"})).await,
        refused
    );
    // The `wiki` argument is parsed even where it is not advertised, and refused the same way.
    assert_eq!(
        call(
            &alice,
            "peek",
            json!({"reference": "Sandbox", "wiki": "main"})
        )
        .await,
        refused
    );
    assert_eq!(
        call(&alice, "peek", json!({"reference": "Team"})).await,
        Ok("dev:Team.WebHome — Team".to_owned())
    );
}

#[backend_test]
async fn a_prefix_contradicting_the_wiki_argument_names_both() {
    let farm = Farm::new();
    let alice = client(farm.manager(), alice("main")).await;
    assert_eq!(
        call(
            &alice,
            "peek",
            json!({"reference": "dev:Team", "wiki": "main"})
        )
        .await,
        Err(
            "Error: the reference \"dev:Team\" names wiki \"dev\" but 'wiki' is \"main\". Drop \
             the prefix or make them agree."
                .to_owned()
        )
    );
    // With reach (main has it by default) the argument selects the wiki.
    assert_eq!(
        call(&alice, "peek", json!({"reference": "Team", "wiki": "dev"})).await,
        Ok("dev:Team.WebHome — Team".to_owned())
    );
}

#[backend_test]
async fn the_space_filter_comes_after_rights() {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.space_filter_mode = SpaceFilterMode::Whitelist;
        config.space_filter_spaces = vec!["Sandbox".into()];
    });
    let alice = client(farm.manager(), alice("main")).await;
    assert_eq!(
        call(&alice, "peek", json!({"reference": "Sales.Plan"})).await,
        Err(
            "Error: \"main:Sales.Plan\" is outside the content this endpoint is configured to \
             expose."
                .to_owned()
        )
    );
    // Rights first: a page alice cannot view gets the rights message, whatever the filter.
    assert_eq!(
        call(&alice, "peek", json!({"reference": "Private.Secret"})).await,
        Err("You do not have permission to view \"main:Private.Secret\".".to_owned())
    );
    assert!(
        call(&alice, "peek", json!({"reference": "Sandbox"}))
            .await
            .is_ok()
    );
}

#[backend_test]
async fn the_guest_reads_what_its_rights_allow() {
    let farm = Farm::new();
    let guest = client(farm.manager(), guest("main")).await;
    assert!(
        call(&guest, "peek", json!({"reference": "Sandbox"}))
            .await
            .is_ok()
    );
    assert_eq!(
        call(&guest, "peek", json!({"reference": "Private.Secret"})).await,
        Err("You do not have permission to view \"main:Private.Secret\".".to_owned())
    );
}

#[backend_test]
async fn row_and_search_doors_apply_the_same_rules() {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.space_filter_mode = SpaceFilterMode::Blacklist;
        config.space_filter_spaces = vec!["Sales".into()];
    });
    let manager = farm.manager();
    let main = match manager.server(&wiki("main")).await {
        Ok(Some(server)) => server,
        other => panic!("{other:?}"),
    };
    let doors = manager.doors(&main, &alice("main"));
    assert!(doors.row_visible(&reference("Sandbox.WebHome")));
    assert!(!doors.row_visible(&reference("Sales.Plan")), "filtered");
    assert!(!doors.row_visible(&reference("Private.Secret")), "no right");
    assert!(doors.row_visible(&reference("dev:Team.WebHome")), "reached");

    assert_eq!(
        doors.search_wikis(None).await,
        Ok(WikiScope::Only(vec![wiki("main")]))
    );
    assert_eq!(doors.search_wikis(Some("ALL")).await, Ok(WikiScope::All));
    assert_eq!(
        doors.search_wikis(Some("dev")).await,
        Ok(WikiScope::Only(vec![wiki("dev")]))
    );
    assert_eq!(
        doors
            .search_wikis(Some("nope"))
            .await
            .map_err(|e| e.message().to_owned()),
        Err(
            "Error: wiki \"nope\" does not exist. Call list_wikis for the wikis you can use."
                .to_owned()
        )
    );
    assert!(doors.single_wiki(Some("all")).is_err());

    let dev = match manager.server(&wiki("dev")).await {
        Ok(Some(server)) => server,
        other => panic!("{other:?}"),
    };
    let doors = manager.doors(&dev, &alice("dev"));
    assert!(
        !doors.row_visible(&reference("Sandbox.WebHome")),
        "no reach from dev"
    );
    assert_eq!(
        doors
            .search_wikis(Some("all"))
            .await
            .map_err(|e| e.message().to_owned()),
        Err(
            "Error: cross-wiki reach is not enabled for this endpoint, so 'wiki' cannot select \
             another wiki. Omit 'wiki' to search wiki \"dev\"."
                .to_owned()
        )
    );
}

#[backend_test]
async fn object_rows_and_search_hits_are_authorized_before_counting() {
    let farm = Farm::new();
    ok(farm.store.change_class(&ClassChange {
        class_document: reference("Data.Task"),
        change: FieldChange::Add {
            rules: Default::default(),
            name: "state".into(),
            field_type: FieldType::String,
            pretty_name: None,
        },
        author: "admin".into(),
        comment: String::new(),
        major: false,
        expected: Expected::Any,
    }));
    for page in ["Sandbox.WebHome", "Private.Secret", "Sales.Plan"] {
        ok(farm.store.write_object(&ObjectWrite {
            reference: reference(page),
            class: "Data.Task".into(),
            number: None,
            values: BTreeMap::from([("state".to_owned(), "open".to_owned())]),
            title: None,
            author: "alice".into(),
            comment: String::new(),
            major: false,
            expected: Expected::Any,
        }));
    }
    let manager = farm.manager();
    let query = || ObjectQuery {
        class: "Data.Task".into(),
        document: None,
        filters: Vec::new(),
        sort: None,
    };
    let main = match manager.server(&wiki("main")).await {
        Ok(Some(server)) => server,
        other => panic!("{other:?}"),
    };
    let doors = manager.doors(&main, &alice("main"));
    let page = ok(doors
        .query_objects(wiki("main"), query(), 0, 10, ScanSignals::detached())
        .await
        .unwrap_or_else(|error| panic!("{error}")));
    let seen: Vec<String> = page
        .hits
        .iter()
        .map(|hit| hit.reference.to_string())
        .collect();
    assert_eq!(seen, ["main:Sales.Plan", "main:Sandbox.WebHome"]);
    assert_eq!(page.total, 2, "the denied row is not counted");

    let search = |text: &str| {
        let mut query =
            SearchQuery::new(Some(text.to_owned()), WikiScope::Only(vec![wiki("main")]));
        query.limit = 10;
        query
    };
    let found = doors
        .search(search("secret"))
        .await
        .map(|results| results.total);
    assert_eq!(found, Ok(0), "alice cannot view Private.Secret");
    let bob = manager.doors(&main, &Caller::user(wiki("main"), "bob"));
    let found = bob
        .search(search("secret"))
        .await
        .map(|results| results.total);
    assert_eq!(found, Ok(1));

    // From dev, which has no reach, another wiki's objects are refused at the door.
    let dev = match manager.server(&wiki("dev")).await {
        Ok(Some(server)) => server,
        other => panic!("{other:?}"),
    };
    let doors = manager.doors(&dev, &alice("dev"));
    assert!(
        doors
            .query_objects(wiki("main"), query(), 0, 10, ScanSignals::detached())
            .await
            .is_err()
    );
}

fn ok<T>(result: wiki_store::Result<T>) -> T {
    result.unwrap_or_else(|error| panic!("{error}"))
}
