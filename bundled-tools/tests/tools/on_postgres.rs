//! The bundled tools' integration tests on PostgreSQL: the modules of `main.rs` (the same list:
//! a test there checks it), whose every `#[farm_test]` runs here as one trial on a fresh
//! database of the server that `WIKI_MCP_TEST_DATABASE` names (reported as ignored, with the
//! reason, without it).

// A harness-less build drops `#[tokio::test]`s and `#[test]`s, so what only those use is unused
// here; the `tools` binary lints it all.
#![allow(unused_imports, dead_code)]

mod audit_reasons;
mod configuration;
mod contributed;
mod delete_attachment;
mod delete_document;
mod delete_object;
mod edit_document;
mod farm;
mod field_rules;
mod get_attachment;
mod get_document;
mod get_documents;
mod get_history;
mod get_links;
mod get_schema;
mod get_tree;
mod golden;
#[path = "../harness/mod.rs"]
mod harness;
mod list_trash;
mod look_alikes;
mod man_pages;
mod object_values;
mod query_documents;
mod query_objects;
mod replace_in_documents;
mod restore_document;
mod singulars;
mod structured;
mod tools_list_budget;
mod untrusted;
mod view_before_write;
mod write_attachment;
mod write_document;
mod write_object;
mod write_schema;

fn main() {
    wiki_server::testing::run_farm_suite()
}
