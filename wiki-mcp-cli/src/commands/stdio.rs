//! `wiki-mcp stdio --wiki ID --user NAME`: one wiki as one user over stdin/stdout.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use tokio_util::sync::CancellationToken;
use wiki_server::http::shutdown_on_signal;
use wiki_server::stdio::serve_stdio;
use wiki_server::{Caller, Manager, ServerSettings};
use wiki_store::model::user::GUEST_USER;

use super::bounded_stop::{SignalledAt, stop_within};
use super::database::FarmTarget;
use super::existing_wiki;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The wiki to serve.
    #[arg(long)]
    wiki: String,
    /// The user the client acts as (`guest` for the guest's rights).
    #[arg(long)]
    user: String,
    #[command(flatten)]
    budgets: super::budgets::BudgetArgs,
    #[command(flatten)]
    shutdown: super::operations::ShutdownArgs,
}

pub(crate) fn exec(farm: &FarmTarget, args: Args) -> Result<()> {
    let call_timeout = args.budgets.install()?;
    // Before the runtime: the exporter's HTTP client is a blocking one.
    let _traces = crate::trace_export::start()?;
    let _serving = farm.hold_while_serving()?;
    let store = farm.open_or_create()?;
    let wiki = existing_wiki(&*store, &args.wiki)?;
    let caller = if args.user == GUEST_USER {
        Caller::guest(wiki.clone())
    } else {
        store
            .user(&args.user)
            .with_context(|| format!("unknown user `{}`", args.user))?;
        Caller::user(wiki.clone(), args.user)
    };
    // Made before the runtime: store calls block (PostgreSQL's client runs its own runtime).
    let (services, hooks) = wiki_tool_sdk::startup::start_hooks(&store, farm.data_dir())?;
    let settings = ServerSettings::default()
        .with_call_timeout(call_timeout)
        .with_services(services);
    let manager = Arc::new(Manager::new(store, settings)?);
    let shutdown_timeout = args.shutdown.timeout();
    // The stop (the calls in flight, the store calls they leave blocking, the hooks' workers)
    // takes at most the shutdown timeout, counted from the signal or the end of stdin.
    let signalled = SignalledAt::default();
    let marked = signalled.clone();
    let runtime = super::runtime()?;
    let served = runtime.block_on(async move {
        match manager.server(&wiki).await? {
            Some(server) if server.enabled() => {}
            _ => bail!("the MCP endpoint of `{wiki}` is disabled (wiki-mcp config set --wiki {wiki} enabled=true)"),
        }
        let shutdown = CancellationToken::new();
        tokio::spawn(shutdown_on_signal(shutdown.clone()));
        let noted = shutdown.clone();
        tokio::spawn(async move {
            noted.cancelled().await;
            marked.mark();
        });
        serve_stdio(manager, caller, shutdown, shutdown_timeout)
            .await
            .context("the stdio transport failed")
    });
    // Not dropped: dropping waits for every blocking task, among them the read of a stdin the
    // client may keep open after a signal, and a store call waiting for a database.
    runtime.shutdown_timeout(signalled.left_of(shutdown_timeout));
    stop_within(
        hooks,
        "the start-up hooks' workers",
        signalled.left_of(shutdown_timeout),
    );
    served
}
