//! Rights resolution: the one answer to "can this user do this on that".
//!
//! Pure logic over rules and group memberships the storage layer loaded; the storage layer never
//! decides a right itself, so every backend gives the same answers. The rules:
//!
//! 1. **Farm admins.** A user allowed `admin` at the wiki level of the main wiki (and not denied it
//!    there) can do everything in every wiki.
//! 2. **Wiki admins.** A user allowed `admin` at a wiki's wiki level can do everything in that wiki,
//!    whatever lower levels deny: an admin could grant themselves the right anyway, so a deny below
//!    would only be a trap.
//! 3. **Nearest level wins.** Otherwise the levels are tried from the target outwards (page, then
//!    each enclosing space from the innermost, then the wiki) and the first level that has an
//!    opinion decides. At one level:
//!    - a deny of the right matching the user (directly or through any group, nested groups
//!      included) refuses: **deny wins at the same level**;
//!    - otherwise an allow of the right, or of `admin`, matching the user grants;
//!    - otherwise, if the level allows the right to someone else, the right is restricted to those
//!      subjects and the user is refused (XWiki's rule: "allow group X on this space" means only X);
//!    - otherwise the level has no opinion and the next level out is asked.
//! 4. **Default deny.** When no level has an opinion the answer is no. A new farm exposes nothing
//!    until an administrator allows it (fail closed).
//!
//! Every registered user is implicitly in the group [`crate::model::user::ALL_USERS_GROUP`] (the
//! guest is not), which can be named in rules and nested in groups. Because of the restriction
//! rule, "allow view to the guest" alone at a level excludes registered users there; a wiki open
//! to everyone allows `view` to both the guest and `all-users`.
//!
//! Rights are independent (`edit` does not imply `view`); `admin` implies every right at the level it
//! is allowed at and below. The guest user is never an admin: an `admin` rule naming the guest (or a
//! group the guest is in) is ignored, so a mistake cannot hand the farm to anonymous callers.

mod groups;
#[cfg(test)]
mod properties;
mod resolve;
mod snapshot;

pub use crate::model::rights::{Effect, Right, RightRule, RightScope, Subject};
pub use groups::{GroupMembership, groups_of};
pub use resolve::{Principal, Reason, Verdict};
pub use snapshot::RightsSnapshot;
