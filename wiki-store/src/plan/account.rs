//! Accounts: users, groups, memberships, API tokens and rights rules, as far as a rule decides.
//!
//! The guest always exists and cannot be created, deleted or given a token; the all-users group
//! always exists, lists every registered user and cannot be created or given members; a rule or
//! a membership names only subjects that exist. Every account write queues
//! [`accounts_changed`] (rights writes queue [`rights_changed`]), so servers drop what they
//! cached: rights snapshots and token resolutions.

use crate::error::{Entity, InvalidInput};
use crate::model::change::ChangeKind;
use crate::model::rights::{Right, RightScope, Subject};
use crate::model::token::TokenScope;
use crate::model::user::{ALL_USERS_GROUP, GUEST_USER, Group, User, validate_principal_name};
use crate::model::wiki::WikiId;
use crate::plan::text::check_label;
use crate::stored::{from_ms, to_ms};
use crate::{Result, StoreError};
use time::OffsetDateTime;

/// The longest display name, in characters.
const MAX_DISPLAY_NAME: usize = 255;

/// The longest token label, in characters.
const MAX_TOKEN_LABEL: usize = 100;

/// Checks a new user before any transaction; returns the display name to store (trimmed, `None`
/// when blank).
pub(crate) fn validate_new_user<'d>(
    name: &str,
    display_name: Option<&'d str>,
) -> Result<Option<&'d str>> {
    validate_principal_name("user name", name)?;
    refuse_guest(name)?;
    let display_name = display_name.map(str::trim).filter(|d| !d.is_empty());
    if let Some(display) = display_name {
        check_label("display name", display, MAX_DISPLAY_NAME)?;
    }
    Ok(display_name)
}

/// Refuses the guest, which is built in (creating, deleting or giving it a token).
pub(crate) fn refuse_guest(user: &str) -> Result<()> {
    if user == GUEST_USER {
        return Err(InvalidInput::GuestIsBuiltIn.into());
    }
    Ok(())
}

/// Checks a new group before any transaction.
pub(crate) fn validate_new_group(name: &str) -> Result<()> {
    validate_principal_name("group name", name)?;
    refuse_all_users(name)
}

/// Refuses the built-in all-users group as a group to create or to add members to: every
/// registered user is in it.
pub(crate) fn refuse_all_users(group: &str) -> Result<()> {
    if group == ALL_USERS_GROUP {
        return Err(InvalidInput::Name {
            what: "group name",
            reason: format!("{ALL_USERS_GROUP} is built in: every registered user is a member"),
        }
        .into());
    }
    Ok(())
}

/// The refusal of a user name that is taken.
pub(crate) fn user_exists(name: &str) -> StoreError {
    StoreError::AlreadyExists {
        entity: Entity::User,
        key: name.to_owned(),
    }
}

/// The refusal of a group name that is taken.
pub(crate) fn group_exists(name: &str) -> StoreError {
    StoreError::AlreadyExists {
        entity: Entity::Group,
        key: name.to_owned(),
    }
}

/// The refusal of a membership removal for a subject that was not a member.
pub(crate) fn not_a_member(group: &str, member: &Subject) -> StoreError {
    StoreError::not_found(Entity::Membership, format!("{member} in group {group}"))
}

/// Which stored account a statement is about: the `kind` column of memberships and rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Account {
    User,
    Group,
}

impl Account {
    /// The stored kind ([`crate::stored::subject_parts`]'s).
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Account::User => "user",
            Account::Group => "group",
        }
    }
}

/// Refuses a subject that does not exist, asking `stored` only about stored accounts (the
/// guest and the all-users group always exist).
pub(crate) fn require_subject(
    subject: &Subject,
    stored: impl FnOnce(Account, &str) -> Result<bool>,
) -> Result<()> {
    let (account, name) = match subject {
        Subject::User(name) if name == GUEST_USER => return Ok(()),
        Subject::Group(name) if name == ALL_USERS_GROUP => return Ok(()),
        Subject::User(name) => (Account::User, name),
        Subject::Group(name) => (Account::Group, name),
    };
    match (stored(account, name)?, account) {
        (true, _) => Ok(()),
        (false, Account::User) => Err(unknown_user(name)),
        (false, Account::Group) => Err(unknown_group(name)),
    }
}

