//! OIDC access tokens as wiki users: the verifier says who the identity provider vouches for,
//! this says which wiki user that is.
//!
//! A person at an identity provider is their issuer and subject (`iss`, `sub`): the subject is
//! stable and unique at its issuer, and nothing else in a token is. OpenID Connect Core says a
//! relying party must not rely on `preferred_username` (or `email`) being unique, and several
//! providers let their users choose it. So a verified token signs in the wiki user its
//! `(issuer, subject)` is linked to (`wiki_store::IdentityStore`), and a token whose identity is
//! linked to nobody never signs in as an existing user, whatever its claims say. Links are made:
//!
//! - by an administrator: `wiki-mcp user link --user NAME --issuer URL --subject SUB`, or on
//!   the admin page's users area;
//! - at the identity's first sign-in, when the server was asked to create users
//!   (`--oidc-create-users`): a new user named by the configured claim, with no group and no
//!   right of its own, linked to the identity in the same transaction. A name that is already a
//!   user's (a local user's, or another identity's, of this or another issuer) is refused, and
//!   the log says how to link the identity if it is the same person: users created this way can
//!   never take over each other's or a local user's name, so each issuer's identities live in
//!   their own namespace of links;
//! - while a farm moves off name matching (it served OIDC tokens before links existed):
//!   `wiki-mcp oidc adopt --issuer URL` puts existing users up for adoption, and the first token
//!   of that issuer whose claim names one of them claims it, once. Until an administrator ran
//!   it, a server with an issuer refuses to start on such a farm ([`OidcIdentity::check_farm`]),
//!   rather than let tokens that used to sign in by name stop working unexplained.
//!
//! The guest's name is never created or claimed. Which user an identity signs in is cached
//! until the store's change sequence moves (every link, unlink and adoption moves it), like the
//! opaque token resolutions beside it: a request with a cached verified token costs a hash,
//! two lookups and no store read; an unlinked identity is remembered too, so repeating its
//! token does not reach the store until something changes.
//!
//! What a token may do beside who it is comes from its scope claim (`scope.rs`): `mcp:read`
//! without `mcp:write` narrows it to reading, as a read-only API token is narrowed.

mod scope;

use std::collections::HashMap;
use std::sync::Arc;

use oidc_verifier::{ClientCredentials, LoginClient, Quoted, Refusal, VerifiedToken, Verifier};
use parking_lot::Mutex;
use wiki_store::model::user::{GUEST_USER, validate_principal_name};
use wiki_store::{Entity, Store, StoreError};

use crate::Error;

pub use scope::{OidcAccess, ScopeGrants};

/// Identities cached before the cache starts over (bounds memory under a flood of distinct
/// verified identities, which only the identity provider can mint).
const MAX_CACHED_IDENTITIES: usize = 10_000;

/// Why an OIDC token does not sign a wiki user in. Every case is answered alike (401, RFC 6750
/// `invalid_token`, or the admin page's refusal); the `Display` is for the log, where an
/// administrator reads how to link the identity.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OidcRefusal {
    /// The verifier refused the token (signature, issuer, audience, times, shape).
    #[error(transparent)]
    Token(#[from] Refusal),
    /// The token's issuer or subject cannot be stored (too long, control characters).
    #[error("the token's identity {subject} at {issuer} cannot be linked: {reason}")]
    InvalidIdentity {
        /// The issuer.
        issuer: String,
        /// The subject, quoted and cut for the log.
        subject: String,
        /// Why.
        reason: String,
    },
    /// The identity is linked to no user, and its claim is not a name a user could be created
    /// or adopted under.
    #[error(
        "the token's identity {subject} at {issuer} is linked to no wiki user, and its user \
         {user} (claim `{claim}`) is not a valid wiki user name: {reason}"
    )]
    InvalidUserName {
        /// The issuer.
        issuer: String,
        /// The subject, quoted and cut for the log.
        subject: String,
        /// The name, quoted and cut for the log (it comes from the token).
        user: String,
        /// The claim it came from.
        claim: String,
        /// Why the wiki refuses it.
        reason: String,
    },
    /// The identity is linked to no user and names the built-in guest, which nothing signs in
    /// as.
    #[error("the token's identity is linked to no wiki user and names the built-in guest user")]
    Guest,
    /// The identity is linked to no user, and users are not created on sign-in.
    #[error(
        "the token's identity {subject} at {issuer} (claim `{claim}`: {user}) is linked to no \
         wiki user; an administrator links it (`wiki-mcp user link --user NAME --issuer \
         {issuer} --subject {subject}`), or serve with --oidc-create-users"
    )]
    Unlinked {
        /// The issuer.
        issuer: String,
        /// The subject, as a word of a shell command.
        subject: String,
        /// The name its claim gives, quoted and cut.
        user: String,
        /// The claim it came from.
        claim: String,
    },
    /// The identity is linked to no user, and the user it would be created as exists: names are
    /// never matched.
    #[error(
        "the token's identity {subject} at {issuer} is linked to no wiki user, and its name \
         {user} (claim `{claim}`) is an existing user's, which a token never takes over; if \
         that user is this person, an administrator links it (`wiki-mcp user link --user \
         NAME --issuer {issuer} --subject {subject}`)"
    )]
    NameTaken {
        /// The issuer.
        issuer: String,
        /// The subject, as a word of a shell command.
        subject: String,
        /// The name, quoted and cut.
        user: String,
        /// The claim it came from.
        claim: String,
    },
}

