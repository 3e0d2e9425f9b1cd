//! Users, groups (nested) and the guest user.

use crate::Result;
use crate::model::rights::Subject;
use crate::model::user::{Group, User};

/// Users, groups (nested) and the guest user.
///
/// Users and groups are farm-wide. The guest ([`crate::model::user::GUEST_USER`]) always exists:
/// it is returned by [`UserStore::user`] and can be a group member, but it cannot be created,
/// deleted or given a token. Every write here advances the change sequence.
pub trait UserStore {
    /// Creates a user; refuses a bad name, the guest's name, or an existing user.
    fn create_user(&self, name: &str, display_name: Option<&str>) -> Result<User>;

    /// The user called `name` (the guest included), or [`crate::StoreError::NotFound`].
    fn user(&self, name: &str) -> Result<User>;

    /// Every registered user, by name (the guest is not listed).
    fn list_users(&self) -> Result<Vec<User>>;

    /// Deletes a user with their tokens, memberships and rights rules. Documents keep naming them
    /// as author.
    fn delete_user(&self, name: &str) -> Result<()>;

    /// Creates an empty group.
    fn create_group(&self, name: &str) -> Result<Group>;

    /// The group called `name` with its direct members ([`crate::model::user::ALL_USERS_GROUP`]
    /// lists every registered user).
    fn group(&self, name: &str) -> Result<Group>;

    /// Every group with its direct members, by name, the built-in all-users group included.
    fn list_groups(&self) -> Result<Vec<Group>>;

    /// Deletes a group, its memberships (both ways) and its rights rules.
    fn delete_group(&self, name: &str) -> Result<()>;

    /// Adds a user (the guest included) or a group to `group`; adding a present member is a no-op.
    /// Cycles are allowed: the resolver visits each group once.
    fn add_member(&self, group: &str, member: &Subject) -> Result<()>;

    /// Removes a member; [`crate::StoreError::NotFound`] when it was not one.
    fn remove_member(&self, group: &str, member: &Subject) -> Result<()>;
}
