//! One tool per file, named by its id.

mod get_document;
mod get_history;
mod get_links;
mod get_tree;
mod query_documents;