/// The wiki user a token signs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OidcUser {
    /// The user's name.
    pub name: String,
    /// Whether this sign-in wrote a link (a user created or adopted): the caller's view of
    /// users and rights is older than it.
    pub linked_now: bool,
}

/// A verified user, or why not; `Err(Error)` is the store failing (a 503, not a refusal).
pub type OidcOutcome = Result<Result<OidcUser, OidcRefusal>, Error>;

/// The user an access token signs in and what its scope grants ([`ScopeGrants`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OidcBearer {
    /// The user.
    pub user: OidcUser,
    /// What the token's scope lets it do.
    pub access: OidcAccess,
}

/// What a cached identity resolved to.
type Resolved = Result<String, OidcRefusal>;

/// The verifier, the user policy, and which users identities sign in as of a change sequence.
pub struct OidcIdentity {
    verifier: Verifier,
    create_users: bool,
    /// Which scope values grant reading and writing.
    grants: ScopeGrants,
    /// The admin page's sign-in at the same issuers, when a client is registered there.
    login: Option<Arc<LoginClient>>,
    known: Mutex<KnownIdentities>,
}

#[derive(Default)]
struct KnownIdentities {
    seq: u64,
    /// Keyed by issuer and subject.
    resolved: HashMap<(String, String), Resolved>,
}

impl std::fmt::Debug for OidcIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OidcIdentity")
            .field("issuers", &self.verifier.issuers())
            .field("create_users", &self.create_users)
            .field("login", &self.login.as_ref().map(|login| login.client()))
            .finish_non_exhaustive()
    }
}

/// A farm that served OIDC tokens by name before identities were linked, not yet moved off it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "this farm's users signed in with OIDC tokens by name before this version, which binds \
     each identity to its issuer and subject instead. Decide once how the existing users meet \
     their identities, then start again: `{command}` lists the users a token of each issuer \
     may claim by name at its next sign-in (add --yes to do it); or link each person \
     yourself with `wiki-mcp user link --user NAME --issuer URL --subject SUB` and run the \
     same command with --none"
)]
pub struct UnsettledFarm {
    /// The command to run, with this server's issuers.
    pub command: String,
}

impl OidcIdentity {
    /// Tokens `verifier` accepts sign in the users their identities are linked to; with
    /// `create_users`, an unlinked identity gets a new user of its own at its first sign-in.
    pub fn new(verifier: Verifier, create_users: bool) -> Self {
        OidcIdentity {
            verifier,
            create_users,
            grants: ScopeGrants::default(),
            login: None,
            known: Mutex::new(KnownIdentities::default()),
        }
    }

    /// Also signs administrators in on the admin page at the same issuers, as OIDC client
    /// `client` (authorization code with PKCE; the ID token is checked by the same verifier,
    /// with the client id as its audience).
    pub fn with_login(mut self, client: ClientCredentials) -> Self {
        self.login = Some(Arc::new(LoginClient::new(self.verifier.clone(), client)));
        self
    }

