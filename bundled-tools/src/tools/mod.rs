//! One tool per file, named by its id.

mod get_document;
mod get_history;
