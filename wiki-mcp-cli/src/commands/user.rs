//! `wiki-mcp user create|list|delete|link|unlink|links`.

use anyhow::{Context, Result, bail};

use wiki_server::accounts::AccountChange;

use super::database::FarmTarget;

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Create a user.
    Create {
        /// The user name (letters, digits, `_`, `-`, `.`, `@`).
        name: String,
        /// A human name for listings.
        #[arg(long)]
        display_name: Option<String>,
    },
    /// List the registered users.
    List,
    /// Delete a user with their tokens, memberships, rights rules and identity links.
    Delete {
        /// The user name.
        name: String,
    },
    /// Link an identity at an OpenID Connect issuer to a user: that issuer's tokens with that
    /// subject (`sub`) sign in as the user, whatever names their other claims carry.
    Link {
        /// The user.
        #[arg(long)]
        user: String,
        /// The issuer's URL, as `serve --oidc-issuer` names it.
        #[arg(long, value_name = "URL")]
        issuer: String,
        /// The identity's `sub` at that issuer (the server's log names it when it refuses an
        /// unlinked identity).
        #[arg(long, value_name = "SUB")]
        subject: String,
    },
    /// Remove an identity's link: its tokens sign in as nobody.
    Unlink {
        /// The issuer's URL.
        #[arg(long, value_name = "URL")]
        issuer: String,
        /// The identity's `sub` at that issuer.
        #[arg(long, value_name = "SUB")]
        subject: String,
    },
    /// List identity links (of one user, or all) and the users awaiting adoption.
    Links {
        /// Only this user's.
        #[arg(long)]
        user: Option<String>,
    },
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Create { name, display_name } => {
            super::change(&*store, AccountChange::CreateUser { name, display_name })?;
        }
        Command::List => {
            for user in store.list_users()? {
                match user.display_name {
                    Some(display) => println!("{} ({display})", user.name),
                    None => println!("{}", user.name),
                }
            }
        }
        Command::Delete { name } => super::change(&*store, AccountChange::DeleteUser { name })?,
        Command::Link {
            user,
            issuer,
            subject,
        } => {
            let issuer = issuer_key(&issuer)?;
            let linked = store
                .link_identity(&issuer, &subject, &user)
                .with_context(|| format!("cannot link `{subject}` at {issuer} to `{user}`"))?;
            if linked {
                println!("Linked {subject} at {issuer} to user {user}");
            } else {
                println!("{subject} at {issuer} was linked to user {user} already");
            }
        }
        Command::Unlink { issuer, subject } => {
            let issuer = issuer_key(&issuer)?;
            if !store.unlink_identity(&issuer, &subject)? {
                bail!("`{subject}` at {issuer} is linked to no user");
            }
            println!("Unlinked {subject} at {issuer}");
        }
        Command::Links { user } => {
            let identities = store.identities()?;
            let mine = |name: &str| user.as_deref().is_none_or(|user| user == name);
            for link in identities.links.iter().filter(|link| mine(&link.user)) {
                println!("{}\t{}\t{}", link.user, link.issuer, link.subject);
            }
            for adoption in identities.adoptions.iter().filter(|a| mine(&a.user)) {
                println!(
                    "{}\t{}\t(awaiting adoption until {})",
                    adoption.user,
                    adoption.issuer,
                    super::utc_minute(adoption.expires)
                );
            }
        }
    }
    Ok(())
}

/// An issuer as tokens name it and links are stored under: parsed as `serve --oidc-issuer` parses
/// it, so the two agree.
pub(crate) fn issuer_key(url: &str) -> Result<String> {
    let issuer = oidc_verifier::IssuerUrl::parse(url)
        .with_context(|| format!("`{url}` is not an issuer URL"))?;
    Ok(issuer.as_str().to_owned())
}