    /// Reads access tokens' scopes with `grants` instead of `mcp:read` / `mcp:write`.
    pub fn with_scope_grants(mut self, grants: ScopeGrants) -> Self {
        self.grants = grants;
        self
    }

    /// The admin page's OIDC sign-in, when configured.
    pub fn login(&self) -> Option<&Arc<LoginClient>> {
        self.login.as_ref()
    }

    /// The verifier (its issuers are the RFC 9728 `authorization_servers`).
    pub fn verifier(&self) -> &Verifier {
        &self.verifier
    }

    /// Whether unlinked identities get a user of their own on their first verified token.
    pub fn creates_users(&self) -> bool {
        self.create_users
    }

    /// Refuses a farm that still awaits the decision of how its existing users meet their
    /// identities ([`UnsettledFarm`], naming the command that makes it). A store that does not
    /// answer is not a refusal: nothing signs in by name whatever the farm's state, and the
    /// server starts during an outage.
    pub fn check_farm(&self, store: &dyn Store) -> Result<(), UnsettledFarm> {
        match store.identities() {
            Ok(identities) if identities.upgrade_pending => {
                let issuers: String = self
                    .verifier
                    .issuers()
                    .iter()
                    .map(|issuer| format!(" --issuer {}", issuer.as_str()))
                    .collect();
                Err(UnsettledFarm {
                    command: format!("wiki-mcp oidc adopt{issuers}"),
                })
            }
            Ok(_) => Ok(()),
            Err(error) => {
                tracing::warn!(%error, "cannot read the farm's identity links at start");
                Ok(())
            }
        }
    }

    /// The wiki user access token `token` signs in, as of change sequence `seq` (the caller
    /// just polled it). A refusal is logged here at INFO with its reason, which never reaches
    /// the client.
    pub async fn user_of(&self, store: &Arc<dyn Store>, token: &str, seq: u64) -> OidcOutcome {
        Ok(self
            .bearer_of(store, token, seq)
            .await?
            .map(|bearer| bearer.user))
    }

    /// [`OidcIdentity::user_of`], with what the access token's scope grants.
    pub async fn bearer_of(
        &self,
        store: &Arc<dyn Store>,
        token: &str,
        seq: u64,
    ) -> Result<Result<OidcBearer, OidcRefusal>, Error> {
        match self.verifier.verify(token).await {
            Ok(verified) => {
                let access = self.grants.access(&verified);
                let user = self.user_of_verified(store, &verified, seq).await?;
                Ok(user.map(|user| OidcBearer { user, access }))
            }
            Err(refusal) => Ok(Err(logged(OidcRefusal::Token(refusal)))),
        }
    }

    /// The wiki user a verified token (an access token, or the admin page's ID token) signs in.
    pub async fn user_of_verified(
        &self,
        store: &Arc<dyn Store>,
        verified: &VerifiedToken,
        seq: u64,
    ) -> OidcOutcome {
        let key = (
            verified.issuer().as_str().to_owned(),
            verified.subject().to_owned(),
        );
        if let Some(resolved) = self.cached(&key, seq) {
            return Ok(resolved
                .map(|name| OidcUser {
                    name,
                    linked_now: false,
                })
                .map_err(logged));
        }
        let claimed = Claimed {
            issuer: key.0.clone(),
            subject: key.1.clone(),
            user: verified.user().to_owned(),
            claim: verified.user_claim().to_owned(),
        };
        let store = Arc::clone(store);
        let create = self.create_users;
        let decided = tokio::task::spawn_blocking(move || claimed.resolve(&*store, create))
            .await
            .map_err(|error| Error::Join(error.to_string()))??;
        let resolved = decided.clone().map(|user| user.name);
        self.remember(key, resolved, seq);
        Ok(decided.map_err(logged))
    }

    fn cached(&self, key: &(String, String), seq: u64) -> Option<Resolved> {
        let known = self.known.lock();
        (known.seq == seq)
            .then(|| known.resolved.get(key).cloned())
            .flatten()
    }

    fn remember(&self, key: (String, String), resolved: Resolved, seq: u64) {
        let mut known = self.known.lock();
        if known.seq != seq {
            *known = KnownIdentities {
                seq,
                resolved: HashMap::new(),
            };
        }
        if known.resolved.len() >= MAX_CACHED_IDENTITIES {
            known.resolved.clear();
        }
        known.resolved.insert(key, resolved);
    }
}

