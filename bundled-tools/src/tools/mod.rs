//! One tool per file, named by its id.

mod delete_attachment;
mod delete_document;
mod delete_object;
mod edit_document;
mod get_attachment;
mod get_document;
mod get_documents;
mod get_history;
mod get_links;
mod get_schema;
mod get_tree;
mod list_trash;
mod query_documents;
mod query_objects;
mod replace_in_documents;
mod restore_document;
mod write_attachment;
mod write_document;
mod write_object;
mod write_schema;
