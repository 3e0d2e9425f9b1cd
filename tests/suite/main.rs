//! The workspace-wide test suite: one binary, a module per area.

mod admin;
mod direct;
mod edge;
mod harness;
mod http;
mod links;
mod oidc;
mod tidy;
mod writes;
