//! `wiki-mcp rights allow|deny|remove|list|effective`.

use anyhow::{Context, Result, bail};
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::{DocumentReference, SpacePath};
use wiki_store::rights::Reason;

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
    fn scope(&self, wiki: WikiId) -> Result<RightScope> {
        Ok(match (&self.space, &self.page) {
            (Some(space), _) => RightScope::Space {
                space: SpacePath::parse(space)
                    .with_context(|| format!("invalid space `{space}`"))?,
                wiki,
            },
            (None, Some(page)) => RightScope::Page(
                DocumentReference::parse(page, &wiki)
                    .with_context(|| format!("invalid page `{page}`"))?,
            ),
            (None, None) => RightScope::Wiki(wiki),
        })
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

    fn right(&self) -> Result<Right> {
        self.right.parse().with_context(|| {
            format!(
                "`{}` is not a right (view, edit, delete, admin)",
                self.right
            )
        })
    }
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Allow(rule) => set(&*store, &rule, Effect::Allow)?,
        Command::Deny(rule) => set(&*store, &rule, Effect::Deny)?,
        Command::Remove(rule) => {
            let wiki = existing_wiki(&*store, &rule.place.wiki)?;
            let scope = rule.place.scope(wiki)?;
            let subject = rule.subject()?;
            let right = rule.right()?;
            store
                .remove_right(&scope, &subject, right)
                .with_context(|| {
                    format!("cannot remove the {right} rule of {subject} on {scope}")
                })?;
            println!("Removed the {right} rule of {subject} on {scope}");
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
            let wiki = existing_wiki(&*store, &place.wiki)?;
            let scope = place.scope(wiki)?;
            let snapshot = store.rights_snapshot()?;
            let principal = snapshot.principal(&user);
            println!("Rights of {user} on {scope}:");
            for right in Right::ALL {
                let verdict = snapshot.decide(&principal, right, &scope);
                let answer = if verdict.allowed { "allowed" } else { "denied" };
                println!("  {right:<6} {answer:<7} ({})", reason(&verdict.reason));
            }
        }
    }
    Ok(())
}

fn set(store: &dyn wiki_store::Store, rule: &Rule, effect: Effect) -> Result<()> {
    let wiki = existing_wiki(store, &rule.place.wiki)?;
    let rule = RightRule {
        scope: rule.place.scope(wiki)?,
        subject: rule.subject()?,
        right: rule.right()?,
        effect,
    };
    store
        .set_right(&rule)
        .with_context(|| format!("cannot {effect} {} to {}", rule.right, rule.subject))?;
    println!(
        "{effect} {} to {} on {}",
        rule.right, rule.subject, rule.scope
    );
    Ok(())
}

fn reason(reason: &Reason) -> String {
    match reason {
        Reason::FarmAdmin => "farm admin".to_owned(),
        Reason::WikiAdmin => "wiki admin".to_owned(),
        Reason::Rule(rule) => format!(
            "{} {} to {} on {}",
            rule.effect, rule.right, rule.subject, rule.scope
        ),
        Reason::RestrictedToOthers(scope) => format!("{scope} allows it to others only"),
        Reason::GuestNeverAdmin => "the guest is never an admin".to_owned(),
        Reason::NoRule => "no rule: denied by default".to_owned(),
    }
}