/// What a verified token says of its person.
struct Claimed {
    issuer: String,
    subject: String,
    /// The name the configured claim gives (or `sub`'s).
    user: String,
    claim: String,
}

impl Claimed {
    /// The user this identity signs in: its link's; else, when its claim names a valid user
    /// name, the user an adoption lets it claim, or a new user when `create`. Runs on a
    /// blocking thread; reads first, and writes only for an unlinked identity.
    fn resolve(
        &self,
        store: &dyn Store,
        create: bool,
    ) -> Result<Result<OidcUser, OidcRefusal>, Error> {
        let linked = |name: String, linked_now: bool| Ok(Ok(OidcUser { name, linked_now }));
        match store.linked_user(&self.issuer, &self.subject) {
            Ok(Some(name)) => return linked(name, false),
            Ok(None) => {}
            Err(error) => return self.failed(error),
        }
        if self.user == GUEST_USER {
            return Ok(Err(OidcRefusal::Guest));
        }
        if let Err(error) = validate_principal_name("user", &self.user) {
            return Ok(Err(OidcRefusal::InvalidUserName {
                issuer: self.issuer.clone(),
                subject: quoted(&self.subject),
                user: quoted(&self.user),
                claim: self.claim.clone(),
                reason: error.to_string(),
            }));
        }
        match store.claim_adopted_identity(&self.issuer, &self.subject, &self.user) {
            Ok(true) => {
                tracing::info!(user = %self.user, issuer = %self.issuer, "an OIDC identity claimed the user an administrator put up for adoption");
                return linked(self.user.clone(), true);
            }
            Ok(false) => {}
            Err(error) => return self.failed(error),
        }
        if !create {
            return Ok(Err(OidcRefusal::Unlinked {
                issuer: self.issuer.clone(),
                subject: shell_word(&self.subject),
                user: quoted(&self.user),
                claim: self.claim.clone(),
            }));
        }
        match store.create_linked_user(&self.issuer, &self.subject, &self.user) {
            Ok(_) => {
                tracing::info!(user = %self.user, issuer = %self.issuer, "created a wiki user on its identity's first OIDC token");
                linked(self.user.clone(), true)
            }
            Err(StoreError::AlreadyExists {
                entity: Entity::User,
                ..
            }) => Ok(Err(OidcRefusal::NameTaken {
                issuer: self.issuer.clone(),
                subject: shell_word(&self.subject),
                user: quoted(&self.user),
                claim: self.claim.clone(),
            })),
            // Its first requests raced: another one linked it.
            Err(StoreError::AlreadyExists { .. }) => {
                match store.linked_user(&self.issuer, &self.subject) {
                    Ok(Some(name)) => linked(name, true),
                    Ok(None) => Err(Error::Store(StoreError::ConcurrentSave { attempts: 1 })),
                    Err(error) => self.failed(error),
                }
            }
            Err(error) => self.failed(error),
        }
    }

    /// A store refusal of the identity's shape is a refusal of the token; anything else is the
    /// store failing.
    fn failed(&self, error: StoreError) -> Result<Result<OidcUser, OidcRefusal>, Error> {
        match error {
            StoreError::Invalid(invalid) => Ok(Err(OidcRefusal::InvalidIdentity {
                issuer: quoted(&self.issuer),
                subject: quoted(&self.subject),
                reason: invalid.to_string(),
            })),
            error => Err(Error::Store(error)),
        }
    }
}

fn quoted(text: &str) -> String {
    Quoted::new(text).as_str().to_owned()
}

/// `text` as one word of a shell command an administrator copies from the log: as it is when
/// it holds only characters no shell reads specially, else single-quoted (cut as [`Quoted`]
/// cuts, control characters escaped).
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "._:@/+=,-".contains(c);
    if !text.is_empty() && text.len() <= Quoted::MAX_CHARS && text.chars().all(plain) {
        return text.to_owned();
    }
    let escaped: String = text
        .chars()
        .take(Quoted::MAX_CHARS)
        .flat_map(char::escape_debug)
        .collect();
    format!("'{}'", escaped.replace('\'', "'\\''"))
}

fn logged(refusal: OidcRefusal) -> OidcRefusal {
    tracing::info!(%refusal, "OIDC token refused");
    refusal
}
