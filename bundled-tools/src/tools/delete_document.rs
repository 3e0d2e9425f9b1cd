//! `delete_document`: moves a document, with all its translations, to the recycle
//! bin; never a permanent delete.
//!
//! Order of checks: the write door (reach, view and DELETE, space filter, the configuration),
//! existence, the sensitive denylist, base_version, the children guard, then the store's delete
//! under its compare-and-set on the default row.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::untrusted::fragment;

use crate::seams::deleted::deletion;
use crate::seams::history::required_version;
use crate::seams::write_params::DeleteParams;
use crate::seams::written::Written;

/// The page name holding a space's preferences: never deleted by this tool.
const PREFERENCES: &str = "WebPreferences";

/// How many pages the children count reads per store call.
const CHILDREN_PAGE: usize = 500;

/// Move a document and all its translations to the recycle bin (restore_document brings it
/// back).
#[mcp_tool(
    id = "delete_document",
    write,
    idempotent,
    output = Written,
    confirm,
    category = categories::AUTHORING,
    title = "Delete a document (recycle bin)",
    man = "NOTES
    The document goes to the recycle bin with every translation, attachment and object:
    restore_document brings it back (list_trash lists the bin). Nothing is ever deleted
    permanently by this tool. You need the delete right on the document.

    base_version is required: the version of the default language that get_document showed. If
    the document changed since, nothing is deleted and you get a version conflict. A retry of a
    delete that succeeded (the document is in the recycle bin at that version) answers
    `Already deleted` and changes nothing.

    Refused, in this order: a document that does not exist; the preference and configuration
    pages (WebPreferences of any space, XWiki.XWikiPreferences, the main wiki's
    XWiki.XWikiServer* pages, the MCP configuration documents); a stale base_version; a space
    home (Space.WebHome) that still has other pages in its space or nested spaces, hidden pages
    and translations included (the refusal gives the exact count: delete or move them first). A
    space home whose only other page is its WebPreferences is deleted; the preferences page
    stays and the result says so.

EXAMPLES
    delete_document reference=\"Sandbox.Draft\" base_version=\"1.3\"
    delete_document reference=\"Sandbox.Draft\" base_version=\"1.3\" comment=\"Merged into Sandbox.WebHome\"

SEE ALSO
    get_document (the version), get_tree (children), restore_document, list_trash"
)]
struct DeleteDocument {
    /// The document.
    reference: String,
    #[param(flatten)]
    delete: DeleteParams,
}

