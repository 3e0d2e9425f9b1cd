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

/// Can `principal` exercise `right` on `target`, given every rule of the target's wiki and of the
/// main wiki's wiki level (`rules` may hold more; rules of other scopes are ignored)?
pub fn decide(
    principal: &Principal,
    right: Right,
    target: &RightScope,
    rules: &[RightRule],
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
                    &RightScope::Wiki(wiki.clone()),
                    rules
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
        match level_opinion(principal, right, &level, rules) {
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

/// What one level says about `right` for `principal`, if anything.
fn level_opinion(
    principal: &Principal,
    right: Right,
    level: &RightScope,
    rules: &[RightRule],
) -> Option<Opinion> {
    let at_level = || rules.iter().filter(move |rule| rule.scope == *level);
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

fn allowed(reason: Reason) -> Verdict {
    Verdict {
        allowed: true,
        reason,
    }
}

fn denied(reason: Reason) -> Verdict {
    Verdict {
        allowed: false,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{DocumentReference, SpacePath};
    use crate::rights::{GroupMembership, groups_of};

    /// `"w"` is wiki w, `"w:A.B"` space A.B of w, `"w:A.B/P"` page P in space A.B of w.
    fn scope(text: &str) -> RightScope {
        let (wiki, rest) = text.split_once(':').unwrap_or((text, ""));
        let (space, page) = rest.split_once('/').unwrap_or((rest, ""));
        let wiki = WikiId::new(wiki).unwrap();
        match (space, page) {
            ("", _) => RightScope::Wiki(wiki),
            (space, "") => RightScope::Space {
                wiki,
                space: SpacePath::parse(space).unwrap(),
            },
            (space, page) => RightScope::Page(
                DocumentReference::new(wiki, SpacePath::parse(space).unwrap(), page).unwrap(),
            ),
        }
    }

    /// `"allow view group:editors w:A"`.
    fn rule(text: &str) -> RightRule {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [effect, right, subject, at] = words[..] else {
            panic!("bad rule {text:?} in the table");
        };
        let subject = match subject.split_once(':') {
            Some(("user", name)) => Subject::User(name.to_owned()),
            Some(("group", name)) => Subject::Group(name.to_owned()),
            _ => panic!("bad subject in {text:?}"),
        };
        match (effect.parse(), right.parse()) {
            (Ok(effect), Ok(right)) => RightRule {
                scope: scope(at),
                subject,
                right,
                effect,
            },
            _ => panic!("bad effect or right in {text:?}"),
        }
    }

    /// alice is in editors; editors is in staff; staff and loop form a cycle; bob is in no group.
    fn memberships() -> Vec<GroupMembership> {
        let member = |group: &str, member: Subject| GroupMembership {
            group: group.to_owned(),
            member,
        };
        vec![
            member("editors", Subject::User("alice".into())),
            member("staff", Subject::Group("editors".into())),
            member("loop", Subject::Group("staff".into())),
            member("staff", Subject::Group("loop".into())),
            member("visitors", Subject::User(GUEST_USER.into())),
        ]
    }

    struct Case {
        name: &'static str,
        rules: &'static [&'static str],
        user: &'static str,
        right: Right,
        target: &'static str,
        allowed: bool,
    }

    use Right::{Admin, Delete, Edit, View};

    const CASES: &[Case] = &[
        // Default.
        Case {
            name: "no rule denies",
            rules: &[],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        // Each level, allow, user and group, inherited down.
        Case {
            name: "wiki allow user inherits to page",
            rules: &["allow view user:alice w"],
            user: "alice",
            right: View,
            target: "w:A.B/P",
            allowed: true,
        },
        Case {
            name: "wiki allow group",
            rules: &["allow view group:editors w"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "wiki allow nested group",
            rules: &["allow view group:staff w"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "wiki allow group through a cycle",
            rules: &["allow view group:loop w"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "space allow inherits to nested page",
            rules: &["allow edit user:alice w:A"],
            user: "alice",
            right: Edit,
            target: "w:A.B.C/P",
            allowed: true,
        },
        Case {
            name: "space allow applies to the space itself",
            rules: &["allow edit user:alice w:A"],
            user: "alice",
            right: Edit,
            target: "w:A",
            allowed: true,
        },
        Case {
            name: "page allow",
            rules: &["allow delete group:editors w:A/P"],
            user: "alice",
            right: Delete,
            target: "w:A/P",
            allowed: true,
        },
        // Each level, deny, user and group, inherited down.
        Case {
            name: "wiki deny user",
            rules: &["deny view user:alice w"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "space deny group beats wiki allow",
            rules: &["allow view user:alice w", "deny view group:editors w:A"],
            user: "alice",
            right: View,
            target: "w:A.B/P",
            allowed: false,
        },
        Case {
            name: "page deny user beats space allow",
            rules: &["allow view user:alice w:A", "deny view user:alice w:A/P"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        // Nearest level wins.
        Case {
            name: "page allow beats space deny",
            rules: &["deny view user:alice w:A", "allow view user:alice w:A/P"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "nested space allow beats outer deny",
            rules: &["deny view group:staff w:A", "allow view user:alice w:A.B"],
            user: "alice",
            right: View,
            target: "w:A.B/P",
            allowed: true,
        },
        Case {
            name: "nested space deny beats outer allow",
            rules: &["allow view user:alice w:A", "deny view user:alice w:A.B"],
            user: "alice",
            right: View,
            target: "w:A.B/P",
            allowed: false,
        },
        Case {
            name: "sibling space keeps the outer allow",
            rules: &["allow view user:alice w:A", "deny view user:alice w:A.B"],
            user: "alice",
            right: View,
            target: "w:A.C/P",
            allowed: true,
        },
        // Deny wins at the same level.
        Case {
            name: "same level: user allow, group deny",
            rules: &["allow view user:alice w:A", "deny view group:editors w:A"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "same level: group allow, user deny",
            rules: &["allow view group:staff w:A/P", "deny view user:alice w:A/P"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "same level: deny beats admin allow",
            rules: &["allow admin user:alice w:A", "deny view user:alice w:A"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        // Scopes that must not apply.
        Case {
            name: "space rule misses another space",
            rules: &["allow view user:alice w:A"],
            user: "alice",
            right: View,
            target: "w:Other/P",
            allowed: false,
        },
        Case {
            name: "space rule misses a space sharing its prefix",
            rules: &["allow view user:alice w:A"],
            user: "alice",
            right: View,
            target: "w:AB/P",
            allowed: false,
        },
        Case {
            name: "page rule misses a sibling page",
            rules: &["allow view user:alice w:A/P"],
            user: "alice",
            right: View,
            target: "w:A/Q",
            allowed: false,
        },
        Case {
            name: "page rule misses the space named like it",
            rules: &["allow view user:alice w:A/P"],
            user: "alice",
            right: View,
            target: "w:A.P/X",
            allowed: false,
        },
        Case {
            name: "rule in another wiki does not apply",
            rules: &["allow view user:alice x"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "rule for another user does not apply",
            rules: &["deny view user:bob w", "allow view user:alice w"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        // Rights are independent; admin implies the others.
        Case {
            name: "edit does not imply view",
            rules: &["allow edit user:alice w"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "view does not imply edit",
            rules: &["allow view user:alice w"],
            user: "alice",
            right: Edit,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "space admin implies delete below",
            rules: &["allow admin group:editors w:A"],
            user: "alice",
            right: Delete,
            target: "w:A.B/P",
            allowed: true,
        },
        Case {
            name: "space admin is not wiki admin",
            rules: &["allow admin user:alice w:A"],
            user: "alice",
            right: View,
            target: "w:B/P",
            allowed: false,
        },
        Case {
            name: "page deny under space admin wins (nearest)",
            rules: &["allow admin user:alice w:A", "deny edit user:alice w:A/P"],
            user: "alice",
            right: Edit,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "deny admin does not deny view",
            rules: &["allow view user:alice w", "deny admin user:alice w:A/P"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        // Wiki and farm admins.
        Case {
            name: "wiki admin overrides a page deny",
            rules: &["allow admin group:staff w", "deny view user:alice w:A/P"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "wiki admin denied admin at wiki level is no admin",
            rules: &["allow admin group:staff w", "deny admin user:alice w"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "wiki admin is not admin of another wiki",
            rules: &["allow admin user:alice w"],
            user: "alice",
            right: View,
            target: "x:A/P",
            allowed: false,
        },
        Case {
            name: "main wiki admin is farm admin",
            rules: &["allow admin user:alice main", "deny view user:alice w"],
            user: "alice",
            right: Delete,
            target: "w:A/P",
            allowed: true,
        },
        // Restriction: an allow to someone else at the deciding level excludes the rest.
        Case {
            name: "space allowed to a group excludes others",
            rules: &["allow view user:bob w", "allow view group:editors w:A"],
            user: "bob",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "restriction admits the group",
            rules: &["allow view user:bob w", "allow view group:editors w:A"],
            user: "alice",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "a deny for someone else restricts nothing",
            rules: &["allow view user:bob w", "deny view group:editors w:A"],
            user: "bob",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "restriction is per right",
            rules: &["allow view user:bob w", "allow edit group:editors w:A"],
            user: "bob",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        // The guest.
        Case {
            name: "guest allowed view",
            rules: &["allow view user:guest w"],
            user: "guest",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "guest through a group",
            rules: &[
                "allow view group:visitors w",
                "deny view group:visitors w:Private",
            ],
            user: "guest",
            right: View,
            target: "w:Private/P",
            allowed: false,
        },
        Case {
            name: "guest is never admin",
            rules: &["allow admin user:guest w"],
            user: "guest",
            right: Admin,
            target: "w",
            allowed: false,
        },
        Case {
            name: "guest admin rule implies nothing",
            rules: &["allow admin user:guest main"],
            user: "guest",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "guest denied where others allowed",
            rules: &["allow view user:alice w"],
            user: "guest",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
    ];

    #[test]
    fn truth_table() {
        let memberships = memberships();
        let mut failures = Vec::new();
        for case in CASES {
            let rules: Vec<RightRule> = case.rules.iter().map(|text| rule(text)).collect();
            let principal = Principal::new(case.user, groups_of(case.user, &memberships));
            let verdict = decide(&principal, case.right, &scope(case.target), &rules);
            if verdict.allowed != case.allowed {
                failures.push(format!(
                    "{}: expected {}, got {verdict:?}",
                    case.name, case.allowed
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn verdicts_name_what_decided() {
        let memberships = memberships();
        let alice = Principal::new("alice", groups_of("alice", &memberships));
        let target = scope("w:A/P");
        let deny = rule("deny view group:editors w:A");
        let verdict = decide(&alice, View, &target, std::slice::from_ref(&deny));
        assert_eq!(verdict.reason, Reason::Rule(deny));
        let restricted = decide(&alice, Edit, &target, &[rule("allow edit user:bob w:A")]);
        assert_eq!(restricted.reason, Reason::RestrictedToOthers(scope("w:A")));
        let farm = decide(
            &alice,
            Admin,
            &scope("x"),
            &[rule("allow admin user:alice main")],
        );
        assert_eq!(farm, allowed(Reason::FarmAdmin));
        let wiki = decide(
            &alice,
            Admin,
            &scope("w"),
            &[rule("allow admin user:alice w")],
        );
        assert_eq!(wiki, allowed(Reason::WikiAdmin));
        assert_eq!(decide(&alice, View, &target, &[]), denied(Reason::NoRule));
        let guest = Principal::new(GUEST_USER, BTreeSet::new());
        assert_eq!(
            decide(&guest, Admin, &scope("w"), &[]),
            denied(Reason::GuestNeverAdmin)
        );
    }
}
