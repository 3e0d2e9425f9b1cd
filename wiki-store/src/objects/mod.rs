//! Structured data rules that need no storage: coercing values to their field's type, holding
//! them to their field's rules and checking object queries against their class.

pub mod coerce;
pub mod query;
pub mod validation;