impl Execute<Structured<Written>> for DeleteDocument {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<Written>> {
        let base = required_version("base_version", &self.delete.base_version)?;
        let door = ctx.doors()?.write()?;
        let target = door
            .target(
                &self.reference,
                self.delete.wiki.as_deref(),
                None,
                Right::Delete,
            )
            .await?;
        let reference = target.reference().clone();
        if target.current().is_none() {
            return already_deleted(ctx, &target, base).await;
        }
        refuse_sensitive(&reference)?;
        let retry = "pass the new version if it should still be deleted";
        let base = target.base(Some(base), BaseRule::Required, retry)?;
        let preferences = children_guard(ctx, &reference).await?;
        let comment = Comment::new(self.delete.comment.as_deref(), "Deleted document");
        let entry = door.delete_document(&target, comment, base).await?;
        let mut out = vec![format!(
            "Deleted document {} (version {}) to the recycle bin.",
            fragment(&reference.to_string()),
            entry.version
        )];
        let translations = target.translations();
        if !translations.is_empty() {
            out.push(format!(
                "Its translations were deleted with it: {}.",
                translations
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(preferences) = preferences {
            out.push(format!(
                "The space's preferences page {} was left in place.",
                fragment(&preferences.to_string())
            ));
        }
        out.push(format!(
            "restore_document reference=\"{}\" brings it back (with every translation, \
             attachment and object).",
            fragment(&reference.to_string())
        ));
        let value = Written::deleted(&target, entry.version);
        Ok(ToolOutput::text(out.join("\n")).structured(value))
    }
}

/// A delete of a page that is not there: a retry of a delete that happened (the page is in the
/// bin at the version sent) answers quietly that it is done; a page deleted at another version
/// says so; a page that was never there is refused.
async fn already_deleted(
    ctx: &ToolContext,
    target: &WriteTarget,
    base: Version,
) -> ToolResult<Structured<Written>> {
    let page = fragment(&target.reference().to_string()).into_owned();
    match ctx.doors()?.deleted_document(target.authorized()).await? {
        Some(entry) if entry.version == base => {
            let text = format!(
                "Already deleted: {page} is in the recycle bin, {}. Nothing was changed.",
                deletion(&entry)
            );
            let value = Written::deleted(target, entry.version);
            Ok(ToolOutput::text(text).structured(value))
        }
        Some(entry) => Err(ToolError::new(format!(
            "Error: {page} is already in the recycle bin, {} (not at the version you sent, \
             {base}). Nothing was deleted.",
            deletion(&entry)
        ))
        .with_kind(ErrorKind::NotFound)),
        None => Err(ToolError::new(format!(
            "Error: the {} does not exist. Nothing was deleted.",
            target.row_name()
        ))
        .with_kind(ErrorKind::NotFound)),
    }
}

/// The preference and server pages no agent deletes; the MCP configuration
/// documents were refused by the write door already.
fn refuse_sensitive(reference: &DocumentReference) -> Result<(), ToolError> {
    let local = reference.local();
    let sensitive = reference.name() == PREFERENCES
        || local == "XWiki.XWikiPreferences"
        || (reference.wiki().as_str() == wiki_tool_sdk::store::model::wiki::MAIN_WIKI
            && local.starts_with("XWiki.XWikiServer"));
    if sensitive {
        return Err(ToolError::new(format!(
            "Error: \"{}\" holds preferences or server settings; delete_document never deletes \
             it. Nothing was deleted.",
            fragment(&reference.to_string())
        ))
        .with_kind(ErrorKind::Forbidden));
    }
    Ok(())
}

/// Refuses a space home that still has pages under it, counted with hidden pages and
/// translations, across every page of the space whatever the caller may see (the count must be
/// exact, and it names no page). A space whose only other page is its preferences page passes;
/// that page is returned so the result can say it stays.
async fn children_guard(
    ctx: &ToolContext,
    reference: &DocumentReference,
) -> Result<Option<DocumentReference>, ToolError> {
    if !reference.is_home() {
        return Ok(None);
    }
    let home = reference.clone();
    let (pages, translations) = ctx
        .store_call("count the pages under the space", move |store| {
            let mut pages = Vec::new();
            loop {
                let batch = store.pages(
                    home.wiki(),
                    Some(home.space()),
                    true,
                    pages.len(),
                    CHILDREN_PAGE,
                )?;
                let done = batch.len() < CHILDREN_PAGE;
                pages.extend(
                    batch
                        .into_iter()
                        .map(|node| node.reference)
                        .filter(|page| *page != home),
                );
                if done {
                    break;
                }
            }
            let mut translations = 0;
            for page in &pages {
                if let Some(locales) = store.document_locales(page)? {
                    translations += locales.translations.len();
                }
            }
            Ok((pages, translations))
        })
        .await?;
    let preferences = DocumentReference::new(
        reference.wiki().clone(),
        reference.space().clone(),
        PREFERENCES,
    )
    .ok();
    match pages.as_slice() {
        [] => Ok(None),
        [only] if translations == 0 && Some(only) == preferences.as_ref() => Ok(preferences),
        _ => Err(ToolError::new(format!(
            "Error: \"{}\" is the home of a space that still holds {} other document(s) (hidden \
             ones and translations included). Delete or move them first (get_tree lists the \
             visible ones). Nothing was deleted.",
            fragment(&reference.to_string()),
            pages.len() + translations
        ))
        .with_kind(ErrorKind::Conflict)),
    }
}