/// The user called `name` when it is built in (the guest), so a backend never looks it up.
pub(crate) fn built_in_user(name: &str) -> Option<User> {
    (name == GUEST_USER).then(User::guest)
}

/// The built-in all-users group: every registered user (`users`, sorted), no stored members.
pub(crate) fn all_users_group(users: Vec<String>) -> Group {
    Group {
        name: ALL_USERS_GROUP.to_owned(),
        users,
        groups: Vec::new(),
    }
}

/// A stored group from its direct members as stored `(kind, name)`, each kind's names in order.
pub(crate) fn group_of(name: &str, members: impl IntoIterator<Item = (String, String)>) -> Group {
    let mut group = Group {
        name: name.to_owned(),
        users: Vec::new(),
        groups: Vec::new(),
    };
    for (kind, member) in members {
        match crate::stored::subject_of(&kind, member) {
            Subject::Group(member) => group.groups.push(member),
            Subject::User(member) => group.users.push(member),
        }
    }
    group
}

/// Every group as listed: the stored ones (sorted by name) with the built-in all-users group in
/// its place among them.
pub(crate) fn with_all_users(mut groups: Vec<Group>, all_users: Group) -> Vec<Group> {
    let at = groups.partition_point(|group| group.name.as_str() < ALL_USERS_GROUP);
    groups.insert(at, all_users);
    groups
}

/// The refusal of a lookup, deletion or token for a user that does not exist.
pub(crate) fn unknown_user(name: &str) -> StoreError {
    StoreError::not_found(Entity::User, name)
}

/// The refusal of a lookup or change of a group that does not exist.
pub(crate) fn unknown_group(name: &str) -> StoreError {
    StoreError::not_found(Entity::Group, name)
}

/// The refusal of a revocation of a token that does not exist.
pub(crate) fn unknown_token(prefix: &str) -> StoreError {
    StoreError::not_found(Entity::Token, prefix)
}

/// The refusal of a removal of a rights rule that does not exist.
pub(crate) fn unknown_rule(scope: &RightScope, subject: &Subject, right: Right) -> StoreError {
    StoreError::not_found(Entity::Right, format!("{right} for {subject} on {scope}"))
}

/// Checks a token request before any transaction; returns the label to store (trimmed).
pub(crate) fn validate_token_request<'l>(user: &str, label: &'l str) -> Result<&'l str> {
    refuse_guest(user)?;
    let label = label.trim();
    check_label("token label", label, MAX_TOKEN_LABEL)?;
    Ok(label)
}

/// The most names a token's tool or wiki list may hold.
const MAX_SCOPE_NAMES: usize = 200;
/// The longest tool or category name in a token's scope, in characters.
const MAX_SCOPE_NAME: usize = 100;

/// Checks a new token's scope at `now`: lists trimmed, deduplicated and sorted, never empty
/// (an empty list would make a token that can do nothing), names without commas or control
/// characters, wiki ids valid, an expiry in the future (kept to the millisecond).
pub(crate) fn validate_token_scope(scope: &TokenScope, now: OffsetDateTime) -> Result<TokenScope> {
    let refuse = |reason: String| StoreError::Invalid(InvalidInput::TokenScope { reason });
    let names = |list: &Option<Vec<String>>, what: &str| -> Result<Option<Vec<String>>> {
        let Some(list) = list else {
            return Ok(None);
        };
        let mut names: Vec<String> = list
            .iter()
            .map(|name| name.trim().to_owned())
            .filter(|name| !name.is_empty())
            .collect();
        names.sort();
        names.dedup();
        if names.is_empty() {
            return Err(refuse(format!("the {what} list is empty")));
        }
        if names.len() > MAX_SCOPE_NAMES {
            return Err(refuse(format!("more than {MAX_SCOPE_NAMES} {what}s")));
        }
        if let Some(bad) = names.iter().find(|name| {
            name.chars().count() > MAX_SCOPE_NAME
                || name.chars().any(|c| c == ',' || c.is_control())
        }) {
            return Err(refuse(format!(
                "the {what} `{}` is not a name",
                bad.chars().take(40).collect::<String>()
            )));
        }
        Ok(Some(names))
    };
    let tools = names(&scope.tools, "tool")?;
    let wikis = names(&scope.wikis, "wiki")?;
    if let Some(bad) = wikis
        .iter()
        .flatten()
        .find(|wiki| WikiId::new(wiki.as_str()).is_err())
    {
        return Err(refuse(format!("`{bad}` is not a wiki id")));
    }
    if scope.expires.is_some_and(|expires| expires <= now) {
        return Err(refuse("its expiry is not in the future".to_owned()));
    }
    Ok(TokenScope {
        read_only: scope.read_only,
        tools,
        wikis,
        // To the millisecond, as stored: the issued token lists as it will be read back.
        expires: scope.expires.map(|expires| from_ms(to_ms(expires))),
    })
}

