//! Properties of the resolver over random farms: what must hold whatever the rules are.

use proptest::prelude::*;

use crate::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use crate::model::user::GUEST_USER;
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};
use crate::rights::{GroupMembership, Reason, RightsSnapshot};

const USERS: [&str; 3] = ["alice", "bob", GUEST_USER];
const GROUPS: [&str; 3] = ["editors", "staff", "all-users"];

fn wiki(index: usize) -> WikiId {
    WikiId::new(["main", "dev"][index % 2]).unwrap()
}

/// Scopes on a small tree, so random rules often land on the target's chain.
fn scope_strategy() -> impl Strategy<Value = RightScope> {
    (0..2usize, 0..4usize, 0..2usize).prop_map(|(w, level, page)| {
        let wiki = wiki(w);
        let space = |path: &str| SpacePath::parse(path).unwrap();
        match level {
            0 => RightScope::Wiki(wiki),
            1 => RightScope::Space {
                wiki,
                space: space("A"),
            },
            2 => RightScope::Space {
                wiki,
                space: space("A.B"),
            },
            _ => RightScope::Page(
                DocumentReference::new(wiki, space("A.B"), ["P", "Q"][page]).unwrap(),
            ),
        }
    })
}

fn subject_strategy() -> impl Strategy<Value = Subject> {
    prop_oneof![
        (0..USERS.len()).prop_map(|i| Subject::User(USERS[i].to_owned())),
        (0..GROUPS.len()).prop_map(|i| Subject::Group(GROUPS[i].to_owned())),
    ]
}

fn right_strategy() -> impl Strategy<Value = Right> {
    (0..4usize).prop_map(|i| Right::ALL[i])
}

fn rule_strategy() -> impl Strategy<Value = RightRule> {
    (
        scope_strategy(),
        subject_strategy(),
        right_strategy(),
        any::<bool>(),
    )
        .prop_map(|(scope, subject, right, allow)| RightRule {
            scope,
            subject,
            right,
            effect: if allow { Effect::Allow } else { Effect::Deny },
        })
}

fn memberships() -> Vec<GroupMembership> {
    vec![
        GroupMembership {
            group: "editors".into(),
            member: Subject::User("alice".into()),
        },
        GroupMembership {
            group: "staff".into(),
            member: Subject::Group("editors".into()),
        },
        GroupMembership {
            group: "editors".into(),
            member: Subject::Group("staff".into()),
        },
    ]
}

fn snapshot(rules: Vec<RightRule>) -> RightsSnapshot {
    RightsSnapshot::new(rules, memberships(), ["alice".to_owned(), "bob".to_owned()])
}

fn target() -> RightScope {
    RightScope::Page(
        DocumentReference::new(wiki(1), SpacePath::parse("A.B").unwrap(), "P").unwrap(),
    )
}

proptest! {
    #[test]
    fn the_order_rules_are_stored_in_never_matters(
        rules in proptest::collection::vec(rule_strategy(), 0..12),
        user in 0..USERS.len(),
        right in right_strategy(),
    ) {
        let mut reversed = rules.clone();
        reversed.reverse();
        let (forward, backward) = (snapshot(rules), snapshot(reversed));
        let user = USERS[user];
        prop_assert_eq!(
            forward.can(user, right, &target()),
            backward.can(user, right, &target())
        );
    }

    #[test]
    fn a_farm_admin_can_do_everything_everywhere(
        rules in proptest::collection::vec(rule_strategy(), 0..12),
        right in right_strategy(),
        scope in scope_strategy(),
    ) {
        let mut rules: Vec<RightRule> = rules
            .into_iter()
            .filter(|r| !(r.scope == RightScope::Wiki(WikiId::main()) && r.right == Right::Admin && r.effect == Effect::Deny))
            .collect();
        rules.push(RightRule {
            scope: RightScope::Wiki(WikiId::main()),
            subject: Subject::User("bob".into()),
            right: Right::Admin,
            effect: Effect::Allow,
        });
        let snapshot = snapshot(rules);
        let verdict = snapshot.decide(&snapshot.principal("bob"), right, &scope);
        prop_assert!(verdict.allowed);
        prop_assert_eq!(verdict.reason, Reason::FarmAdmin);
    }

    #[test]
    fn a_users_own_deny_on_the_page_wins_unless_they_administer_the_wiki(
        rules in proptest::collection::vec(rule_strategy(), 0..12),
        user in 0..2usize,
        right in right_strategy(),
    ) {
        let user = USERS[user];
        let mut rules = rules;
        rules.push(RightRule {
            scope: target(),
            subject: Subject::User(user.to_owned()),
            right,
            effect: Effect::Deny,
        });
        let snapshot = snapshot(rules);
        let verdict = snapshot.decide(&snapshot.principal(user), right, &target());
        let admin = matches!(verdict.reason, Reason::FarmAdmin | Reason::WikiAdmin);
        prop_assert_eq!(verdict.allowed, admin, "{:?}", verdict);
    }

    #[test]
    fn the_guest_is_never_an_admin(rules in proptest::collection::vec(rule_strategy(), 0..16), scope in scope_strategy()) {
        prop_assert!(!snapshot(rules).can(GUEST_USER, Right::Admin, &scope));
    }

    #[test]
    fn nothing_is_allowed_without_an_allow_rule(
        rules in proptest::collection::vec(rule_strategy(), 0..12),
        user in 0..USERS.len(),
        right in right_strategy(),
    ) {
        let denies: Vec<RightRule> = rules.into_iter().filter(|r| r.effect == Effect::Deny).collect();
        prop_assert!(!snapshot(denies).can(USERS[user], right, &target()));
    }
}
