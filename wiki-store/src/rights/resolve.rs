//! The resolver: rules + principal + right + target -> verdict (see the module doc of
//! [`crate::rights`] for the rules it implements).

use std::collections::BTreeSet;

use crate::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use crate::model::user::GUEST_USER;
use crate::model::wiki::WikiId;

/// The user a question is asked for, with every group they belong to (nested groups resolved,
/// see [`super::groups_of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    user: String,
    groups: BTreeSet<String>,
}

impl Principal {
    /// A user and the full set of their groups.
    pub fn new(user: impl Into<String>, groups: BTreeSet<String>) -> Self {
        Principal {
            user: user.into(),
            groups,
        }
    }

    /// The user name.
    pub fn user(&self) -> &str {
        &self.user
    }

    /// Whether this is the guest user (never an admin).
    pub fn is_guest(&self) -> bool {
        self.user == GUEST_USER
    }

    /// Every group the user belongs to, nested groups included.
    pub fn groups(&self) -> &BTreeSet<String> {
        &self.groups
    }

    fn matches(&self, subject: &Subject) -> bool {
        match subject {
            Subject::User(name) => *name == self.user,
            Subject::Group(name) => self.groups.contains(name),
        }
    }
}

/// The answer, with the reason that decided it (so an admin command can explain it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the right is granted.
    pub allowed: bool,
    /// What decided.
    pub reason: Reason,
}

/// What decided a [`Verdict`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The user is an admin of the main wiki, hence of the farm.
    FarmAdmin,
    /// The user is an admin of the target's wiki.
    WikiAdmin,
    /// This rule decided, at the nearest level that had an opinion.
    Rule(RightRule),
    /// The level allows the right only to other subjects, which excludes this user.
    RestrictedToOthers(RightScope),
    /// The guest asked for `admin`, which the guest can never have.
    GuestNeverAdmin,
    /// No level has an opinion: denied by default.
    NoRule,
}

/// Can `principal` exercise `right` on `target`? `rules_at` gives the rules stored at exactly one
/// scope ([`super::RightsSnapshot`] indexes them so).
pub(crate) fn decide<'r>(
    principal: &Principal,
    right: Right,
    target: &RightScope,
    rules_at: impl Fn(&RightScope) -> &'r [RightRule],
) -> Verdict {
    if principal.is_guest() {
        if right == Right::Admin {
            return denied(Reason::GuestNeverAdmin);
        }
    } else {
        let is_admin_of = |wiki: &WikiId| {
            matches!(
                level_opinion(
                    principal,
                    Right::Admin,
                    rules_at(&RightScope::Wiki(wiki.clone()))
                ),
                Some(Opinion::Allow(_))
            )
        };
        if is_admin_of(&WikiId::main()) {
            return allowed(Reason::FarmAdmin);
        }
        if is_admin_of(target.wiki()) {
            return allowed(Reason::WikiAdmin);
        }
    }
    for level in target.chain() {
        match level_opinion(principal, right, rules_at(&level)) {
            Some(Opinion::Allow(rule)) => return allowed(Reason::Rule(rule)),
            Some(Opinion::Deny(rule)) => return denied(Reason::Rule(rule)),
            Some(Opinion::Restricted) => return denied(Reason::RestrictedToOthers(level)),
            None => {}
        }
    }
    denied(Reason::NoRule)
}

enum Opinion {
    Allow(RightRule),
    Deny(RightRule),
    Restricted,
}

/// What one level (`here`: the rules stored at it) says about `right` for `principal`, if anything.
fn level_opinion(principal: &Principal, right: Right, here: &[RightRule]) -> Option<Opinion> {
    let at_level = || here.iter();
    let mine = || at_level().filter(|rule| principal.matches(&rule.subject));
    if let Some(rule) = mine().find(|rule| rule.right == right && rule.effect == Effect::Deny) {
        return Some(Opinion::Deny(rule.clone()));
    }
    // An allowed `admin` implies the right, unless `admin` itself is denied to the user here.
    let admin_counts = !principal.is_guest()
        && !mine().any(|rule| rule.right == Right::Admin && rule.effect == Effect::Deny);
    let implies = |granted: Right| granted == right || (granted == Right::Admin && admin_counts);
    if let Some(rule) = mine().find(|rule| rule.effect == Effect::Allow && implies(rule.right)) {
        return Some(Opinion::Allow(rule.clone()));
    }
    if at_level().any(|rule| rule.right == right && rule.effect == Effect::Allow) {
        return Some(Opinion::Restricted);
    }
    None
}

pub(super) fn allowed(reason: Reason) -> Verdict {
    Verdict {
        allowed: true,
        reason,
    }
}

pub(super) fn denied(reason: Reason) -> Verdict {
    Verdict {
        allowed: false,
        reason,
    }
}
