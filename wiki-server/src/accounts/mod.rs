//! Changes to users, groups and rights rules, made the same way from the command line
//! (`wiki-mcp user|group|rights`) and from the admin page: one validation (the store's), one
//! refusal of a change that would leave the farm without an administrator (`lockout.rs`), one
//! wording of what went wrong and how to fix it (`refusal.rs`), and one audit record
//! (`record.rs`): each change, done or refused, is a row of the farm's audit record and a line
//! on tracing target `audit`, naming who made it.
//!
//! `place.rs` reads where a rule applies and which right it is about as both surfaces take them
//! (a wiki id, an optional space or page, a right's name), and explains an effective right.

mod lockout;
mod place;
mod record;
mod refusal;

use std::time::Instant;

use wiki_store::Store;
use wiki_store::model::rights::{Right, RightRule, RightScope, Subject};
use wiki_store::model::wiki::WikiId;

pub use place::{existing_wiki, explain, parse_right, rule_scope};
pub use refusal::ChangeError;

/// Who changes accounts from the command line, as the audit record names them: not a user name
/// (the space keeps it from being one), since the command line acts with the database's
/// credentials, not a user's.
pub const COMMAND_LINE: &str = "command line";

/// One change to the farm's accounts or rights.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountChange {
    /// Create a user.
    CreateUser {
        /// The user name.
        name: String,
        /// A human name for listings (blank: none).
        display_name: Option<String>,
    },
    /// Delete a user with their tokens, memberships, rules and identity links.
    DeleteUser {
        /// The user name.
        name: String,
    },
    /// Create an empty group.
    CreateGroup {
        /// The group name.
        name: String,
    },
    /// Delete a group with its memberships and rules.
    DeleteGroup {
        /// The group name.
        name: String,
    },
    /// Add a user or group to a group.
    AddMember {
        /// The group.
        group: String,
        /// The new member.
        member: Subject,
    },
    /// Remove a user or group from a group.
    RemoveMember {
        /// The group.
        group: String,
        /// The member.
        member: Subject,
    },
    /// Store a rule (allow or deny), replacing the effect of the same scope, subject and right.
    SetRight(RightRule),
    /// Remove the rule of this scope, subject and right.
    RemoveRight {
        /// Where it applies.
        scope: RightScope,
        /// Who it is about.
        subject: Subject,
        /// The right.
        right: Right,
    },
}

impl AccountChange {
    /// The command it is, as the audit record's tool column shows it (`user create`, ...).
    pub fn command(&self) -> &'static str {
        match self {
            AccountChange::CreateUser { .. } => "user create",
            AccountChange::DeleteUser { .. } => "user delete",
            AccountChange::CreateGroup { .. } => "group create",
            AccountChange::DeleteGroup { .. } => "group delete",
            AccountChange::AddMember { .. } => "group add",
            AccountChange::RemoveMember { .. } => "group remove",
            AccountChange::SetRight(rule) => match rule.effect {
                wiki_store::model::rights::Effect::Allow => "rights allow",
                wiki_store::model::rights::Effect::Deny => "rights deny",
            },
            AccountChange::RemoveRight { .. } => "rights remove",
        }
    }

    /// The wiki the audit record files it under: the rule's, or the main wiki for accounts
    /// (which are the farm's).
    pub fn wiki(&self) -> WikiId {
        match self {
            AccountChange::SetRight(rule) => rule.scope.wiki().clone(),
            AccountChange::RemoveRight { scope, .. } => scope.wiki().clone(),
            _ => WikiId::main(),
        }
    }

    /// What it attempts, for "cannot ..." (`create the user `bob``).
    pub fn attempt(&self) -> String {
        match self {
            AccountChange::CreateUser { name, .. } => format!("create the user `{name}`"),
            AccountChange::DeleteUser { name } => format!("delete the user `{name}`"),
            AccountChange::CreateGroup { name } => format!("create the group `{name}`"),
            AccountChange::DeleteGroup { name } => format!("delete the group `{name}`"),
            AccountChange::AddMember { group, member } => format!("add {member} to `{group}`"),
            AccountChange::RemoveMember { group, member } => {
                format!("remove {member} from `{group}`")
            }
            AccountChange::SetRight(rule) => {
                format!("{} {} to {}", rule.effect, rule.right, rule.subject)
            }
            AccountChange::RemoveRight {
                scope,
                subject,
                right,
            } => format!("remove the {right} rule of {subject} on {scope}"),
        }
    }

    /// What was done, once it is (`Created user bob`).
    pub fn done(&self) -> String {
        match self {
            AccountChange::CreateUser { name, .. } => format!("Created user {name}"),
            AccountChange::DeleteUser { name } => format!("Deleted user {name}"),
            AccountChange::CreateGroup { name } => format!("Created group {name}"),
            AccountChange::DeleteGroup { name } => format!("Deleted group {name}"),
            AccountChange::AddMember { group, member } => format!("Added {member} to {group}"),
            AccountChange::RemoveMember { group, member } => {
                format!("Removed {member} from {group}")
            }
            AccountChange::SetRight(rule) => format!(
                "{} {} to {} on {}",
                rule.effect, rule.right, rule.subject, rule.scope
            ),
            AccountChange::RemoveRight {
                scope,
                subject,
                right,
            } => format!("Removed the {right} rule of {subject} on {scope}"),
        }
    }

    /// Makes the change on `store` for `actor` (a user name, or [`COMMAND_LINE`]), refusing it
    /// when it would leave the farm without an administrator, and records it, done or refused,
    /// in the audit record. Blocking: run it off the async workers.
    pub fn apply(&self, store: &dyn Store, actor: &str) -> Result<(), ChangeError> {
        let started = Instant::now();
        let outcome = lockout::check(self, store).and_then(|()| self.write(store));
        let outcome = outcome.map_err(ChangeError::explained);
        record::change(store, self, actor, &outcome, started.elapsed());
        outcome
    }

    /// The store call the change is.
    fn write(&self, store: &dyn Store) -> Result<(), ChangeError> {
        let written = match self {
            AccountChange::CreateUser { name, display_name } => {
                store.create_user(name, display_name.as_deref()).map(drop)
            }
            AccountChange::DeleteUser { name } => store.delete_user(name),
            AccountChange::CreateGroup { name } => store.create_group(name).map(drop),
            AccountChange::DeleteGroup { name } => store.delete_group(name),
            AccountChange::AddMember { group, member } => store.add_member(group, member),
            AccountChange::RemoveMember { group, member } => store.remove_member(group, member),
            AccountChange::SetRight(rule) => store.set_right(rule),
            AccountChange::RemoveRight {
                scope,
                subject,
                right,
            } => store.remove_right(scope, subject, *right),
        };
        written.map_err(ChangeError::Store)
    }
}
