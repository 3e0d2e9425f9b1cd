//! `wiki-mcp serve`: every wiki's MCP endpoint over HTTP.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::farm::{self, ADMIN_USER};
use anyhow::{Context, Result};
use tokio_util::sync::CancellationToken;
use wiki_server::http::{
    BaseUrl, Directory, HttpOptions, HttpServer, RateLimit, shutdown_on_signal,
};
use wiki_server::links::LinkKey;
use wiki_server::{Manager, ServerSettings};
use wiki_store::model::wiki::WikiId;
use wiki_store::{Store, TokenStore};

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The address to listen on (`:0` picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: String,
    /// The URL clients use (behind a reverse proxy): links start with it and its host is
    /// accepted. Without it only loopback hosts are accepted.
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// An OAuth authorization server to advertise (RFC 9728); requests without a token then get
    /// 401 instead of running as the guest. Repeatable.
    #[arg(long = "authorization-server", value_name = "URL")]
    authorization_servers: Vec<String>,
    /// Seconds one tool call may run before it ends in an error result.
    #[arg(long, default_value_t = 30, value_name = "SECONDS")]
    call_timeout: u64,
    /// Requests per second per caller (token's user, or address for the guest); 0 turns the
    /// limit off.
    #[arg(long, default_value_t = RateLimit::default().per_second)]
    rate_limit: u32,
    /// Requests a caller may burst above the rate.
    #[arg(long, default_value_t = RateLimit::default().burst)]
    rate_burst: u32,
    /// The largest request body, in bytes.
    #[arg(long, default_value_t = HttpOptions::default().max_body_bytes)]
    max_body_bytes: usize,
    #[command(flatten)]
    oidc: super::oidc::OidcArgs,
}

/// The link-signing key's file in the data directory.
const LINK_KEY_FILE: &str = "link-signing.key";

pub(crate) fn exec(data: &Path, args: Args) -> Result<()> {
    let opened = farm::open(data)?;
    let first_token = if opened.created {
        Some(opened.store.create_token(ADMIN_USER, "first run")?)
    } else {
        None
    };
    let public_url = args.public_url.as_deref().map(BaseUrl::parse).transpose()?;
    let oidc = args.oidc.identity()?;
    let options = HttpOptions {
        public_url,
        authorization_servers: args.authorization_servers,
        max_body_bytes: args.max_body_bytes,
        rate_limit: (args.rate_limit > 0).then_some(RateLimit {
            per_second: args.rate_limit,
            burst: args.rate_burst.max(1),
        }),
        ..HttpOptions::default()
    };
    // The key of signed links lives beside the database, out of any agent's reach (no tool
    // reads files), and survives restarts so links printed before one still open.
    let key_path = data.join(LINK_KEY_FILE);
    let link_key = LinkKey::load_or_create(&key_path)
        .with_context(|| format!("cannot load the link-signing key {}", key_path.display()))?;
    let store: Arc<dyn Store> = Arc::new(opened.store);
    super::runtime()?.block_on(async move {
        let server = HttpServer::bind(args.listen.as_str(), options)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        // Links in tool output start with the public URL, else the bound address.
        let settings = ServerSettings::default()
            .with_call_timeout(Duration::from_secs(args.call_timeout))
            .with_public_url(server.base_url().to_string())
            .with_link_key(link_key);
        let manager = Arc::new(Manager::new(Arc::clone(&store), settings)?);
        let wikis = super::main_first(store.list_wikis()?.into_iter().map(|wiki| wiki.id));
        let token = first_token.as_ref().map(|issued| issued.token.expose());
        print_banner(&server, &wikis, token)?;
        let shutdown = CancellationToken::new();
        tokio::spawn(shutdown_on_signal(shutdown.clone()));
        let mut directory = Directory::new(manager);
        if let Some(oidc) = oidc {
            directory = directory.with_oidc(oidc);
        }
        server
            .serve(Arc::new(directory), shutdown)
            .await
            .context("the HTTP server failed")
    })
}

/// What a person needs to connect: the bound address, each wiki's endpoint, and a client
/// configuration to paste (with the new admin token on a first run).
fn print_banner(server: &HttpServer, wikis: &[WikiId], token: Option<&str>) -> Result<()> {
    let base = server.base_url();
    let mut out = std::io::stdout().lock();
    writeln!(out, "wiki-mcp listening on {}", server.local_addr()?)?;
    writeln!(out, "Endpoints:")?;
    for wiki in wikis {
        writeln!(out, "  {:<12} {}", wiki.as_str(), base.endpoint(wiki))?;
    }
    let main = WikiId::main();
    let authorization = match token {
        Some(token) => format!("Bearer {token}"),
        None => "Bearer <run: wiki-mcp token create --user NAME>".to_owned(),
    };
    let config = serde_json::json!({
        "mcpServers": {
            "wiki": {
                "type": "http",
                "url": base.endpoint(&main),
                "headers": { "Authorization": authorization },
            }
        }
    });
    writeln!(out, "Client configuration (e.g. .mcp.json):")?;
    writeln!(out, "{}", serde_json::to_string_pretty(&config)?)?;
    if let Some(token) = token {
        writeln!(
            out,
            "New farm: token of `{ADMIN_USER}` (shown once): {token}"
        )?;
    }
    out.flush()?;
    Ok(())
}
