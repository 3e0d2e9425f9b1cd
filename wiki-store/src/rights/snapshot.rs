//! A farm's rights loaded once: rules indexed by scope and group memberships, answering any
//! number of questions without going back to storage.
//!
//! Doors authorize every row of a search or an object query, so they take one snapshot per
//! request (or cache one per change sequence value) instead of querying rules per row.

use std::collections::{HashMap, HashSet};

use crate::model::rights::{Right, RightRule, RightScope, Subject};
use crate::model::user::ALL_USERS_GROUP;
use crate::rights::groups::{GroupMembership, groups_from};
use crate::rights::resolve::{Principal, Verdict, decide};

/// Every rule and membership of the farm at one point in time.
#[derive(Debug, Clone, Default)]
pub struct RightsSnapshot {
    by_scope: HashMap<RightScope, Vec<RightRule>>,
    memberships: Vec<GroupMembership>,
    registered: HashSet<String>,
}

impl RightsSnapshot {
    /// Indexes `rules` by scope; `registered` are the registered users' names (members of the
    /// implicit [`ALL_USERS_GROUP`]).
    pub fn new(
        rules: impl IntoIterator<Item = RightRule>,
        memberships: Vec<GroupMembership>,
        registered: impl IntoIterator<Item = String>,
    ) -> Self {
        let mut by_scope: HashMap<RightScope, Vec<RightRule>> = HashMap::new();
        for rule in rules {
            by_scope.entry(rule.scope.clone()).or_default().push(rule);
        }
        RightsSnapshot {
            by_scope,
            memberships,
            registered: registered.into_iter().collect(),
        }
    }

    /// `user` with every group they belong to, nested groups included: a registered user is also
    /// in [`ALL_USERS_GROUP`] and in every group that contains it; the guest never is.
    pub fn principal(&self, user: &str) -> Principal {
        let mut start = vec![Subject::User(user.to_owned())];
        let registered = self.registered.contains(user);
        if registered {
            start.push(Subject::Group(ALL_USERS_GROUP.to_owned()));
        }
        let mut groups = groups_from(start, &self.memberships);
        if registered {
            groups.insert(ALL_USERS_GROUP.to_owned());
        }
        Principal::new(user, groups)
    }

    /// The verdict for `principal` (from [`RightsSnapshot::principal`]) on `target`, with its reason.
    pub fn decide(&self, principal: &Principal, right: Right, target: &RightScope) -> Verdict {
        decide(principal, right, target, |scope| {
            self.by_scope
                .get(scope)
                .map(Vec::as_slice)
                .unwrap_or_default()
        })
    }

    /// Whether `user` may exercise `right` on `target`.
    pub fn can(&self, user: &str, right: Right, target: &RightScope) -> bool {
        self.decide(&self.principal(user), right, target).allowed
    }

    /// The verdict on each right for `user` at `target`, in [`Right::ALL`] order (for an admin's
    /// "effective rights" view).
    pub fn effective(&self, user: &str, target: &RightScope) -> Vec<(Right, Verdict)> {
        let principal = self.principal(user);
        Right::ALL
            .into_iter()
            .map(|right| (right, self.decide(&principal, right, target)))
            .collect()
    }

    /// Every rule, in no particular order.
    pub fn rules(&self) -> impl Iterator<Item = &RightRule> {
        self.by_scope.values().flatten()
    }

    /// Every group membership.
    pub fn memberships(&self) -> &[GroupMembership] {
        &self.memberships
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rights::Subject;
    use crate::model::user::GUEST_USER;
    use crate::model::wiki::WikiId;
    use crate::reference::{DocumentReference, SpacePath};
    use crate::rights::resolve::{allowed, denied};
    use crate::rights::{Reason, Right};

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
            member("members", Subject::Group(ALL_USERS_GROUP.into())),
        ]
    }

    fn snapshot(rules: &[&str]) -> RightsSnapshot {
        RightsSnapshot::new(
            rules.iter().map(|text| rule(text)),
            memberships(),
            ["alice".to_owned(), "bob".to_owned()],
        )
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
        // The implicit all-users group.
        Case {
            name: "all-users covers every registered user",
            rules: &["allow view group:all-users w"],
            user: "bob",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "all-users excludes the guest",
            rules: &["allow view group:all-users w"],
            user: "guest",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "all-users excludes unregistered names",
            rules: &["allow view group:all-users w"],
            user: "carol",
            right: View,
            target: "w:A/P",
            allowed: false,
        },
        Case {
            name: "a group containing all-users",
            rules: &["allow edit group:members w:A"],
            user: "bob",
            right: Edit,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "guest plus all-users reads for everyone",
            rules: &["allow view user:guest w", "allow view group:all-users w"],
            user: "bob",
            right: View,
            target: "w:A/P",
            allowed: true,
        },
        Case {
            name: "guest alone restricts registered users",
            rules: &["allow view user:guest w"],
            user: "bob",
            right: View,
            target: "w:A/P",
            allowed: false,
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
        let mut failures = Vec::new();
        for case in CASES {
            let snapshot = snapshot(case.rules);
            let verdict = snapshot.decide(
                &snapshot.principal(case.user),
                case.right,
                &scope(case.target),
            );
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
        let target = scope("w:A/P");
        let ask = |rules: &[&str], user: &str, right: Right, target: &RightScope| {
            let snapshot = snapshot(rules);
            snapshot.decide(&snapshot.principal(user), right, target)
        };
        let verdict = ask(&["deny view group:editors w:A"], "alice", View, &target);
        assert_eq!(
            verdict.reason,
            Reason::Rule(rule("deny view group:editors w:A"))
        );
        let restricted = ask(&["allow edit user:bob w:A"], "alice", Edit, &target);
        assert_eq!(restricted.reason, Reason::RestrictedToOthers(scope("w:A")));
        let farm = ask(
            &["allow admin user:alice main"],
            "alice",
            Admin,
            &scope("x"),
        );
        assert_eq!(farm, allowed(Reason::FarmAdmin));
        let wiki = ask(&["allow admin user:alice w"], "alice", Admin, &scope("w"));
        assert_eq!(wiki, allowed(Reason::WikiAdmin));
        assert_eq!(ask(&[], "alice", View, &target), denied(Reason::NoRule));
        let guest = ask(
            &["allow admin user:guest w"],
            GUEST_USER,
            Admin,
            &scope("w"),
        );
        assert_eq!(guest, denied(Reason::GuestNeverAdmin));
    }

    #[test]
    fn the_snapshot_lists_rules_and_answers_by_user_name() {
        let snapshot = snapshot(&["allow view user:alice w", "deny edit group:staff w:A"]);
        assert_eq!(snapshot.rules().count(), 2);
        assert!(snapshot.can("alice", View, &scope("w:B/P")));
        assert!(!snapshot.can("bob", View, &scope("w:B/P")));
        assert!(snapshot.principal("alice").groups().contains("loop"));
        let effective: Vec<(Right, bool)> = snapshot
            .effective("alice", &scope("w:A/P"))
            .into_iter()
            .map(|(right, verdict)| (right, verdict.allowed))
            .collect();
        assert_eq!(
            effective,
            [(View, true), (Edit, false), (Delete, false), (Admin, false)]
        );
    }
}
