//! The bundled tools' integration tests: one binary (link time), a module per tool, every call
//! through the real server path on the seeded farm of `harness`.

#[path = "../harness/mod.rs"]
mod harness;

mod configuration;
mod contributed;
mod delete_attachment;
mod delete_document;
mod delete_object;
mod edit_document;
mod farm;
mod get_attachment;
mod get_document;
mod get_history;
mod get_links;
mod get_schema;
mod get_tree;
mod golden;
mod look_alikes;
mod man_pages;
mod query_documents;
mod query_objects;
mod structured;
mod view_before_write;
mod write_attachment;
mod write_document;
mod write_object;
mod write_schema;
