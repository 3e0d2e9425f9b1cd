//! The backends the suite runs against: one constructor of fresh databases each.

pub(crate) mod postgres;
pub(crate) mod sqlite;
