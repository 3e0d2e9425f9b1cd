//! Group membership closure: every group a user is in, through any depth of nesting.

use std::collections::{BTreeSet, VecDeque};

use crate::model::rights::Subject;

/// One stored membership: `member` (a user or another group) belongs to `group`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupMembership {
    /// The group.
    pub group: String,
    /// The member: a user, or a group whose members then belong to `group` too.
    pub member: Subject,
}

/// Every group `user` belongs to, directly or through nested groups.
///
/// A breadth-first walk that visits each group once, so membership cycles (A in B, B in A) end
/// instead of looping; a group in a cycle is simply a member of itself.
pub fn groups_of(user: &str, memberships: &[GroupMembership]) -> BTreeSet<String> {
    groups_from(vec![Subject::User(user.to_owned())], memberships)
}

/// Every group reachable from `members` (which may include groups the caller already counts as
/// joined, such as the implicit all-users group).
pub(crate) fn groups_from(
    members: Vec<Subject>,
    memberships: &[GroupMembership],
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut queue: VecDeque<Subject> = VecDeque::from(members);
    while let Some(member) = queue.pop_front() {
        for membership in memberships.iter().filter(|m| m.member == member) {
            if found.insert(membership.group.clone()) {
                queue.push_back(Subject::Group(membership.group.clone()));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member_of(group: &str, member: Subject) -> GroupMembership {
        GroupMembership {
            group: group.to_owned(),
            member,
        }
    }

    #[test]
    fn nested_groups_are_followed_to_any_depth() {
        let memberships = [
            member_of("editors", Subject::User("alice".into())),
            member_of("staff", Subject::Group("editors".into())),
            member_of("everyone", Subject::Group("staff".into())),
            member_of("other", Subject::User("bob".into())),
        ];
        let groups = groups_of("alice", &memberships);
        assert_eq!(
            groups.into_iter().collect::<Vec<_>>(),
            ["editors", "everyone", "staff"]
        );
        assert!(groups_of("carol", &memberships).is_empty());
    }

    #[test]
    fn membership_cycles_terminate() {
        let memberships = [
            member_of("a", Subject::User("alice".into())),
            member_of("b", Subject::Group("a".into())),
            member_of("a", Subject::Group("b".into())),
        ];
        let groups = groups_of("alice", &memberships);
        assert_eq!(groups.into_iter().collect::<Vec<_>>(), ["a", "b"]);
    }

    #[test]
    fn a_group_and_a_user_with_one_name_are_different_members() {
        let memberships = [member_of("staff", Subject::Group("alice".into()))];
        assert!(groups_of("alice", &memberships).is_empty());
    }
}
