//! The apply: every page resolved through the write door and checked against the version the
//! preview showed, all the saves announced at once (one confirmation for the whole call), then
//! one save per page under its compare-and-set. A page that fails is reported and the others
//! are still saved; cancellation stops before the next page.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::document::SaveOutcome;

use super::replace::replaced;
use super::{PageAt, PageOutcome, ReplaceInDocuments, Replaced, Status, page_name, replacements};
use crate::seams::counted::{count, counted};
use crate::seams::history::required_version;
use crate::seams::one_line::one_line;

/// How a conflict found by the store reads (someone saved between the check and the save).
const RACED: &str = "version conflict: it was changed while this call ran; nothing was written \
                     to it. Preview again for its new version.";

/// A page that passed every check, ready to save.
struct Planned {
    /// Its place in the result.
    index: usize,
    target: WriteTarget,
    change: RowChange,
    base: Base,
}

pub(super) async fn apply(
    ctx: &ToolContext,
    tool: &ReplaceInDocuments,
) -> ToolResult<Structured<Replaced>> {
    let versions = versions(&tool.pages)?;
    let doors = ctx.doors()?;
    let door = doors.write()?;
    let mut outcomes = Vec::with_capacity(tool.pages.len());
    let mut planned: Vec<Planned> = Vec::new();
    for (page, base) in tool.pages.iter().zip(versions) {
        if ctx.is_cancelled() {
            return Err(cancelled());
        }
        let mut outcome = PageOutcome {
            reference: page.reference.clone(),
            locale: page.locale.clone(),
            base_version: base.to_string(),
            version: None,
            replacements: 0,
            status: Status::Failed,
            error: None,
        };
        match plan(doors, &door, tool, page, base).await? {
            Ok((target, change, replacements)) => {
                outcome.reference = target.reference().to_string();
                outcome.locale = target.locale().map(ToString::to_string);
                outcome.replacements = count(replacements);
                let twice = planned
                    .iter()
                    .any(|earlier| same_row(&earlier.target, &target));
                if twice {
                    outcome.error = Some("listed twice; it is changed once.".to_owned());
                } else {
                    let retry = "preview again for its new version";
                    let base = target.base(Some(base), BaseRule::Required, retry)?;
                    planned.push(Planned {
                        index: outcomes.len(),
                        target,
                        change,
                        base,
                    });
                }
            }
            Err(why) => outcome.error = Some(why),
        }
        outcomes.push(outcome);
    }
    let writes: Vec<PlannedWrite<'_>> = planned
        .iter()
        .map(|page| PlannedWrite::Save(&page.target, &page.change))
        .collect();
    door.announce(&writes).await?;
    drop(writes);

    let total = planned
        .iter()
        .map(|page| outcomes[page.index].replacements)
        .sum::<u64>();
    let default_comment = format!("Replaced a text across documents ({})", replacements(total));
    for page in planned {
        let outcome = &mut outcomes[page.index];
        if ctx.is_cancelled() {
            outcome.error = Some("not saved: the call was cancelled.".to_owned());
            continue;
        }
        let comment = Comment::new(tool.write.comment.as_deref(), &default_comment);
        match door
            .save(&page.target, page.change, comment, page.base)
            .await
        {
            Ok(
                SaveOutcome::Updated { version, .. }
                | SaveOutcome::Unchanged { version }
                | SaveOutcome::Created { version },
            ) => {
                outcome.status = Status::Replaced;
                outcome.version = Some(version.to_string());
            }
            Err(failure) => {
                outcome.error = Some(match failure.store_error() {
                    Some(StoreError::VersionConflict { .. }) => RACED.to_owned(),
                    _ => one_line(failure.message().message()),
                });
            }
        }
    }
    let text = report(&outcomes);
    if outcomes.iter().all(|page| page.status != Status::Replaced) {
        return Err(ToolError::new(text).with_kind(ErrorKind::Conflict));
    }
    let value = Replaced {
        pages: outcomes,
        next_offset: None,
    };
    Ok(Structured::new(value, text))
}

/// Every page's base_version, parsed before anything is read: a malformed one refuses the call.
fn versions(pages: &[PageAt]) -> Result<Vec<Version>, ToolError> {
    pages
        .iter()
        .enumerate()
        .map(|(index, page)| {
            required_version("base_version", &page.base_version).map_err(|error| {
                let message = error.message();
                ToolError::new(format!(
                    "Error: page {}: {} Nothing was saved.",
                    index + 1,
                    message.strip_prefix("Error: ").unwrap_or(message)
                ))
                .with_kind(ErrorKind::BadArgument)
            })
        })
        .collect()
}

/// One page resolved through the door, checked against `base` and replaced in memory: the
/// target, its change and the replacement count; or why this page is not saved (the outer
/// error is the call's own failure, such as a shutdown).
async fn plan(
    doors: &Doors,
    door: &WriteDoor<'_>,
    tool: &ReplaceInDocuments,
    page: &PageAt,
    base: Version,
) -> Result<Result<(WriteTarget, RowChange, usize), String>, ToolError> {
    let resolved = door
        .target(
            &page.reference,
            tool.write.wiki.as_deref(),
            page.locale.as_deref(),
            Right::Edit,
        )
        .await;
    let target = match resolved {
        Ok(target) => target,
        Err(error) => return Ok(Err(one_line(error.message()))),
    };
    let Some(current) = target.current() else {
        return Ok(Err(format!(
            "the {} does not exist; nothing was written to it.",
            target.row_name()
        )));
    };
    if current.version != base {
        return Ok(Err(format!(
            "version conflict: it is now at version {}, not {base}; nothing was written to it. \
             Preview again for its new version.",
            current.version
        )));
    }
    let content = current.content.clone();
    let (find, replace) = (tool.find.clone(), tool.replace.clone());
    // Linear, but up to a megabyte per page: off the async workers.
    let result = doors
        .blocking(move |_| replaced(&content, &find, &replace))
        .await?;
    Ok(result.map(|(content, replacements)| {
        let change = RowChange {
            content,
            title: None,
            major: tool.write.major,
        };
        (target, change, replacements)
    }))
}

fn same_row(one: &WriteTarget, other: &WriteTarget) -> bool {
    one.reference() == other.reference() && one.locale() == other.locale()
}

fn cancelled() -> ToolError {
    ToolError::new("The call was cancelled before any page was saved. Nothing was saved.")
        .with_kind(ErrorKind::Cancelled)
}

/// The apply as the agent reads it: a summary, then one line per page.
fn report(pages: &[PageOutcome]) -> String {
    let saved: Vec<&PageOutcome> = pages
        .iter()
        .filter(|page| page.status == Status::Replaced)
        .collect();
    let total: u64 = saved.iter().map(|page| page.replacements).sum();
    let mut out = vec![format!(
        "Replaced in {} of {}: {}.",
        saved.len(),
        counted(pages.len(), "page", "pages"),
        replacements(total)
    )];
    for page in pages {
        let name = page_name(&page.reference, page.locale.as_deref());
        out.push(match (&page.version, &page.error) {
            (Some(version), _) => format!(
                "- {name}: {}, version {} -> {version}",
                replacements(page.replacements),
                page.base_version
            ),
            (None, error) => format!(
                "- {name}: not saved: {}",
                error.as_deref().unwrap_or("no reason given.")
            ),
        });
    }
    out.join("\n")
}
