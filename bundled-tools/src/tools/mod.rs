//! One tool per file, named by its id.

mod delete_document;
mod edit_document;
mod get_attachment;
mod get_document;
mod get_history;
mod get_links;
mod get_schema;
mod get_tree;
mod query_documents;
mod query_objects;
mod write_document;
