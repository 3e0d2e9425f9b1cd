//! The store's data model: plain types, one file per entity, independent of any backend.

pub mod admin;
pub mod attachment;
pub mod change;
pub mod class;
pub mod document;
pub mod hierarchy;
pub mod history;
pub mod identity;
pub mod lease;
pub mod link;
pub mod locale;
pub mod mcp_config;
pub mod object;
pub mod rights;
pub mod rules;
pub mod search;
pub mod structure;
pub mod token;
pub mod trash;
pub mod user;
pub mod vector;
pub mod version;
pub mod wiki;
