//! Wiki reach: whether this endpoint may touch another wiki at all.
//!
//! Reach is a SOURCE-side grant read only from the main wiki's configuration: a reach-enabled
//! endpoint reaches every wiki whatever the target's own flag, tools or filter, and only the
//! source endpoint's filter and the user's rights then apply. A sub-wiki admin cannot grant it.

use wiki_store::model::search::WikiScope;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::SpacePath;
use wiki_store::rights::{Right, RightScope};

use super::{Doors, store_failure};
use crate::untrusted::fragment;
use mcp_runtime::prelude::{ErrorKind, ToolError};

/// The `wiki` value that means every wiki of the farm (case-insensitive).
pub const ALL_WIKIS: &str = "all";

impl Doors {
    /// Whether this endpoint may touch `target`: its own wiki always, others only with reach.
    pub fn can_reach(&self, target: &WikiId) -> bool {
        target == &self.wiki || self.reach
    }

    /// The reach gate: `Ok` for this wiki, or for any wiki with reach; else the refusal naming
    /// the other wiki.
    pub fn check_reach(&self, target: &WikiId) -> Result<(), ToolError> {
        if self.can_reach(target) {
            Ok(())
        } else {
            Err(ToolError::new(format!(
                "Error: wiki \"{target}\" cannot be reached from this endpoint: cross-wiki reach is \
                 not enabled for this endpoint. Work in wiki \"{}\" (drop the wiki prefix or the \
                 'wiki' argument).",
                self.wiki
            )).with_kind(ErrorKind::Forbidden))
        }
    }

    /// Whether the caller may view `wiki` at the wiki level (what `list_wikis` shows).
    pub fn can_view_wiki(&self, wiki: &WikiId) -> bool {
        self.rights
            .decide(
                self.principal(),
                Right::View,
                &RightScope::Wiki(wiki.clone()),
            )
            .allowed
    }

    /// Whether the caller may view `space` of `wiki` as a whole: the endpoint's space filter
    /// exposes it and the view right holds at the space level (what a listing of spaces shows;
    /// a page's own rights still decide the page).
    pub fn can_view_space(&self, wiki: &WikiId, space: &SpacePath) -> bool {
        self.filter.exposes_space(wiki, space)
            && self
                .rights
                .decide(
                    self.principal(),
                    Right::View,
                    &RightScope::Space {
                        wiki: wiki.clone(),
                        space: space.clone(),
                    },
                )
                .allowed
    }

    /// The one wiki a call works in, from a tool's `wiki` argument: absent or blank is this
    /// wiki; `all` is refused (one wiki per call); another wiki needs reach.
    pub fn single_wiki(&self, param: Option<&str>) -> Result<WikiId, ToolError> {
        let Some(param) = param.map(str::trim).filter(|p| !p.is_empty()) else {
            return Ok(self.wiki.clone());
        };
        if param.eq_ignore_ascii_case(ALL_WIKIS) {
            return Err(ToolError::new(
                "Error: 'wiki' must name one wiki here (\"all\" is accepted only by searches). \
                 Omit it to stay in this wiki, or see list_wikis.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        let target = parse_wiki(param)?;
        self.check_reach(&target)?;
        Ok(target)
    }

    /// [`Doors::single_wiki`] for a tool that lists a wiki's content: another wiki must also
    /// exist and be one the caller may view, else it is refused as unknown (as a search
    /// refuses it), never read as an empty wiki.
    pub async fn existing_wiki(&self, param: Option<&str>) -> Result<WikiId, ToolError> {
        let target = self.single_wiki(param)?;
        if target == self.wiki {
            return Ok(target);
        }
        self.known(target).await
    }

    /// Refuses `wiki` when it does not exist or the caller may not view it, in the words
    /// [`Doors::existing_wiki`] uses; this endpoint's own wiki passes without a lookup.
    pub async fn known_wiki(&self, wiki: &WikiId) -> Result<(), ToolError> {
        if wiki == &self.wiki {
            return Ok(());
        }
        self.known(wiki.clone()).await.map(drop)
    }

    /// `target` if it exists and the caller may view it; a wiki it may not view is refused
    /// exactly like one that does not exist (list_wikis does not show it either), so the
    /// answer tells nothing of it. A failed lookup fails closed.
    async fn known(&self, target: WikiId) -> Result<WikiId, ToolError> {
        let lookup = target.clone();
        match self.blocking(move |store| store.wiki(&lookup)).await? {
            Ok(Some(_)) if self.can_view_wiki(&target) => Ok(target),
            Ok(_) => Err(ToolError::new(format!(
                "Error: wiki \"{target}\" does not exist. Call list_wikis for the wikis you can use."
            )).with_kind(ErrorKind::NotFound)),
            Err(error) => Err(store_failure(
                &format!("look up wiki \"{target}\", so it is not available"),
                &error,
            )),
        }
    }

    /// The wikis a search covers, from its `wiki` argument: absent, blank or this
    /// wiki is this wiki; without reach anything else is refused; `all` is the whole farm; an
    /// unknown wiki, or one the caller may not view (answered alike, so the answer does not say
    /// which wikis exist), is refused with a pointer to list_wikis; a failed lookup fails closed.
    pub async fn search_wikis(&self, param: Option<&str>) -> Result<WikiScope, ToolError> {
        let Some(param) = param.map(str::trim).filter(|p| !p.is_empty()) else {
            return Ok(WikiScope::Only(vec![self.wiki.clone()]));
        };
        if param == self.wiki.as_str() {
            return Ok(WikiScope::Only(vec![self.wiki.clone()]));
        }
        if !self.reach {
            return Err(ToolError::new(format!(
                "Error: cross-wiki reach is not enabled for this endpoint, so 'wiki' cannot select \
                 another wiki. Omit 'wiki' to search wiki \"{}\".",
                self.wiki
            ))
            .with_kind(ErrorKind::Forbidden));
        }
        if param.eq_ignore_ascii_case(ALL_WIKIS) {
            return Ok(WikiScope::All);
        }
        self.known(parse_wiki(param)?)
            .await
            .map(|target| WikiScope::Only(vec![target]))
    }
}

fn parse_wiki(param: &str) -> Result<WikiId, ToolError> {
    WikiId::new(param).map_err(|_| {
        ToolError::new(format!(
            "Error: 'wiki' must be a wiki id such as \"main\" (got \"{}\"). Call list_wikis for \
             the wikis you can use.",
            fragment(param)
        ))
        .with_kind(ErrorKind::BadArgument)
    })
}
