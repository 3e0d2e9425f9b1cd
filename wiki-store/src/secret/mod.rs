//! Secrets the store keeps only as digests: API tokens and Password field values.
//!
//! Nothing here touches storage; the storage layer persists what these functions return and
//! never sees a clear secret after the call that created it.

pub mod password;
pub mod token;
