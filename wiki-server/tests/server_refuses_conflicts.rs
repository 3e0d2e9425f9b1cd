//! A binary whose registry has a conflict (a contributed tool taking the reserved id `man`)
//! cannot get a server manager: the server refuses to start rather than serve one of the two.

use fixture_reserved_tools as _;
use wiki_server::{Error, Manager, ServerSettings};
use wiki_store::SqliteStore;

#[test]
fn the_manager_refuses_to_start_on_a_registry_conflict() {
    let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let store = SqliteStore::open(dir.path()).unwrap_or_else(|error| panic!("{error}"));
    match Manager::new(std::sync::Arc::new(store), ServerSettings::default()) {
        Err(Error::Registry(mcp_runtime::Error::ReservedTool { id, .. })) => {
            assert!(id == "man" || id == "list_wikis", "{id}");
        }
        other => panic!("expected a reserved-id refusal, got {other:?}"),
    }
}
