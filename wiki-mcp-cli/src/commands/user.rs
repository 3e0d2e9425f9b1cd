//! `wiki-mcp user create|list|delete`.

use anyhow::{Context, Result};

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
    /// Delete a user with their tokens, memberships and rights rules.
    Delete {
        /// The user name.
        name: String,
    },
}

pub(crate) fn exec(farm: &FarmTarget, command: Command) -> Result<()> {
    let store = farm.open()?;
    match command {
        Command::Create { name, display_name } => {
            store
                .create_user(&name, display_name.as_deref())
                .with_context(|| format!("cannot create the user `{name}`"))?;
            println!("Created user {name}");
        }
        Command::List => {
            for user in store.list_users()? {
                match user.display_name {
                    Some(display) => println!("{} ({display})", user.name),
                    None => println!("{}", user.name),
                }
            }
        }
        Command::Delete { name } => {
            store
                .delete_user(&name)
                .with_context(|| format!("cannot delete the user `{name}`"))?;
            println!("Deleted user {name}");
        }
    }
    Ok(())
}
