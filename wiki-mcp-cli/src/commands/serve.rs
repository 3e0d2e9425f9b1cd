//! `wiki-mcp serve`: every wiki's MCP endpoint over HTTP.

use std::io::Write;
use std::sync::Arc;

use crate::database::Database;
use crate::farm::{ADMIN_USER, Outage};
use anyhow::{Context, Result};
use tokio_util::sync::CancellationToken;
use wiki_server::http::{
    BaseUrl, Directory, HttpOptions, HttpServer, RateLimit, shutdown_on_signal,
};
use wiki_server::skills::DEFAULT_SKILLS_SPACE;
use wiki_server::{Manager, ServerSettings};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::SpacePath;
use wiki_tool_sdk::links::LinkKey;

use super::bounded_stop::{SignalledAt, stop_within};
use super::database::FarmTarget;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The address to listen on (`:0` picks a free port).
    #[arg(long, env = "WIKI_MCP_LISTEN", default_value = "127.0.0.1:8080")]
    listen: String,
    /// The URL clients use (behind a reverse proxy): links start with it and its host is
    /// accepted. Without it only loopback hosts are accepted.
    #[arg(long, env = "WIKI_MCP_PUBLIC_URL", value_name = "URL")]
    public_url: Option<String>,
    /// An OAuth authorization server to advertise (RFC 9728); requests without a token then get
    /// 401 instead of running as the guest. Repeatable (comma-separated in the environment).
    #[arg(
        long = "authorization-server",
        env = "WIKI_MCP_AUTHORIZATION_SERVER",
        value_name = "URL",
        value_delimiter = ','
    )]
    authorization_servers: Vec<String>,
    /// Requests per second per caller (token's user, or address for the guest); 0 turns the
    /// limit off.
    #[arg(long, env = "WIKI_MCP_RATE_LIMIT", default_value_t = RateLimit::default().per_second)]
    rate_limit: u32,
    /// Requests a caller may burst above the rate.
    #[arg(long, env = "WIKI_MCP_RATE_BURST", default_value_t = RateLimit::default().burst)]
    rate_burst: u32,
    /// Signed link pages (`/wikis/...`, each a render) per second per client address, in
    /// buckets apart from the MCP ones; 0 turns the limit off.
    #[arg(long, env = "WIKI_MCP_PAGE_RATE_LIMIT", default_value_t = RateLimit::pages().per_second)]
    page_rate_limit: u32,
    /// Link pages a client address may burst above that rate.
    #[arg(long, env = "WIKI_MCP_PAGE_RATE_BURST", default_value_t = RateLimit::pages().burst)]
    page_rate_burst: u32,
    /// The largest request body, in bytes.
    #[arg(
        long,
        env = "WIKI_MCP_MAX_BODY_BYTES",
        default_value_t = HttpOptions::default().max_body_bytes
    )]
    max_body_bytes: usize,
    /// The space of each wiki whose pages are served to agents as skills (MCP Skills: one page
    /// per skill, its attachments the skill's files); an empty value serves none.
    #[arg(long, env = "WIKI_MCP_SKILLS_SPACE", default_value = DEFAULT_SKILLS_SPACE)]
    skills_space: String,
    #[command(flatten)]
    oidc: super::oidc_flags::OidcArgs,
    #[command(flatten)]
    connections: super::connections::ConnectionArgs,
    #[command(flatten)]
    budgets: super::budgets::BudgetArgs,
    #[command(flatten)]
    operations: super::operations::OperationArgs,
    /// A TOML file of settings whose keys are these flags' long names (`listen =
    /// "0.0.0.0:8080"`, `rate-limit = 0`); a flag or an environment variable wins over it.
    #[arg(long, env = "WIKI_MCP_CONFIG", value_name = "FILE")]
    pub(crate) config: Option<std::path::PathBuf>,
    /// Print the settings this command would serve with, and where each came from (flag,
    /// environment, file, default), secrets masked; then exit without serving.
    #[arg(long)]
    pub(crate) print_config: bool,
}

/// The link-signing key's file in the data directory.
pub(crate) const LINK_KEY_FILE: &str = "link-signing.key";

