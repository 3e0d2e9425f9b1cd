//! The bundled tools' integration tests: one binary (link time), a module per tool, every call
//! through the real server path on the seeded farm of `harness`.
//!
//! Every `#[farm_test]` also runs on PostgreSQL in the `tools_postgres` binary (`on_postgres.rs`,
//! the same module list, checked below); `#[tokio::test]`s (SQLite's own file: `look_alikes`) and
//! plain `#[test]`s run here only.

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

/// `on_postgres.rs` declares exactly these modules, so no test is left out of the PostgreSQL run.
#[test]
fn the_postgres_binary_runs_the_same_modules() {
    wiki_server::testing::assert_same_modules(
        include_str!("main.rs"),
        include_str!("on_postgres.rs"),
    );
}
