//! The global options that say where the farm is (`--database`, `--data`) and how its store
//! is opened (`--db-pool-size`), and the [`FarmTarget`] every command opens its farm through.

use std::path::PathBuf;
use std::sync::Arc;

use crate::database::Database;
use crate::farm::{self, Content, Farm, Outage};
use crate::farm_lock::FarmLock;
use anyhow::{Result, bail};
use wiki_store::{Store, StoreConfig};

/// Where the farm is and how to open its store (global options, flattened into the CLI).
#[derive(Debug, clap::Args)]
pub(crate) struct DatabaseArgs {
    /// The farm's database: `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (a farm several
    /// `serve` replicas share) or `sqlite:DIR`. Without it, the SQLite farm in --data.
    #[arg(
        long,
        global = true,
        env = "WIKI_MCP_DATABASE",
        value_name = "URL",
        hide_env_values = true
    )]
    // Parsed after clap, so that a refused value (it may hold a password) is never echoed.
    database: Option<String>,

    /// The data directory holding a SQLite farm (when --database is not given).
    #[arg(
        long,
        global = true,
        env = "WIKI_MCP_DATA",
        default_value = "./wiki-data"
    )]
    data: PathBuf,

    /// Connections to the database this process may hold at once (PostgreSQL: the pool every
    /// call draws from, per replica, plus one listening for other replicas' changes; SQLite:
    /// reader connections).
    #[arg(
        long,
        global = true,
        env = "WIKI_MCP_DB_POOL_SIZE",
        default_value = "4",
        value_parser = clap::value_parser!(u16).range(1..=1024),
        value_name = "N"
    )]
    db_pool_size: u16,
}

/// The farm a command works on: where it is and how its store is opened.
#[derive(Debug, Clone)]
pub(crate) struct FarmTarget {
    database: Database,
    config: StoreConfig,
    /// `--data`: a SQLite farm's directory, and local files of any farm (the model).
    data: PathBuf,
}

impl FarmTarget {
    pub(crate) fn new(args: DatabaseArgs) -> Result<Self> {
        let database = match args.database.as_deref() {
            Some(url) => url.parse::<Database>()?,
            None => Database::Sqlite(args.data.clone()),
        };
        Ok(FarmTarget {
            database,
            config: StoreConfig {
                pool_size: usize::from(args.db_pool_size),
                ..StoreConfig::default()
            },
            data: args.data,
        })
    }

    /// The local data directory (`--data`): the SQLite farm's, or, on a shared database, where
    /// this machine keeps its local files (the embedding model).
    pub(crate) fn data_dir(&self) -> &std::path::Path {
        &self.data
    }

    /// Where the farm is, for messages (a URL's password is never shown).
    pub(crate) fn database(&self) -> &Database {
        &self.database
    }

    /// Whether the farm is on a database several processes share (PostgreSQL).
    pub(crate) fn is_shared(&self) -> bool {
        matches!(self.database, Database::Postgres(_))
    }

    /// The lock a serving process holds on a SQLite farm for as long as it serves
    /// ([`FarmLock::serving`]: `restore` and `migrate` refuse the farm meanwhile); `None` for
    /// a farm on a shared database. Taken before the farm is opened or created.
    pub(crate) fn hold_while_serving(&self) -> Result<Option<FarmLock>> {
        // The lock's file is the directory's first: nothing is made for tools never served.
        tools_can_be_served()?;
        match &self.database {
            Database::Sqlite(dir) => FarmLock::serving(dir).map(Some),
            Database::Postgres(_) => Ok(None),
        }
    }

    /// Opens the farm for an admin command, which must find one: a command on a mistyped
    /// `--data` must not create a farm there (nor any file); it says where it looked and how to
    /// create one. A database must be reachable and hold a farm.
    pub(crate) fn open(&self) -> Result<Arc<dyn Store>> {
        if let Database::Sqlite(dir) = &self.database
            && !farm::exists(dir)
        {
            bail!(
                "no farm in {dir}: check --data (or WIKI_MCP_DATA), or create one with \
                 `wiki-mcp init {dir}` (demo content) or `wiki-mcp init --empty {dir}`",
                dir = dir.display()
            );
        }
        Ok(self.open_for(Outage::Fail)?.store)
    }

    /// Opens the farm for a command that serves (`stdio`): SQLite creates the demo farm when
    /// there is none (logged on stderr, so stdout stays the protocol's); a database must be
    /// reachable and hold a farm (`init` creates it).
    pub(crate) fn open_or_create(&self) -> Result<Arc<dyn Store>> {
        let opened = self.open_for(Outage::Fail)?;
        if opened.created {
            tracing::info!(
                database = %self.database,
                "no farm found: created the demo farm; `wiki-mcp token create --user admin` \
                 gives the administrator a token"
            );
        }
        Ok(opened.store)
    }

    /// Opens the farm, going on with a database that does not answer yet when `outage` says so
    /// (a server then answers 503 until it does); `created` says whether SQLite made it now.
    pub(crate) fn open_for(&self, outage: Outage) -> Result<Farm<Arc<dyn Store>>> {
        tools_can_be_served()?;
        farm::open_at(&self.database, self.config.clone(), outage)
    }

    /// Creates a farm with `content`, refusing a directory or database that holds one.
    pub(crate) fn create(&self, content: Content) -> Result<Arc<dyn Store>> {
        tools_can_be_served()?;
        farm::create_at(&self.database, content, self.config.clone())
    }

    /// The same farm in another directory (`init DIR`).
    pub(crate) fn in_dir(&self, dir: PathBuf) -> Self {
        FarmTarget {
            database: Database::Sqlite(dir.clone()),
            config: self.config.clone(),
            data: dir,
        }
    }
}

/// Refuses a binary whose linked tools the server could never serve (two tools with one id, or
/// a tool taking `man` or `list_wikis`) before any farm is opened, so that such a binary creates
/// no demo farm and no database on its way to failing.
fn tools_can_be_served() -> Result<()> {
    wiki_server::registry()
        .map(|_| ())
        .map_err(|error| anyhow::anyhow!("{error}; nothing was created or opened"))
}
