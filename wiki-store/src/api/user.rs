//! Users, groups (nested) and the guest user.

/// Users, groups (nested) and the guest user.
pub trait UserStore {}
