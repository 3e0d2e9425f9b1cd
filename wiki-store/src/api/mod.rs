//! The store's operations, one trait per aggregate; [`crate::Store`] is all of them.
//!
//! Splitting by aggregate keeps each trait small and lets backends and callers grow one aggregate
//! without touching the others. Every method is synchronous and returns [`crate::Result`].

mod admin;
mod attachment;
mod changes;
mod config;
mod document;
mod hierarchy;
mod identity;
mod lease;
mod link;
mod object;
mod rights;
mod search;
mod secret;
mod token;
mod trash;
mod user;
mod vector;
mod wiki;

pub use admin::AdminStore;
pub use attachment::AttachmentStore;
pub use changes::{ChangeFeed, ChangeListener, PoolStats, Subscription};
pub use config::ConfigStore;
pub use document::DocumentStore;
pub use hierarchy::HierarchyStore;
pub use identity::IdentityStore;
pub use lease::LeaseStore;
pub use link::LinkStore;
pub use object::ObjectStore;
pub use rights::RightsStore;
pub use search::SearchStore;
pub use secret::SecretStore;
pub use token::TokenStore;
pub use trash::TrashStore;
pub use user::UserStore;
pub use vector::VectorStore;
pub use wiki::WikiStore;
