//! Where a rule applies and which right it is about, read from what a person types (a wiki id,
//! an optional space or page, a right's name), and an effective right's reason in words.

use mcp_runtime::reason::ErrorKind;
use wiki_store::Store;
use wiki_store::model::rights::{Right, RightScope};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::{DocumentReference, SpacePath};
use wiki_store::rights::Reason;

use super::ChangeError;

/// The wiki `id` names, which must exist; the refusal lists the farm's wikis.
pub fn existing_wiki(store: &dyn Store, id: &str) -> Result<WikiId, ChangeError> {
    let Ok(wiki) = WikiId::new(id) else {
        return Err(ChangeError::refused(
            ErrorKind::BadArgument,
            format!("`{id}` is not a wiki id (lower-case letters, digits, `_` and `-`)"),
        ));
    };
    if store.wiki(&wiki).map_err(ChangeError::Store)?.is_none() {
        let known: Vec<String> = store
            .list_wikis()
            .map_err(ChangeError::Store)?
            .into_iter()
            .map(|w| w.id.to_string())
            .collect();
        return Err(ChangeError::refused(
            ErrorKind::NotFound,
            format!("unknown wiki `{id}` (wikis: {})", known.join(", ")),
        ));
    }
    Ok(wiki)
}

/// The place a rule applies to: the wiki `wiki` (which must exist), or the space (`Space.Sub`)
/// or page (`Space.Page`) in it. Blank `space` and `page` count as absent; naming both is
/// refused.
pub fn rule_scope(
    store: &dyn Store,
    wiki: &str,
    space: Option<&str>,
    page: Option<&str>,
) -> Result<RightScope, ChangeError> {
    let (space, page) = (given(space), given(page));
    let wiki = existing_wiki(store, wiki.trim())?;
    let bad = |text: String| ChangeError::refused(ErrorKind::BadArgument, text);
    Ok(match (space, page) {
        (Some(_), Some(_)) => {
            return Err(bad(
                "name a space or a page, not both: a rule applies to one place".to_owned(),
            ));
        }
        (Some(space), None) => RightScope::Space {
            space: SpacePath::parse(space).map_err(|error| {
                bad(format!(
                    "`{space}` is not a space ({error}): write it as `Space` or `Space.Sub`"
                ))
            })?,
            wiki,
        },
        (None, Some(page)) => {
            RightScope::Page(DocumentReference::parse(page, &wiki).map_err(|error| {
                bad(format!(
                    "`{page}` is not a page ({error}): write it as `Space.Page`"
                ))
            })?)
        }
        (None, None) => RightScope::Wiki(wiki),
    })
}

/// `text` trimmed, `None` when blank.
fn given(text: Option<&str>) -> Option<&str> {
    text.map(str::trim).filter(|text| !text.is_empty())
}

/// The right called `name`.
pub fn parse_right(name: &str) -> Result<Right, ChangeError> {
    name.trim().parse().map_err(|_| {
        ChangeError::refused(
            ErrorKind::BadArgument,
            format!("`{name}` is not a right: name view, edit, delete or admin"),
        )
    })
}

/// What decided an effective right, in words.
pub fn explain(reason: &Reason) -> String {
    match reason {
        Reason::FarmAdmin => "farm admin".to_owned(),
        Reason::WikiAdmin => "wiki admin".to_owned(),
        Reason::Rule(rule) => format!(
            "{} {} to {} on {}",
            rule.effect, rule.right, rule.subject, rule.scope
        ),
        Reason::RestrictedToOthers(scope) => format!("{scope} allows it to others only"),
        Reason::GuestNeverAdmin => "the guest is never an admin".to_owned(),
        Reason::NoRule => "no rule: denied by default".to_owned(),
    }
}