pub(crate) fn exec(farm: &FarmTarget, args: Args) -> Result<()> {
    if let Some(file) = &args.config {
        tracing::info!(file = %file.display(), "settings read from the configuration file");
    }
    let call_timeout = args.budgets.install()?;
    // Before the runtime: the exporter's HTTP client is a blocking one.
    let _traces = crate::trace_export::start()?;
    let _serving = farm.hold_while_serving()?;
    // A shared database that does not answer yet is waited for while serving (503 meanwhile).
    let opened = farm.open_for(Outage::Tolerate)?;
    let first_token = if opened.created {
        Some(opened.store.create_token(ADMIN_USER, "first run")?)
    } else {
        None
    };
    let public_url = args.public_url.as_deref().map(BaseUrl::parse).transpose()?;
    let oidc = args.oidc.identity()?;
    let options = HttpOptions {
        authorization_servers: args.authorization_servers,
        max_body_bytes: args.max_body_bytes,
        connections: args.connections.limits()?,
        rate_limit: (args.rate_limit > 0).then_some(RateLimit {
            per_second: args.rate_limit,
            burst: args.rate_burst.max(1),
        }),
        page_rate_limit: (args.page_rate_limit > 0).then_some(RateLimit {
            per_second: args.page_rate_limit,
            burst: args.page_rate_burst.max(1),
        }),
        metrics_listen: args.operations.metrics_listen,
        shutdown_timeout: args.operations.shutdown_timeout(),
        ..HttpOptions::default()
    };
    let skills_space = match args.skills_space.trim() {
        "" => None,
        space => Some(SpacePath::parse(space).with_context(|| {
            format!(
                "--skills-space {space:?} is not a space name (e.g. \"Skills\" or \"Team.Skills\")"
            )
        })?),
    };
    let settings = ServerSettings::default()
        .with_call_timeout(call_timeout)
        .with_skills_space(skills_space);
    let settings = match farm.database() {
        // The key of signed links lives beside the database, out of any agent's reach (no tool
        // reads files), and survives restarts so links printed before one still open.
        Database::Sqlite(data) => {
            let key_path = data.join(LINK_KEY_FILE);
            let link_key = LinkKey::load_or_create(&key_path).with_context(|| {
                format!("cannot load the link-signing key {}", key_path.display())
            })?;
            settings.with_link_key(link_key)
        }
        // Replicas share no disk: the key is the farm's secret in the database, so a link
        // printed by one replica opens on any other.
        Database::Postgres(_) => settings.with_farm_link_key(),
    };
    let store = opened.store;
    if let Some(oidc) = &oidc {
        oidc.check_farm(&*store)?;
    }
    // The linked crates' services (semantic search's model and indexer), until serving ends.
    let (services, hooks) = wiki_tool_sdk::startup::start_hooks(&store, farm.data_dir())?;
    let settings = settings.with_services(services);
    let gauges = hooks.gauges().to_vec();
    let shutdown_timeout = args.operations.shutdown_timeout();
    let signalled = SignalledAt::default();
    let marked = signalled.clone();
    let served = super::runtime()?.block_on(async move {
        let server = HttpServer::bind(args.listen.as_str(), options)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        // Links in tool output start with the public URL, else the bound address.
        let base = match public_url {
            Some(public) => public,
            None => server.local_url()?,
        };
        let settings = settings.with_public_url(base.clone());
        // Store calls block (PostgreSQL's client runs its own runtime): off the async workers.
        let (manager, wikis) = tokio::task::spawn_blocking(move || -> Result<_> {
            let manager = Arc::new(Manager::new(Arc::clone(&store), settings)?);
            let wikis = match store.list_wikis() {
                Ok(wikis) => super::main_first(wikis.into_iter().map(|wiki| wiki.id)),
                // Unreachable: the banner names the main wiki alone; every endpoint answers
                // 503 until the database does.
                Err(error) if error.is_transient() => vec![WikiId::main()],
                Err(error) => return Err(error.into()),
            };
            Ok((manager, wikis))
        })
        .await
        .context("the start-up task did not complete")??;
        for gauge in gauges {
            manager.metrics().publish(gauge);
        }
        let token = first_token.as_ref().map(|issued| issued.token.expose());
        log_endpoints(&server, &base, &wikis)?;
        print_banner(&server, &base, &wikis, token)?;
        let shutdown = CancellationToken::new();
        tokio::spawn(shutdown_on_signal(shutdown.clone()));
        let noted = shutdown.clone();
        tokio::spawn(async move {
            noted.cancelled().await;
            marked.mark();
        });
        let mut directory = Directory::new(manager);
        if let Some(oidc) = oidc {
            directory = directory.with_oidc(oidc);
        }
        server
            .serve(Arc::new(directory), shutdown)
            .await
            .context("the HTTP server failed")
    });
    // The hooks' workers (the semantic indexer) get what is left of the shutdown deadline.
    stop_within(
        hooks,
        "the start-up hooks' workers",
        signalled.left_of(shutdown_timeout),
    );
    served
}

/// The addresses and every endpoint at INFO on the log (stderr or `--log-file`), where a
/// service manager's journal keeps them; the banner on stdout is for a person at a terminal.
fn log_endpoints(server: &HttpServer, base: &BaseUrl, wikis: &[WikiId]) -> Result<()> {
    tracing::info!(address = %server.local_addr()?, url = %base, "listening");
    if let Some(metrics) = server.metrics_addr()? {
        tracing::info!(address = %metrics, "serving /metrics without a token");
    }
    for wiki in wikis {
        tracing::info!(wiki = wiki.as_str(), url = %base.endpoint(wiki), "MCP endpoint");
    }
    for (path, what) in [
        ("/healthz", "liveness"),
        ("/readyz", "readiness"),
        ("/metrics", "metrics (a farm administrator's token)"),
        ("/admin", "administration page"),
    ] {
        tracing::info!(url = %format_args!("{base}{path}"), "{what}");
    }
    Ok(())
}

/// What a person needs to connect: the bound address, each wiki's endpoint, and a client
/// configuration to paste. The configuration never holds a real token (it is meant to be copied
/// and shared); on a first run the new admin token is printed once, on its own line.
fn print_banner(
    server: &HttpServer,
    base: &BaseUrl,
    wikis: &[WikiId],
    token: Option<&str>,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "wiki-mcp listening on {}", server.local_addr()?)?;
    writeln!(out, "Endpoints:")?;
    for wiki in wikis {
        writeln!(out, "  {:<12} {}", wiki.as_str(), base.endpoint(wiki))?;
    }
    let main = WikiId::main();
    let config = serde_json::json!({
        "mcpServers": {
            "wiki": {
                "type": "http",
                "url": base.endpoint(&main),
                "headers": { "Authorization": "Bearer <a user's token: wiki-mcp token create --user NAME>" },
            }
        }
    });
    writeln!(
        out,
        "Client configuration (e.g. .mcp.json; the MCP Inspector wants \"type\": \"streamable-http\"):"
    )?;
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
