//! Signing many links for one caller away from its call: a rendered page names any number of
//! wiki and attachment targets, found while the page is rendered on a heavy slot, where the
//! call's context is not at hand. A [`Signer`] carries what signing needs (the base URL, the
//! key, the endpoint, the user) and nothing else, so it can move to that thread.

use std::sync::Arc;

use wiki_store::Clock;
use wiki_store::model::link::LinkTarget;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;

use super::{LINK_TTL, LinkClaims, LinkKey, LinkPage};

/// How long a page rendered with signed links may be kept: its links expire [`LINK_TTL`] after
/// they were signed, so one kept this long still has most of their time left to run.
const KEPT_SIGNED: u64 = LINK_TTL.as_secs() / 12;

/// Whom a [`Signer`] signs for, and when: what a page rendered with its links may be kept under
/// ([`Signer::signs_for`]). Two renderings with equal values carry the same links, signed in the
/// same few minutes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SignedFor {
    base: Arc<str>,
    endpoint: WikiId,
    user: Option<String>,
    /// The stretch of [`KEPT_SIGNED`] seconds the links are signed in.
    stretch: u64,
}

/// Signs links for one user through one endpoint, as a tool's `URL:` lines are signed.
#[derive(Debug, Clone)]
pub struct Signer {
    /// The public URL links start with; empty gives root-relative links (a page's own origin).
    base: Arc<str>,
    key: Arc<LinkKey>,
    endpoint: WikiId,
    user: Option<String>,
    /// The store's clock, which links are issued by.
    clock: Clock,
}

impl Signer {
    /// Links under `base` signed with `key`, issued by `endpoint` to `user` (`None`: the guest)
    /// at `clock`'s time (the store's: [`wiki_store::ChangeFeed::clock`]).
    pub fn new(
        base: Arc<str>,
        key: Arc<LinkKey>,
        endpoint: WikiId,
        user: Option<String>,
        clock: Clock,
    ) -> Self {
        Signer {
            base,
            key,
            endpoint,
            user,
            clock,
        }
    }

    /// Whom this signs for, through which endpoint and under which URL, in these few minutes:
    /// the key of a rendering that carries its links (a rendering for another holder must not
    /// hand out this holder's links, and one from an hour ago would hand out expired ones).
    pub fn signs_for(&self) -> SignedFor {
        let now = u64::try_from(self.clock.now().unix_timestamp()).unwrap_or(0);
        SignedFor {
            base: Arc::clone(&self.base),
            endpoint: self.endpoint.clone(),
            user: self.user.clone(),
            stretch: now / KEPT_SIGNED,
        }
    }

    /// The signed URL of `page` of `reference`.
    pub fn url(&self, page: LinkPage, reference: &DocumentReference) -> String {
        LinkClaims::issue(
            page,
            reference.clone(),
            self.endpoint.clone(),
            self.user.clone(),
            &self.clock,
        )
        .url(&self.base, &self.key)
    }

    /// The URL a link in rendered text should open for `target`: a document's view page, an
    /// attachment's download. Opening it re-checks the holder's view right, as for any link, so
    /// signing one for a page the holder may not view gives nothing away.
    pub fn target_url(&self, target: &LinkTarget) -> String {
        match target {
            LinkTarget::Document(reference) => self.url(LinkPage::View { locale: None }, reference),
            LinkTarget::Attachment { document, name } => {
                self.url(LinkPage::Download { name: name.clone() }, document)
            }
        }
    }
}
