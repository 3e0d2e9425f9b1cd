//! `wiki-mcp group create|list|delete|add|remove`.

use anyhow::{Result, bail};
use wiki_store::model::rights::Subject;

use wiki_server::accounts::AccountChange;

use super::database::FarmTarget;

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Create an empty group.
    Create {
        /// The group name.
        name: String,
    },
    /// List groups with their direct members.
    List,
    /// Delete a group.
    Delete {
        /// The group name.
        name: String,
    },
    /// Add a user or a group to a group.
    Add(Membership),
    /// Remove a user or a group from a group.
    Remove(Membership),
}

#[derive(Debug, clap::Args)]
pub(crate) struct Membership {
    /// The group.
    group: String,
    /// The member user.
    #[arg(
        long,
        conflicts_with = "member_group",
        required_unless_present = "member_group"
    )]
    user: Option<String>,
    /// The member group.
    #[arg(long = "group", id = "member_group")]
    member_group: Option<String>,
}

impl Membership {
    fn subject(&self) -> Result<Subject> {
        match (&self.user, &self.member_group) {
            (Some(user), _) => Ok(Subject::User(user.clone())),
            (None, Some(group)) => Ok(Subject::Group(group.clone())),
            (None, None) => bail!("name the member with --user or --group"),
        }
    }
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Create { name } => super::change(&*store, AccountChange::CreateGroup { name })?,
        Command::List => {
            for group in store.list_groups()? {
                let mut members: Vec<String> = group.users.clone();
                members.extend(group.groups.iter().map(|g| format!("group:{g}")));
                println!("{}: {}", group.name, members.join(", "));
            }
        }
        Command::Delete { name } => super::change(&*store, AccountChange::DeleteGroup { name })?,
        Command::Add(membership) => {
            let member = membership.subject()?;
            let group = membership.group;
            super::change(&*store, AccountChange::AddMember { group, member })?;
        }
        Command::Remove(membership) => {
            let member = membership.subject()?;
            let group = membership.group;
            super::change(&*store, AccountChange::RemoveMember { group, member })?;
        }
    }
    Ok(())
}
