//! Skills from the wiki: the MCP Skills extension (`skills/list`, `skills/get`, and the skill
//! files through `resources/list` and `resources/read`), served from the pages of one space.
//!
//! Each direct child of the skills space ([`ServerSettings::skills_space`], `Skills` unless set)
//! whose name is a valid skill name is one skill: `Skills.edit-large-page` (or the home page of
//! `Skills.edit-large-page`) is served as `skill://edit-large-page/SKILL.md`, its attachments
//! beside it (`page.rs`). Every request reads the caller's skills afresh through the row door
//! ([`Doors::row_visible`]: reach, the endpoint's space filter, the view right), so a caller
//! sees, gets and reads only the skills whose page it may view, and an edit is served (with its
//! new digests) on the next request. Nothing is cached: a skill is a page and its attachments,
//! read within per-skill bounds (at most 512 files and 16 MiB, `page.rs`).
//!
//! Listeners of skill changes compare a stamp of the caller's skills (`stamp.rs`: the pages'
//! and files' versions, not their bytes) before and after each commit.
//!
//! [`ServerSettings::skills_space`]: crate::ServerSettings::skills_space

mod page;
mod stamp;

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{GetSkillResult, ListResourcesResult, ListSkillsResult, ReadResourceResult};
use wiki_store::Store;
use wiki_store::reference::{DocumentReference, SpacePath};
use wiki_tool_sdk::access::Doors;

pub(crate) use self::stamp::skills_stamp;

use self::page::{MAX_BYTES, MAX_FILES, PageSkill, SCHEME, page_skill, skill_name};
use crate::server::{Caller, Manager, WikiServer};

/// The space whose pages are served as skills when none is configured.
pub const DEFAULT_SKILLS_SPACE: &str = "Skills";

/// Skill pages read per request: the first ones by name (a larger space is cut, and logged).
const MAX_SKILLS: usize = 100;

/// What the skills requests answer when the store fails (the cause goes to the log).
const STORE_FAILED: &str = "Could not read the skills from the wiki; retry in a moment, and if it persists tell an administrator.";

/// `skills/list`: every skill `caller` may view, on one page.
pub(crate) async fn list_skills(
    manager: &Manager,
    server: &WikiServer,
    caller: &Caller,
) -> Result<ListSkillsResult, ErrorData> {
    let skills = visible(manager, server, caller, None).await?;
    Ok(ListSkillsResult::with_all_items(
        skills.into_iter().map(|found| found.skill).collect(),
    ))
}

/// `resources/list`: the `SKILL.md` of every skill `caller` may view.
pub(crate) async fn list_resources(
    manager: &Manager,
    server: &WikiServer,
    caller: &Caller,
) -> Result<ListResourcesResult, ErrorData> {
    let skills = visible(manager, server, caller, None).await?;
    Ok(ListResourcesResult::with_all_items(
        skills.into_iter().map(|found| found.listing).collect(),
    ))
}

/// `skills/get`: the skill at `uri`, or `-32602` when `caller` has none there (whether no page
/// or one it may not view: the answer is the same).
pub(crate) async fn get_skill(
    manager: &Manager,
    server: &WikiServer,
    caller: &Caller,
    uri: &str,
) -> Result<GetSkillResult, ErrorData> {
    let unknown = || {
        ErrorData::invalid_params(
            format!("No skill at {uri}: call skills/list for the skills this wiki serves you."),
            None,
        )
    };
    let name = name_in(uri).ok_or_else(unknown)?;
    let found = visible(manager, server, caller, Some(name)).await?;
    found
        .into_iter()
        .find(|found| found.skill.uri == uri)
        .map(|found| GetSkillResult::new(found.skill))
        .ok_or_else(unknown)
}

/// `resources/read`: one file of a skill `caller` may view, or "resource not found".
pub(crate) async fn read_resource(
    manager: &Manager,
    server: &WikiServer,
    caller: &Caller,
    uri: &str,
) -> Result<ReadResourceResult, ErrorData> {
    let missing = || {
        ErrorData::resource_not_found(
            format!(
                "No resource at {uri}: the files of a skill are listed in its skills/get \
                 manifest."
            ),
            None,
        )
    };
    let name = name_in(uri).ok_or_else(missing)?;
    let found = visible(manager, server, caller, Some(name)).await?;
    found
        .iter()
        .flat_map(|found| &found.files)
        .find(|file| file.uri == uri)
        .map(page::SkillFile::read_result)
        .ok_or_else(missing)
}

