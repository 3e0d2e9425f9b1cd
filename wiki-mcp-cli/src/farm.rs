//! A data directory holds one farm. Whichever command first finds none there creates it.
//!
//! A PostgreSQL database holds one farm too, but it is created by `wiki-mcp --database URL
//! init` alone: replicas starting together must not race to seed it, so serving or
//! administering a database that holds no farm yet is refused with that command to run.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::wiki::WikiId;
use wiki_store::sqlite::DATABASE_FILE;
use wiki_store::{PostgresStore, SqliteStore, Store, StoreConfig, StoreError};

use crate::database::{Database, DatabaseUrl};
use crate::demo;

/// The farm administrator every new farm gets (allowed `admin` on the main wiki).
pub const ADMIN_USER: &str = "admin";

/// The author recorded for changes made by admin commands.
pub const CLI_AUTHOR: &str = ADMIN_USER;

/// What a new farm contains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    /// The demo farm (see [`demo`]): users, two wikis, linked pages, rights.
    Demo,
    /// Only the main wiki and the `admin` user.
    Empty,
}

/// An opened farm.
#[derive(Debug)]
pub struct Farm<S = SqliteStore> {
    /// The store.
    pub store: S,
    /// Whether this call created (and seeded) it.
    pub created: bool,
}

/// Whether `data` already holds a farm.
pub fn exists(data: &Path) -> bool {
    data.join(DATABASE_FILE).exists()
}

/// Opens the farm in `data`, creating it with the demo content when there is none.
pub fn open(data: &Path) -> Result<Farm> {
    open_with(data, StoreConfig::default())
}

/// [`open`] with a store configuration.
pub fn open_with(data: &Path, config: StoreConfig) -> Result<Farm> {
    if exists(data) {
        let store = SqliteStore::open_with(data, config)
            .with_context(|| format!("cannot open the farm in {}", data.display()))?;
        return Ok(Farm {
            store,
            created: false,
        });
    }
    let store = create_with(data, Content::Demo, config)?;
    Ok(Farm {
        store,
        created: true,
    })
}

/// Creates a farm in `data` with `content`; refuses a directory that already holds one.
///
/// If seeding fails, the new database files are removed again, so the next command does not
/// mistake a half-seeded farm for a finished one.
pub fn create(data: &Path, content: Content) -> Result<SqliteStore> {
    create_with(data, content, StoreConfig::default())
}

/// [`create`] with a store configuration.
pub fn create_with(data: &Path, content: Content, config: StoreConfig) -> Result<SqliteStore> {
    if exists(data) {
        bail!("{} already holds a farm", data.display());
    }
    let store = SqliteStore::open_with(data, config)
        .with_context(|| format!("cannot create a farm in {}", data.display()))?;
    let seeded = seed(&store, content);
    if let Err(error) = seeded {
        drop(store);
        for suffix in ["", "-wal", "-shm"] {
            // The files did not exist before this call: removing them loses nothing.
            let _ = std::fs::remove_file(data.join(format!("{DATABASE_FILE}{suffix}")));
        }
        return Err(error.context(format!("cannot seed the new farm in {}", data.display())));
    }
    tracing::info!(data = %data.display(), ?content, "created a new farm");
    Ok(store)
}

/// What to do when the database server does not answer while a farm is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outage {
    /// Fail: an admin command cannot do its work.
    Fail,
    /// Go on with the store, which answers "unavailable" until the server is back: a server
    /// starts anyway and answers 503 meanwhile.
    Tolerate,
}

/// Opens the farm `database` names: a SQLite directory as [`open_with`] does (creating the demo
/// farm there when there is none), or a PostgreSQL database, which must hold a farm
/// ([`create_at`] makes one).
pub fn open_at(
    database: &Database,
    config: StoreConfig,
    outage: Outage,
) -> Result<Farm<Arc<dyn Store>>> {
    let url = match database {
        Database::Sqlite(dir) => {
            let opened = open_with(dir, config)?;
            return Ok(Farm {
                store: Arc::new(opened.store),
                created: opened.created,
            });
        }
        Database::Postgres(url) => url,
    };
    let store = connect(url, config)?;
    match holds_farm(&store) {
        Ok(true) => {}
        Ok(false) => bail!(
            "the database {url} holds no farm yet: create it once with `wiki-mcp --database \
             URL init` (add --empty for no demo content)"
        ),
        Err(error @ StoreError::Unavailable(_)) if outage == Outage::Tolerate => {
            tracing::warn!(database = %url, %error, "the database does not answer yet: serving 503 until it does");
        }
        Err(error) => return Err(unreachable(url, error)),
    }
    Ok(Farm {
        store: Arc::new(store),
        created: false,
    })
}

/// Creates a farm with `content` where `database` says: a SQLite directory as [`create_with`]
/// does, or an empty PostgreSQL database (its schema is created on connection). Refuses a
/// directory or database that already holds a farm.
pub fn create_at(
    database: &Database,
    content: Content,
    config: StoreConfig,
) -> Result<Arc<dyn Store>> {
    let url = match database {
        Database::Sqlite(dir) => return Ok(Arc::new(create_with(dir, content, config)?)),
        Database::Postgres(url) => url,
    };
    let store = connect(url, config)?;
    if holds_farm(&store).map_err(|error| unreachable(url, error))? {
        bail!("the database {url} already holds a farm");
    }
    // No transaction spans the seeding; a failure part-way leaves a database that holds a
    // farm (the administrator user is created first) and says so.
    seed(&store, content).with_context(|| {
        format!(
            "cannot seed the new farm in {url}: drop and re-create the database, then run \
             `init` again"
        )
    })?;
    tracing::info!(database = %url, ?content, "created a new farm");
    Ok(Arc::new(store))
}

/// A PostgreSQL store over `url` (which need not be reachable yet).
fn connect(url: &DatabaseUrl, config: StoreConfig) -> Result<PostgresStore> {
    PostgresStore::connect_with(url.expose(), config)
        .with_context(|| format!("cannot open the database {url}"))
}

/// Whether the store holds a farm: seeding creates the administrator first, so a farm has a
/// user (the guest is built in, never stored).
fn holds_farm(store: &dyn Store) -> Result<bool, StoreError> {
    Ok(!store.list_users()?.is_empty() || store.list_wikis()?.len() > 1)
}

/// The error of a database that could not be used, naming it (without its password).
fn unreachable(url: &DatabaseUrl, error: StoreError) -> anyhow::Error {
    let hint = if matches!(error, StoreError::Unavailable(_)) {
        " (is the server running, and are the host, port, user and password right?)"
    } else {
        ""
    };
    anyhow::Error::new(error).context(format!("cannot use the database {url}{hint}"))
}

/// Fills a new, empty store with what `init` puts in a farm: the `admin` user (farm admin), and
/// the demo content unless `content` is [`Content::Empty`]. Tests of a tool crate start from the
/// same farm with `wiki_server::testing::TestFarm::seeded(|store| seed(store, Content::Demo))`.
pub fn seed(store: &dyn Store, content: Content) -> Result<()> {
    store.create_user(ADMIN_USER, Some("Farm administrator"))?;
    store.set_right(&RightRule {
        scope: RightScope::Wiki(WikiId::main()),
        subject: Subject::User(ADMIN_USER.to_owned()),
        right: Right::Admin,
        effect: Effect::Allow,
    })?;
    if content == Content::Demo {
        demo::seed(store)?;
    }
    Ok(())
}
