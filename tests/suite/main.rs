//! The workspace-wide test suite: one binary, a module per area.

// Linked for its tools: the servers here serve what the stock binary serves.
use bundled_tools as _;

mod admin;
mod admin_accounts;
mod admin_audit;
mod admin_oidc;
mod admin_replicas;
mod admin_subpath;
mod body_shape;
mod confirm;
mod confirm_legacy;
mod confirm_session;
mod confirm_twice;
mod direct;
mod edge;
mod harness;
mod http;
mod links;
mod list_changed;
#[path = "../support/many_keys.rs"]
mod many_keys;
mod metrics;
mod narrowing;
mod oidc;
mod render_once;
mod skills_changed;
mod tidy;
mod tidy_weight;
mod writes;
