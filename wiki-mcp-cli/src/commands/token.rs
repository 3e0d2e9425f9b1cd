//! `wiki-mcp token create|list|revoke`.

use anyhow::{Context, Result};

use super::database::FarmTarget;

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Create a token for a user and print it (alone on stdout; it is shown only once).
    Create {
        /// The user the token authenticates as.
        #[arg(long)]
        user: String,
        /// A label to tell tokens apart.
        #[arg(long, default_value = "cli")]
        label: String,
    },
    /// List tokens (never the secrets).
    List {
        /// Only this user's tokens.
        #[arg(long)]
        user: Option<String>,
    },
    /// Revoke a token by its prefix (as listed).
    Revoke {
        /// The token's prefix.
        prefix: String,
    },
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Create { user, label } => {
            store
                .user(&user)
                .with_context(|| format!("unknown user `{user}`"))?;
            let issued = store
                .create_token(&user, &label)
                .with_context(|| format!("cannot create a token for `{user}`"))?;
            println!("{}", issued.token.expose());
        }
        Command::List { user } => {
            let tokens = store.list_tokens(user.as_deref())?;
            println!(
                "{:<16} {:<20} {:<20} {:<22} LAST USED",
                "PREFIX", "USER", "LABEL", "CREATED"
            );
            for token in tokens {
                // Recorded about once a minute by serving processes: good to spot stale tokens.
                let last_used = token
                    .last_used
                    .map_or_else(|| "never".to_owned(), super::utc_minute);
                println!(
                    "{:<16} {:<20} {:<20} {:<22} {last_used}",
                    token.prefix,
                    token.user,
                    token.label,
                    super::utc_minute(token.created)
                );
            }
        }
        Command::Revoke { prefix } => {
            store
                .revoke_token(&prefix)
                .with_context(|| format!("cannot revoke `{prefix}`"))?;
            println!("Revoked {prefix}");
        }
    }
    Ok(())
}
