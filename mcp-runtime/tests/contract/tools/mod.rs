//! Test-only tools covering every row of the parameter table. They live in this test crate, so
//! they never reach a shipped binary.

pub(crate) mod every_kind;
pub(crate) mod no_params;
pub(crate) mod renamed;
pub(crate) mod shared;
pub(crate) mod slow;
pub(crate) mod structured;
