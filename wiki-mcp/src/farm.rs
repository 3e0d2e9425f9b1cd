//! A data directory holds one farm. Whichever command first finds none there creates it.

use std::path::Path;

use anyhow::{Context, Result, bail};
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::wiki::WikiId;
use wiki_store::sqlite::DATABASE_FILE;
use wiki_store::{SqliteStore, Store};

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
pub struct Farm {
    /// The store.
    pub store: SqliteStore,
    /// Whether this call created (and seeded) it.
    pub created: bool,
}

/// Whether `data` already holds a farm.
pub fn exists(data: &Path) -> bool {
    data.join(DATABASE_FILE).exists()
}

/// Opens the farm in `data`, creating it with the demo content when there is none.
pub fn open(data: &Path) -> Result<Farm> {
    if exists(data) {
        let store = SqliteStore::open(data)
            .with_context(|| format!("cannot open the farm in {}", data.display()))?;
        return Ok(Farm {
            store,
            created: false,
        });
    }
    let store = create(data, Content::Demo)?;
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
    if exists(data) {
        bail!("{} already holds a farm", data.display());
    }
    let store = SqliteStore::open(data)
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
