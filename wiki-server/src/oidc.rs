//! OIDC access tokens as wiki users: the verifier says who the identity provider vouches for,
//! this says which wiki user that is.
//!
//! A verified token names a user through the configured claim (`oidc_verifier::UserClaim`).
//! That name must be a registered wiki user; an unknown one is refused unless the operator
//! asked for users to be created on first sign-in, and then it is created with no group and no
//! right of its own (it is in `all-users`, which every registered user is). The guest's name is
//! never accepted: a token cannot sign anyone in as the guest.
//!
//! Which users exist is cached until the store's change sequence moves, like the opaque token
//! resolutions beside it, so a request with a cached verified token costs a hash, two lookups
//! and no store read; a user deleted by an admin command is refused from the next request on.

use std::collections::HashMap;
use std::sync::Arc;

use oidc_verifier::{ClientCredentials, LoginClient, Quoted, Refusal, Verifier};
use parking_lot::Mutex;
use wiki_store::model::user::{GUEST_USER, validate_principal_name};
use wiki_store::{Store, StoreError};

use crate::Error;

/// User names cached before the cache starts over (bounds memory under a flood of distinct
/// verified names, which only the identity provider can mint).
const MAX_CACHED_USERS: usize = 10_000;

/// Why an OIDC bearer token does not sign a wiki user in. Every case is answered alike (401,
/// RFC 6750 `invalid_token`); the `Display` is for the log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OidcRefusal {
    /// The verifier refused the token (signature, issuer, audience, times, shape).
    #[error(transparent)]
    Token(#[from] Refusal),
    /// The token is valid but its user claim is not a usable wiki user name.
    #[error("the token's user {user} (claim `{claim}`) is not a valid wiki user name: {reason}")]
    InvalidUserName {
        /// The name, quoted and cut for the log (it comes from the token).
        user: String,
        /// The claim it came from.
        claim: String,
        /// Why the wiki refuses it.
        reason: String,
    },
    /// The token names the built-in guest, which no credential may sign in as.
    #[error("the token names the built-in guest user, which cannot sign in")]
    Guest,
    /// The token is valid but names no registered user, and users are not created on sign-in.
    #[error(
        "the token's user `{user}` (claim `{claim}`) is not a wiki user (create it with \
         `wiki-mcp user create`, or serve with --oidc-create-users)"
    )]
    UnknownUser {
        /// The name.
        user: String,
        /// The claim it came from.
        claim: String,
    },
}

/// A verified user, or why not; `Err(Error)` is the store failing (a 503, not a refusal).
pub type OidcOutcome = Result<Result<String, OidcRefusal>, Error>;

/// The verifier, the user policy, and which users exist as of a change sequence.
pub struct OidcIdentity {
    verifier: Verifier,
    create_users: bool,
    /// The admin page's sign-in at the same issuers, when a client is registered there.
    login: Option<Arc<LoginClient>>,
    known: Mutex<KnownUsers>,
}

#[derive(Default)]
struct KnownUsers {
    seq: u64,
    exists: HashMap<String, bool>,
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

impl OidcIdentity {
    /// Tokens `verifier` accepts sign in the users they name; with `create_users`, a name that
    /// is not yet a user becomes one.
    pub fn new(verifier: Verifier, create_users: bool) -> Self {
        OidcIdentity {
            verifier,
            create_users,
            login: None,
            known: Mutex::new(KnownUsers::default()),
        }
    }

    /// Also signs administrators in on the admin page at the same issuers, as OIDC client
    /// `client` (authorization code with PKCE; the ID token is checked by the same verifier,
    /// with the client id as its audience).
    pub fn with_login(mut self, client: ClientCredentials) -> Self {
        self.login = Some(Arc::new(LoginClient::new(self.verifier.clone(), client)));
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

    /// Whether unknown users are created on their first verified token.
    pub fn creates_users(&self) -> bool {
        self.create_users
    }

    /// The wiki user `token` signs in, as of change sequence `seq` (the caller just polled it).
    /// A refusal is logged here at INFO with its reason, which never reaches the client.
    pub async fn user_of(&self, store: &Arc<dyn Store>, token: &str, seq: u64) -> OidcOutcome {
        let verified = match self.verifier.verify(token).await {
            Ok(verified) => verified,
            Err(refusal) => return Ok(Err(logged(OidcRefusal::Token(refusal)))),
        };
        let user = verified.user();
        let claim = verified.user_claim();
        if user == GUEST_USER {
            return Ok(Err(logged(OidcRefusal::Guest)));
        }
        if let Err(error) = validate_principal_name("user", user) {
            return Ok(Err(logged(OidcRefusal::InvalidUserName {
                user: Quoted::new(user).as_str().to_owned(),
                claim: claim.to_owned(),
                reason: error.to_string(),
            })));
        }
        if self.cached(user, seq) == Some(true) {
            return Ok(Ok(user.to_owned()));
        }
        let exists = self
            .ensure_user(store, user, verified.issuer().as_str())
            .await?;
        self.remember(user, exists, seq);
        if exists {
            Ok(Ok(user.to_owned()))
        } else {
            Ok(Err(logged(OidcRefusal::UnknownUser {
                user: user.to_owned(),
                claim: claim.to_owned(),
            })))
        }
    }

    fn cached(&self, user: &str, seq: u64) -> Option<bool> {
        let known = self.known.lock();
        (known.seq == seq)
            .then(|| known.exists.get(user).copied())
            .flatten()
    }

    fn remember(&self, user: &str, exists: bool, seq: u64) {
        let mut known = self.known.lock();
        if known.seq != seq {
            *known = KnownUsers {
                seq,
                exists: HashMap::new(),
            };
        }
        if known.exists.len() >= MAX_CACHED_USERS {
            known.exists.clear();
        }
        known.exists.insert(user.to_owned(), exists);
    }

    /// Whether `user` exists after this call: looked up, and created when allowed and absent.
    /// Two first requests racing to create the same user both succeed.
    async fn ensure_user(
        &self,
        store: &Arc<dyn Store>,
        user: &str,
        issuer: &str,
    ) -> Result<bool, Error> {
        let store = Arc::clone(store);
        let name = user.to_owned();
        let create = self.create_users;
        let issuer = issuer.to_owned();
        tokio::task::spawn_blocking(move || match store.user(&name) {
            Ok(_) => Ok(true),
            Err(StoreError::NotFound { .. }) if create => match store.create_user(&name, None) {
                Ok(_) => {
                    tracing::info!(user = %name, %issuer, "created a wiki user on its first OIDC token");
                    Ok(true)
                }
                Err(StoreError::AlreadyExists { .. }) => Ok(true),
                Err(error) => Err(Error::Store(error)),
            },
            Err(StoreError::NotFound { .. }) => Ok(false),
            Err(error) => Err(Error::Store(error)),
        })
        .await
        .map_err(|error| Error::Join(error.to_string()))?
    }
}

fn logged(refusal: OidcRefusal) -> OidcRefusal {
    tracing::info!(%refusal, "OIDC bearer token refused");
    refusal
}
