//! The bundled tools' integration tests: one binary (link time), a module per tool, every call
//! through the real server path on the seeded farm of `harness`.
//!
//! Every test is a `#[backend_test]`, run by wiki-store's runner once per store backend (SQLite,
//! and PostgreSQL when `WIKI_MCP_TEST_DATABASE` names a server); those about SQLite's own file
//! (`look_alikes`) or about no store at all run on SQLite only.

#[path = "../harness/mod.rs"]
mod harness;

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
    wiki_store::testing::run_backend_tests()
}
