//! `wiki-mcp rights allow|deny|remove|list|effective`.

use anyhow::{Result, bail};
use wiki_server::accounts::{self, AccountChange};
use wiki_store::model::rights::{Effect, RightRule, RightScope, Subject};

use super::database::FarmTarget;
use super::existing_wiki;

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Allow a right to a user or group on a wiki, space or page.
    Allow(Rule),
    /// Deny a right to a user or group on a wiki, space or page.
    Deny(Rule),
    /// Remove the rule for this right, subject and place.
    Remove(Rule),
    /// List the rules stored in a wiki.
    List {
        /// The wiki.
        #[arg(long)]
        wiki: String,
    },
    /// Show a user's effective rights on a wiki, space or page, and what decided each.
    Effective {
        /// The user (`guest` for requests without credentials).
        #[arg(long)]
        user: String,
        #[command(flatten)]
        place: Place,
    },
}

/// Where a rule applies: the wiki, or a space or page in it.
#[derive(Debug, clap::Args)]
pub(crate) struct Place {
    /// The wiki.
    #[arg(long)]
    wiki: String,
    /// A space (`Space.Sub`); the rule covers its pages and nested spaces.
    #[arg(long, conflicts_with = "page")]
    space: Option<String>,
    /// A page (`Space.Page`).
    #[arg(long)]
    page: Option<String>,
}

#[derive(Debug, clap::Args)]
pub(crate) struct Rule {
    /// view, edit, delete or admin.
    right: String,
    #[command(flatten)]
    place: Place,
    /// The user the rule is about.
    #[arg(long, conflicts_with = "group")]
    user: Option<String>,
    /// The group the rule is about.
    #[arg(long)]
    group: Option<String>,
}

impl Place {
    fn scope(&self, store: &dyn wiki_store::Store) -> Result<RightScope> {
        Ok(accounts::rule_scope(
            store,
            &self.wiki,
            self.space.as_deref(),
            self.page.as_deref(),
        )?)
    }
}

impl Rule {
    fn subject(&self) -> Result<Subject> {
        match (&self.user, &self.group) {
            (Some(user), _) => Ok(Subject::User(user.clone())),
            (None, Some(group)) => Ok(Subject::Group(group.clone())),
            (None, None) => bail!("name who the rule is about with --user or --group"),
        }
    }
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Allow(rule) => set(&*store, &rule, Effect::Allow)?,
        Command::Deny(rule) => set(&*store, &rule, Effect::Deny)?,
        Command::Remove(rule) => {
            let change = AccountChange::RemoveRight {
                scope: rule.place.scope(&*store)?,
                subject: rule.subject()?,
                right: accounts::parse_right(&rule.right)?,
            };
            super::change(&*store, change)?;
        }
        Command::List { wiki } => {
            let wiki = existing_wiki(&*store, &wiki)?;
            for rule in store.list_rights(&wiki)? {
                println!(
                    "{} {} to {} on {}",
                    rule.effect, rule.right, rule.subject, rule.scope
                );
            }
        }
        Command::Effective { user, place } => {
            let scope = place.scope(&*store)?;
            let snapshot = store.rights_snapshot()?;
            println!("Rights of {user} on {scope}:");
            for (right, verdict) in snapshot.effective(&user, &scope) {
                let answer = if verdict.allowed { "allowed" } else { "denied" };
                println!(
                    "  {right:<6} {answer:<7} ({})",
                    accounts::explain(&verdict.reason)
                );
            }
        }
    }
    Ok(())
}

fn set(store: &dyn wiki_store::Store, rule: &Rule, effect: Effect) -> Result<()> {
    let rule = RightRule {
        scope: rule.place.scope(store)?,
        subject: rule.subject()?,
        right: accounts::parse_right(&rule.right)?,
        effect,
    };
    super::change(store, AccountChange::SetRight(rule))
}