/// The event of any write to users, groups, memberships or tokens (farm-wide, on the main wiki).
pub(crate) fn accounts_changed() -> (WikiId, ChangeKind) {
    (WikiId::main(), ChangeKind::AccountsChanged)
}

/// The event of a write to the rights rules of `wiki`.
pub(crate) fn rights_changed(wiki: &WikiId) -> (WikiId, ChangeKind) {
    (wiki.clone(), ChangeKind::RightsChanged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_scope_is_normalized_and_an_empty_list_or_a_past_expiry_refused() {
        let now = OffsetDateTime::now_utc();
        let scope = TokenScope {
            read_only: true,
            tools: Some(vec![" get_tree".into(), "man".into(), "get_tree".into()]),
            wikis: Some(vec!["main".into()]),
            expires: Some(now + time::Duration::days(1)),
        };
        let checked = validate_token_scope(&scope, now).unwrap();
        assert_eq!(checked.tools, Some(vec!["get_tree".into(), "man".into()]));
        for bad in [
            TokenScope {
                tools: Some(vec![" ".into()]),
                ..TokenScope::full()
            },
            TokenScope {
                wikis: Some(vec!["Not A Wiki".into()]),
                ..TokenScope::full()
            },
            TokenScope {
                tools: Some(vec!["a,b".into()]),
                ..TokenScope::full()
            },
            TokenScope {
                expires: Some(now),
                ..TokenScope::full()
            },
        ] {
            assert!(
                matches!(
                    validate_token_scope(&bad, now),
                    Err(StoreError::Invalid(InvalidInput::TokenScope { .. }))
                ),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn built_in_principals_are_refused_as_new_ones() {
        assert!(matches!(
            validate_new_user(GUEST_USER, None),
            Err(StoreError::Invalid(InvalidInput::GuestIsBuiltIn))
        ));
        assert!(validate_new_group(ALL_USERS_GROUP).is_err());
        assert_eq!(validate_new_user("alice", Some("  ")).ok(), Some(None));
        assert_eq!(
            validate_new_user("alice", Some(" Alice ")).ok(),
            Some(Some("Alice"))
        );
        assert!(validate_new_user("alice", Some("A\u{7}")).is_err());
        assert!(validate_token_request(GUEST_USER, "x").is_err());
        assert_eq!(validate_token_request("alice", " ci ").ok(), Some("ci"));
    }

    #[test]
    fn the_all_users_group_is_listed_in_its_place() {
        let stored = |name: &str| {
            group_of(
                name,
                [
                    ("user".into(), "bob".into()),
                    ("group".into(), "inner".into()),
                ],
            )
        };
        let listed = with_all_users(
            vec![stored("admins"), stored("zeta")],
            all_users_group(vec!["alice".into()]),
        );
        let names: Vec<&str> = listed.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["admins", ALL_USERS_GROUP, "zeta"]);
        assert_eq!(
            (listed[0].users.as_slice(), listed[0].groups.as_slice()),
            (&["bob".to_owned()][..], &["inner".to_owned()][..])
        );
        assert_eq!(built_in_user(GUEST_USER), Some(User::guest()));
        assert_eq!(built_in_user("alice"), None);
    }

    #[test]
    fn built_in_subjects_exist_without_asking_the_backend() {
        let never =
            |_: Account, _: &str| -> Result<bool> { panic!("no lookup for a built-in subject") };
        assert!(require_subject(&Subject::User(GUEST_USER.into()), never).is_ok());
        assert!(require_subject(&Subject::Group(ALL_USERS_GROUP.into()), never).is_ok());
        assert!(matches!(
            require_subject(&Subject::User("bob".into()), |_, _| Ok(false)),
            Err(StoreError::NotFound {
                entity: Entity::User,
                ..
            })
        ));
        let group_g = |account, name: &str| Ok(account == Account::Group && name == "g");
        assert!(require_subject(&Subject::Group("g".into()), group_g).is_ok());
    }
}
