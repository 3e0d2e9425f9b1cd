//! API tokens: random, shown once, stored hashed, resolved to a user in constant time.

/// API tokens: random, shown once, stored hashed, resolved to a user in constant time.
pub trait TokenStore {}