/// The skill name a `skill://name/...` URI is under.
fn name_in(uri: &str) -> Option<String> {
    let (name, _) = uri.strip_prefix(SCHEME)?.split_once('/')?;
    (!name.is_empty()).then(|| name.to_owned())
}

/// The skills of the configured space that `caller` may view, read from the store (only the
/// one named `only`, when given), within the call timeout.
async fn visible(
    manager: &Manager,
    server: &WikiServer,
    caller: &Caller,
    only: Option<String>,
) -> Result<Vec<PageSkill>, ErrorData> {
    let doors = manager.doors(server, caller);
    let space = manager.settings().skills_space.clone();
    let Some(space) = space else {
        return Ok(Vec::new());
    };
    let store = Arc::clone(manager.store());
    let work =
        tokio::task::spawn_blocking(move || read_skills(&*store, &doors, &space, only.as_deref()));
    match tokio::time::timeout(manager.settings().call_timeout, work).await {
        Ok(Ok(Ok(skills))) => Ok(skills),
        Ok(Ok(Err(error))) => {
            tracing::warn!(wiki = %server.wiki(), %error, "reading the skills failed");
            Err(ErrorData::internal_error(STORE_FAILED, None))
        }
        Ok(Err(_)) | Err(_) => Err(ErrorData::internal_error(STORE_FAILED, None)),
    }
}

/// The blocking part of [`visible`]: the skill pages, then each skill's page and attachments.
fn read_skills(
    store: &dyn Store,
    doors: &Doors,
    space: &SpacePath,
    only: Option<&str>,
) -> wiki_store::Result<Vec<PageSkill>> {
    let mut skills = Vec::new();
    for (reference, name) in skill_pages(store, doors, space, only)? {
        if let Some(skill) = read_skill(store, &reference, &name)? {
            skills.push(skill);
        }
    }
    Ok(skills)
}

/// The pages of the skills space that are skills `doors` may view (only the one named
/// `only`, when given), with their skill names: the space's children through the row door.
fn skill_pages(
    store: &dyn Store,
    doors: &Doors,
    space: &SpacePath,
    only: Option<&str>,
) -> wiki_store::Result<Vec<(DocumentReference, String)>> {
    let home = space.home(doors.wiki());
    let children = store.children(&home, false, 0, MAX_SKILLS, &mut |reference| {
        doors.row_visible(reference)
    })?;
    if children.total > MAX_SKILLS as u64 {
        tracing::warn!(
            wiki = %doors.wiki(),
            space = %space,
            total = children.total,
            "the skills space has more pages than are served; the first {MAX_SKILLS} are"
        );
    }
    let mut pages = Vec::new();
    for node in children.nodes {
        let reference = node.reference;
        let Some(name) = skill_name(&reference, space) else {
            continue;
        };
        // A nested space is listed when the caller may view some page in it; the skill is its
        // home page, which the caller must be allowed to view itself.
        if only.is_some_and(|only| only != name) || !doors.row_visible(&reference) {
            continue;
        }
        let name = name.to_owned();
        pages.push((reference, name));
    }
    Ok(pages)
}

/// One skill from its page, or `None` when the page is gone or breaks a bound (logged).
fn read_skill(
    store: &dyn Store,
    reference: &DocumentReference,
    name: &str,
) -> wiki_store::Result<Option<PageSkill>> {
    let Some(document) = store.document(reference, None)? else {
        return Ok(None);
    };
    let attachments = store.attachments(reference)?;
    let declared: u64 = attachments.iter().map(|attachment| attachment.size).sum();
    if attachments.len() >= MAX_FILES || declared > MAX_BYTES {
        tracing::warn!(page = %reference, "a skill page has too many or too large attachments; not served");
        return Ok(None);
    }
    let mut files = Vec::with_capacity(attachments.len());
    for attachment in attachments {
        if let Some((info, bytes)) =
            store.attachment_content(reference, &attachment.name, Some(attachment.version))?
        {
            files.push((info.name, info.media.effective().to_owned(), bytes));
        }
    }
    match page_skill(name, &document, files) {
        Ok(skill) => Ok(Some(skill)),
        Err(reason) => {
            tracing::warn!(page = %reference, reason, "a skill page is not served");
            Ok(None)
        }
    }
}
