//! Rights: who may view, edit, delete or administer a wiki, space or page.

/// Rights: who may view, edit, delete or administer a wiki, space or page.
pub trait RightsStore {}
