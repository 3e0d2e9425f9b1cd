//! The one change refused whatever the input: one that would leave the farm without an
//! administrator, that is without a registered user holding the admin right on the main wiki
//! (deleting the last one, taking them out of the group that makes them one, removing or
//! denying that right). The page's administrator would lose the page, and nobody could manage
//! the farm but through the database. A farm that has no administrator already (a fresh one,
//! before `init` names one) is not held to it.
//!
//! The farm's rights are read, the change is played on that copy, and the result is asked who
//! administers the farm; the write follows. Two administrators changing the rights in the same
//! instant could each pass on a copy the other is about to change: the command line (with the
//! database's credentials) mends that case.

use wiki_store::model::rights::{Right, RightRule, RightScope, Subject};
use wiki_store::model::wiki::WikiId;
use wiki_store::rights::{GroupMembership, RightsSnapshot};
use wiki_store::{Store, StoreError};

use mcp_runtime::reason::ErrorKind;

use super::{AccountChange, ChangeError};

/// Refuses `change` when the farm has an administrator and would have none after it.
pub(crate) fn check(change: &AccountChange, store: &dyn Store) -> Result<(), ChangeError> {
    if matches!(
        change,
        AccountChange::CreateUser { .. } | AccountChange::CreateGroup { .. }
    ) {
        return Ok(());
    }
    let read = || -> Result<_, StoreError> {
        let users: Vec<String> = store.list_users()?.into_iter().map(|u| u.name).collect();
        Ok((store.rights_snapshot()?, users))
    };
    let (now, users) = read().map_err(ChangeError::Store)?;
    if !any_administrator(&now, &users) {
        return Ok(());
    }
    let (after, users) = played(change, &now, users);
    if any_administrator(&after, &users) {
        return Ok(());
    }
    Err(ChangeError::refused(
        ErrorKind::Forbidden,
        "this would leave the farm without an administrator (a user with the admin right on \
         the main wiki): allow admin on the main wiki to another user first",
    ))
}

fn any_administrator(rights: &RightsSnapshot, users: &[String]) -> bool {
    let farm = RightScope::Wiki(WikiId::main());
    users
        .iter()
        .any(|user| rights.can(user, Right::Admin, &farm))
}

/// The rights and registered users as they would be after `change`.
fn played(
    change: &AccountChange,
    now: &RightsSnapshot,
    mut users: Vec<String>,
) -> (RightsSnapshot, Vec<String>) {
    let mut rules: Vec<_> = now.rules().cloned().collect();
    let mut memberships = now.memberships().to_vec();
    let forget =
        |subject: Subject, rules: &mut Vec<RightRule>, memberships: &mut Vec<GroupMembership>| {
            rules.retain(|rule| rule.subject != subject);
            memberships.retain(|m| m.member != subject);
        };
    match change {
        AccountChange::CreateUser { .. } | AccountChange::CreateGroup { .. } => {}
        AccountChange::DeleteUser { name } => {
            users.retain(|user| user != name);
            forget(Subject::User(name.clone()), &mut rules, &mut memberships);
        }
        AccountChange::DeleteGroup { name } => {
            memberships.retain(|m| &m.group != name);
            forget(Subject::Group(name.clone()), &mut rules, &mut memberships);
        }
        AccountChange::AddMember { group, member } => memberships.push(GroupMembership {
            group: group.clone(),
            member: member.clone(),
        }),
        AccountChange::RemoveMember { group, member } => {
            memberships.retain(|m| !(&m.group == group && &m.member == member));
        }
        AccountChange::SetRight(rule) => {
            rules.retain(|r| {
                !(r.scope == rule.scope && r.subject == rule.subject && r.right == rule.right)
            });
            rules.push(rule.clone());
        }
        AccountChange::RemoveRight {
            scope,
            subject,
            right,
        } => rules.retain(|r| !(&r.scope == scope && &r.subject == subject && r.right == *right)),
    }
    let after = RightsSnapshot::new(rules, memberships, users.iter().cloned());
    (after, users)
}
