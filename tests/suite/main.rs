//! The workspace-wide test suite: one binary, a module per area.

mod tidy;
