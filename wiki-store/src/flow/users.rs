//! Users, groups and memberships, over [`AccountRows`] (writes) and [`AccountReads`] (reads).
//!
//! Every write that changes an account queues the accounts event (caches of rights and tokens
//! reload on it); adding a member who already belongs writes nothing and leaves the change
//! sequence alone. Deleting a user or group takes every membership and rule naming it along.

use crate::Result;
use crate::api::UserStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::model::rights::Subject;
use crate::model::user::{ALL_USERS_GROUP, Group, User};
use crate::plan::account::{
    accounts_changed, all_users_group, built_in_user, group_exists as group_taken, group_of,
    not_a_member, refuse_all_users, refuse_guest, require_subject, unknown_group, unknown_user,
    user_exists as user_taken, validate_new_group, validate_new_user, with_all_users,
};
use crate::stored::{from_ms, subject_parts};

pub(crate) use crate::plan::account::Account;

/// What account writes read and write inside a backend's write transaction.
pub(crate) trait AccountRows: Transaction {
    /// Whether the user or group `name` is stored; with `share`, held against deletion for the
    /// rest of the transaction where the backend locks rows.
    fn account_exists(&mut self, account: Account, name: &str, share: bool) -> Result<bool>;

    /// Refuses a subject that does not exist, holding a stored one against deletion for the rest
    /// of the transaction ([`crate::plan::account::require_subject`]).
    fn require_subject(&mut self, subject: &Subject) -> Result<()> {
        require_subject(subject, |account, name| {
            self.account_exists(account, name, true)
        })
    }

    /// Stores a new user.
    fn insert_user(
        &mut self,
        name: &str,
        display_name: Option<&str>,
        created_ms: i64,
    ) -> Result<()>;

    /// Stores a new group without members.
    fn insert_group(&mut self, name: &str, created_ms: i64) -> Result<()>;

    /// Deletes the user or group `name`; whether it was stored.
    fn delete_account(&mut self, account: Account, name: &str) -> Result<bool>;

    /// Removes every membership and rule naming a deleted user or group.
    fn forget_subject(&mut self, account: Account, name: &str) -> Result<()>;

    /// Adds a member (`kind`, `name`) to `group`; whether it was not a member yet.
    fn insert_member(&mut self, group: &str, kind: &str, name: &str) -> Result<bool>;

    /// Removes a member (`kind`, `name`) from `group`; whether it was one.
    fn delete_member(&mut self, group: &str, kind: &str, name: &str) -> Result<bool>;
}

/// Queues the event that tells subscribers users, groups, memberships or tokens changed.
pub(crate) fn changed<T: Transaction + ?Sized>(tx: &mut T) {
    let (wiki, event) = accounts_changed();
    tx.emit(wiki, event);
}

/// A member as stored: its kind (`user` or `group`) and name.
pub(crate) type Member = (String, String);

/// A group as stored: its name and members, ordered by kind and name.
pub(crate) type StoredGroup = (String, Vec<Member>);

/// What group reads fetch inside one read (one snapshot).
pub(crate) trait AccountReads {
    /// Whether the group `name` is stored.
    fn group_exists(&mut self, name: &str) -> Result<bool>;

    /// Every registered user's name, in order.
    fn user_names(&mut self) -> Result<Vec<String>>;

    /// The members (`kind`, `name`) of group `name`, ordered by kind and name.
    fn members(&mut self, group: &str) -> Result<Vec<Member>>;

    /// Every stored group with its members, ordered by name (members as [`AccountReads::members`]).
    fn groups_with_members(&mut self) -> Result<Vec<StoredGroup>>;

    /// The registered user `name`, if stored.
    fn user(&mut self, name: &str) -> Result<Option<User>>;

    /// Every registered user, ordered by name.
    fn users(&mut self) -> Result<Vec<User>>;
}

impl<B: Backend> UserStore for B {
    fn create_user(&self, name: &str, display_name: Option<&str>) -> Result<User> {
        let display_name = validate_new_user(name, display_name)?;
        self.write(|tx| {
            if tx.account_exists(Account::User, name, false)? {
                return Err(user_taken(name));
            }
            let created = tx.now_ms();
            tx.insert_user(name, display_name, created)?;
            changed(tx);
            Ok(User {
                name: name.to_owned(),
                display_name: display_name.map(str::to_owned),
                created: from_ms(created),
            })
        })
    }

    fn user(&self, name: &str) -> Result<User> {
        if let Some(user) = built_in_user(name) {
            return Ok(user);
        }
        self.read(|rows| rows.user(name))?
            .ok_or_else(|| unknown_user(name))
    }

    fn list_users(&self) -> Result<Vec<User>> {
        self.read(|rows| rows.users())
    }

    fn delete_user(&self, name: &str) -> Result<()> {
        refuse_guest(name)?;
        self.write(|tx| delete(tx, Account::User, name))
    }

    fn create_group(&self, name: &str) -> Result<Group> {
        validate_new_group(name)?;
        self.write(|tx| {
            if tx.account_exists(Account::Group, name, false)? {
                return Err(group_taken(name));
            }
            let created = tx.now_ms();
            tx.insert_group(name, created)?;
            changed(tx);
            Ok(Group {
                name: name.to_owned(),
                users: Vec::new(),
                groups: Vec::new(),
            })
        })
    }

    fn group(&self, name: &str) -> Result<Group> {
        self.snapshot(|rows| {
            if name == ALL_USERS_GROUP {
                return Ok(all_users_group(rows.user_names()?));
            }
            if !rows.group_exists(name)? {
                return Err(unknown_group(name));
            }
            Ok(group_of(name, rows.members(name)?))
        })
    }

    /// The built-in all-users group in its place by name.
    fn list_groups(&self) -> Result<Vec<Group>> {
        self.snapshot(|rows| {
            let groups = rows
                .groups_with_members()?
                .into_iter()
                .map(|(name, members)| group_of(&name, members))
                .collect();
            Ok(with_all_users(groups, all_users_group(rows.user_names()?)))
        })
    }

    fn delete_group(&self, name: &str) -> Result<()> {
        self.write(|tx| delete(tx, Account::Group, name))
    }

    /// Both must exist, and are held until the write ends; a no-op when it already belongs.
    fn add_member(&self, group: &str, member: &Subject) -> Result<()> {
        refuse_all_users(group)?;
        self.write(|tx| {
            if !tx.account_exists(Account::Group, group, true)? {
                return Err(unknown_group(group));
            }
            tx.require_subject(member)?;
            let (kind, name) = subject_parts(member);
            if tx.insert_member(group, kind, name)? {
                changed(tx);
            } else {
                tx.nothing_changed();
            }
            Ok(())
        })
    }

    fn remove_member(&self, group: &str, member: &Subject) -> Result<()> {
        self.write(|tx| {
            let (kind, name) = subject_parts(member);
            if !tx.delete_member(group, kind, name)? {
                return Err(not_a_member(group, member));
            }
            changed(tx);
            Ok(())
        })
    }
}

/// Deletes a user or group and everything naming it.
fn delete<T: AccountRows>(tx: &mut T, account: Account, name: &str) -> Result<()> {
    if !tx.delete_account(account, name)? {
        return Err(match account {
            Account::User => unknown_user(name),
            Account::Group => unknown_group(name),
        });
    }
    tx.forget_subject(account, name)?;
    changed(tx);
    Ok(())
}
