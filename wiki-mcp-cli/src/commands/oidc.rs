//! `wiki-mcp oidc adopt`: moving a farm whose OIDC tokens signed in the user their claim named
//! onto identity links, once.
//!
//! A server binds each token to its issuer and subject, and a farm made before it knows no
//! subject: the administrator decides, once, which existing users a token of each issuer may
//! claim by name at its next sign-in (each user once, within `--days`), or that nobody may
//! (`--none`: people are linked with `wiki-mcp user link`). Users who administer the farm or a
//! wiki are left out unless named: a provider that lets people choose the claim would let
//! anyone claim an administrator's name first. Until this runs, `serve` with an issuer refuses
//! to start on such a farm, naming this command.

use std::collections::BTreeSet;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use wiki_store::Store;
use wiki_store::model::rights::{Right, RightScope};

use super::database::FarmTarget;
use super::user::issuer_key;

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Let a token of each ISSUER claim, once, the existing user its claim names: lists who
    /// (administrators are left out unless named with --user), and does it with --yes.
    Adopt(AdoptArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct AdoptArgs {
    /// An issuer the server accepts tokens of (as `serve --oidc-issuer` names it). Repeatable.
    #[arg(long = "issuer", value_name = "URL", required = true)]
    issuers: Vec<String>,
    /// Only these users (administrators included when named). Repeatable; default: every
    /// user who administers nothing and has no link at the issuer yet.
    #[arg(long = "user", value_name = "NAME", conflicts_with = "none")]
    users: Vec<String>,
    /// Let no token claim a user by name: every person is linked with `wiki-mcp user link`
    /// (or gets a new user with `serve --oidc-create-users`).
    #[arg(long)]
    none: bool,
    /// How long the users wait to be claimed, in days.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=365))]
    days: u64,
    /// Do it (without it, only list what would be done).
    #[arg(long)]
    yes: bool,
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let Command::Adopt(args) = command;
    let store = farm.open()?;
    let issuers = args
        .issuers
        .iter()
        .map(|url| issuer_key(url))
        .collect::<Result<Vec<_>>>()?;
    let users = if args.none {
        Vec::new()
    } else if args.users.is_empty() {
        unprivileged_users(&*store)?
    } else {
        args.users.clone()
    };
    let lasting = Duration::from_secs(args.days * 24 * 3600);
    if !args.yes {
        println!("{}", plan(&users, &issuers, args.days));
        println!("Nothing was changed: run the same command with --yes to do it.");
        return Ok(());
    }
    for issuer in &issuers {
        let adopted = store
            .adopt_identities(issuer, &users, lasting)
            .with_context(|| format!("cannot put the users up for adoption by {issuer}"))?;
        println!(
            "{adopted} user(s) may be claimed by a token of {issuer} for {} days",
            args.days
        );
    }
    if store.identities()?.upgrade_pending {
        bail!("the farm still awaits the decision: run the command again");
    }
    println!("Done: servers with these issuers start again.");
    Ok(())
}

/// What `--yes` would do, for a person to read first.
fn plan(users: &[String], issuers: &[String], days: u64) -> String {
    let issuers = issuers.join(", ");
    if users.is_empty() {
        return format!(
            "No user will be claimed by name at {issuers}: each token signs in the user its \
             identity is linked to (`wiki-mcp user link`), or, with `serve \
             --oidc-create-users`, a new user of its own."
        );
    }
    format!(
        "At {issuers}, within {days} days, the first token whose user claim names one of these \
         users signs in as that user and stays linked to it; nobody else can claim it after:\n  \
         {}\n\
         A provider that lets people choose that claim lets anyone claim these names first: \
         link whoever matters yourself (`wiki-mcp user link`) before running this with --yes.",
        users.join("\n  ")
    )
}

/// Every registered user who holds no admin right on any wiki.
fn unprivileged_users(store: &dyn Store) -> Result<Vec<String>> {
    let snapshot = store.rights_snapshot()?;
    let wikis: BTreeSet<_> = store
        .list_wikis()?
        .into_iter()
        .map(|wiki| wiki.id)
        .collect();
    Ok(store
        .list_users()?
        .into_iter()
        .map(|user| user.name)
        .filter(|user| {
            !wikis
                .iter()
                .any(|wiki| snapshot.can(user, Right::Admin, &RightScope::Wiki(wiki.clone())))
        })
        .collect())
}
