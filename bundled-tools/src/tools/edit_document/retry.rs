//! Recognising a retry of an edit that succeeded: the row has moved past the base_version
//! sent, but applying the same edits to that version gives exactly what the row holds now (and
//! the title sent is the row's title), so the edit is done and its answer was lost. A creation
//! retried (one edit with an empty old_string on a row that now holds exactly new_string) is
//! recognised too. Anything else is left to the usual checks, which refuse it.

use mcp_runtime::output::lines::normalize_line_endings;
use wiki_tool_sdk::prelude::*;

use super::Edit;
use super::apply::apply;

/// The version the row is at when `edits` (and `title`) sent against `sent` are already in
/// it; `None` when they are not, or when it cannot be told.
pub(super) async fn already_in(
    doors: &Doors,
    target: &WriteTarget,
    sent: Option<Version>,
    edits: &[Edit],
    title: Option<&str>,
) -> Result<Option<Version>, ToolError> {
    let Some(current) = target.current() else {
        return Ok(None);
    };
    if title.is_some_and(|title| title != current.title) {
        return Ok(None);
    }
    let now = normalize_line_endings(&current.content).into_owned();
    if let [edit] = edits
        && edit.old_string.is_empty()
    {
        let created = normalize_line_endings(&edit.new_string);
        return Ok((sent.is_none() && created == now).then_some(current.version));
    }
    let Some(sent) = sent.filter(|_| target.version_refused(sent, BaseRule::OptionalLock)) else {
        return Ok(None);
    };
    let reference = target.reference().clone();
    let locale = target.locale().cloned();
    let edits = edits.to_vec();
    let version = current.version;
    // The same linear application as the edit itself, off the async workers.
    doors
        .blocking(move |store| {
            let Ok(Some(revision)) = store.revision(&reference, locale.as_ref(), sent) else {
                return None;
            };
            let then = normalize_line_endings(&revision.content);
            let applied = apply(&then, &edits).ok()?;
            (applied.text == now).then_some(version)
        })
        .await
}
