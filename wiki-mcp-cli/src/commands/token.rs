//! `wiki-mcp token create|list|revoke`.

use anyhow::{Context, Result, anyhow};
use wiki_server::registry;
use wiki_server::token_scope::{ScopeRequest, describe};
use wiki_tool_sdk::time::OffsetDateTime;

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
        /// Only tools that do not change content.
        #[arg(long)]
        read_only: bool,
        /// Only these tools: ids or categories, comma-separated (`man` is always served).
        #[arg(long, value_name = "TOOLS")]
        tools: Option<String>,
        /// Only on these wikis, comma-separated (or the option repeated).
        #[arg(long = "wiki", value_name = "WIKI")]
        wikis: Vec<String>,
        /// When it stops working: a lifetime (30d, 12h, 90m, 2w) or an RFC 3339 date and time.
        #[arg(long, value_name = "WHEN")]
        expires: Option<String>,
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
        Command::Create {
            user,
            label,
            read_only,
            tools,
            wikis,
            expires,
        } => {
            store
                .user(&user)
                .with_context(|| format!("unknown user `{user}`"))?;
            let known: Vec<_> = store
                .list_wikis()?
                .into_iter()
                .map(|wiki| wiki.id)
                .collect();
            let wikis = wikis.join(",");
            let scope = ScopeRequest {
                read_only,
                tools: tools.as_deref(),
                wikis: (!wikis.is_empty()).then_some(wikis.as_str()),
                expires: expires.as_deref(),
            }
            .scope(registry()?, &known, OffsetDateTime::now_utc())
            .map_err(|problem| anyhow!(problem))?;
            let issued = store
                .create_scoped_token(&user, &label, &scope)
                .with_context(|| format!("cannot create a token for `{user}`"))?;
            println!("{}", issued.token.expose());
        }
        Command::List { user } => {
            let tokens = store.list_tokens(user.as_deref())?;
            println!(
                "{:<16} {:<20} {:<20} {:<22} {:<22} SCOPE",
                "PREFIX", "USER", "LABEL", "CREATED", "LAST USED"
            );
            let now = OffsetDateTime::now_utc();
            for token in tokens {
                // Recorded about once a minute by serving processes: good to spot stale tokens.
                let last_used = token
                    .last_used
                    .map_or_else(|| "never".to_owned(), super::utc_minute);
                println!(
                    "{:<16} {:<20} {:<20} {:<22} {last_used:<22} {}",
                    token.prefix,
                    token.user,
                    token.label,
                    super::utc_minute(token.created),
                    describe(&token.scope, now)
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
