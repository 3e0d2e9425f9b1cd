//! OIDC tokens as wiki users, on both backends: a token signs in the user its issuer and
//! subject are linked to, never the user its claims name; an unlinked identity gets a user of
//! its own only with `create_users`, and never one whose name is taken; two issuers' identities
//! of one name are different people; an adoption is claimed once, by its issuer.
//!
//! A local issuer (keys generated here) signs the tokens; the server's HTTP side is
//! `tests/suite/oidc.rs`'s.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use oidc_verifier::testing::{TestIssuer, TestKey};
use oidc_verifier::{Verifier, VerifierConfig};
use wiki_server::oidc::{OidcIdentity, OidcRefusal, OidcUser};
use wiki_store::Store;
use wiki_store::model::wiki::WikiId;
use wiki_store::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::testing::backend_test;

use crate::harness::Farm;

const AUDIENCE: &str = "wiki-mcp";

/// Two issuers the server trusts, each with its key.
struct Issuers {
    a: (TestIssuer, TestKey),
    b: (TestIssuer, TestKey),
}

impl Issuers {
    async fn start() -> Self {
        let start = || async {
            let key = TestKey::p256("k1");
            let issuer = TestIssuer::start(&[&key])
                .await
                .unwrap_or_else(|error| panic!("{error}"));
            (issuer, key)
        };
        Issuers {
            a: start().await,
            b: start().await,
        }
    }

    fn identity(&self, create_users: bool) -> OidcIdentity {
        let config = VerifierConfig::new(
            [self.a.0.issuer().clone(), self.b.0.issuer().clone()],
            AUDIENCE,
        )
        .unwrap_or_else(|error| panic!("{error}"));
        let verifier = Verifier::new(config).unwrap_or_else(|error| panic!("{error}"));
        OidcIdentity::new(verifier, create_users)
    }
}

/// A token of `issuer` for subject `sub` whose `preferred_username` is `name`.
fn token((issuer, key): &(TestIssuer, TestKey), sub: &str, name: &str) -> String {
    issuer
        .token(AUDIENCE, sub, SystemTime::now())
        .claim("preferred_username", name)
        .sign(key)
}

fn issuer_url((issuer, _): &(TestIssuer, TestKey)) -> String {
    issuer.issuer().as_str().to_owned()
}

/// Who `token` signs in: the user, or the refusal.
async fn signs_in(
    identity: &OidcIdentity,
    store: &Arc<dyn Store>,
    token: &str,
) -> Result<OidcUser, OidcRefusal> {
    let seq = store.change_seq().unwrap_or_else(|error| panic!("{error}"));
    identity
        .user_of(store, token, seq)
        .await
        .unwrap_or_else(|error| panic!("the store failed: {error}"))
}

async fn user_name(identity: &OidcIdentity, store: &Arc<dyn Store>, token: &str) -> Option<String> {
    signs_in(identity, store, token)
        .await
        .ok()
        .map(|user| user.name)
}

fn make_farm_admin(farm: &Farm, user: &str) {
    farm.store
        .create_user(user, None)
        .unwrap_or_else(|error| panic!("{error}"));
    farm.store
        .set_right(&RightRule {
            scope: RightScope::Wiki(WikiId::main()),
            subject: Subject::User(user.to_owned()),
            right: Right::Admin,
            effect: Effect::Allow,
        })
        .unwrap_or_else(|error| panic!("{error}"));
}

#[backend_test]
async fn a_token_naming_the_administrator_is_not_the_administrator() {
    let farm = Farm::new();
    make_farm_admin(&farm, "admin");
    let issuers = Issuers::start().await;
    let forged = token(&issuers.a, "mallory", "admin");
    for create_users in [false, true] {
        let identity = issuers.identity(create_users);
        let refused = signs_in(&identity, &farm.store, &forged).await;
        assert!(
            matches!(
                refused,
                Err(OidcRefusal::Unlinked { .. } | OidcRefusal::NameTaken { .. })
            ),
            "create_users {create_users}: {refused:?}"
        );
    }
    // Nor by `sub` alone: a subject equal to a user's name is no link either.
    let by_sub = token(&issuers.a, "admin", "admin");
    assert_eq!(
        user_name(&issuers.identity(true), &farm.store, &by_sub).await,
        None
    );

    // Linked, the administrator's own identity signs in as the administrator, and a linked
    // identity whose claim says `admin` is still the user it is linked to.
    let a = issuer_url(&issuers.a);
    farm.store
        .link_identity(&a, "sub-root", "admin")
        .unwrap_or_else(|error| panic!("{error}"));
    farm.store
        .link_identity(&a, "mallory", "alice")
        .unwrap_or_else(|error| panic!("{error}"));
    let identity = issuers.identity(false);
    assert_eq!(
        user_name(
            &identity,
            &farm.store,
            &token(&issuers.a, "sub-root", "root")
        )
        .await
        .as_deref(),
        Some("admin")
    );
    assert_eq!(
        user_name(&identity, &farm.store, &forged).await.as_deref(),
        Some("alice")
    );
}

#[backend_test]
async fn two_issuers_identities_of_one_name_are_different_users() {
    let farm = Farm::new();
    let issuers = Issuers::start().await;
    let identity = issuers.identity(true);
    let dave_at_a = token(&issuers.a, "sub-dave", "dave");
    let dave_at_b = token(&issuers.b, "sub-dave", "dave");

    let created = signs_in(&identity, &farm.store, &dave_at_a).await;
    assert_eq!(
        created,
        Ok(OidcUser {
            name: "dave".to_owned(),
            linked_now: true
        })
    );
    assert!(
        matches!(
            signs_in(&identity, &farm.store, &dave_at_b).await,
            Err(OidcRefusal::NameTaken { .. })
        ),
        "B's dave never becomes A's"
    );
    // A local user's name is no more available than another issuer's.
    assert!(matches!(
        signs_in(&identity, &farm.store, &token(&issuers.b, "x", "bob")).await,
        Err(OidcRefusal::NameTaken { .. })
    ));

    // The administrator links B's dave to a user of their own: each signs in as theirs.
    farm.store
        .create_user("dave-b", None)
        .unwrap_or_else(|error| panic!("{error}"));
    farm.store
        .link_identity(&issuer_url(&issuers.b), "sub-dave", "dave-b")
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        user_name(&identity, &farm.store, &dave_at_b)
            .await
            .as_deref(),
        Some("dave-b")
    );
    assert_eq!(
        signs_in(&identity, &farm.store, &dave_at_a).await,
        Ok(OidcUser {
            name: "dave".to_owned(),
            linked_now: false
        })
    );
}

#[backend_test]
async fn a_link_made_or_removed_applies_from_the_next_token() {
    let farm = Farm::new();
    let issuers = Issuers::start().await;
    let identity = issuers.identity(false);
    let carol = token(&issuers.a, "sub-carol", "carol-at-the-provider");
    assert!(matches!(
        signs_in(&identity, &farm.store, &carol).await,
        Err(OidcRefusal::Unlinked { .. })
    ));
    let a = issuer_url(&issuers.a);
    farm.store
        .link_identity(&a, "sub-carol", "bob")
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        user_name(&identity, &farm.store, &carol).await.as_deref(),
        Some("bob"),
        "the cached refusal is dropped when the link moves the change sequence"
    );
    farm.store
        .unlink_identity(&a, "sub-carol")
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(user_name(&identity, &farm.store, &carol).await, None);
}

#[backend_test]
async fn an_adopted_user_is_claimed_once_by_its_issuer() {
    let farm = Farm::new();
    let issuers = Issuers::start().await;
    let identity = issuers.identity(false);
    let a = issuer_url(&issuers.a);
    farm.store
        .adopt_identities(&a, &["alice".to_owned()], Duration::from_secs(3600))
        .unwrap_or_else(|error| panic!("{error}"));

    assert_eq!(
        user_name(&identity, &farm.store, &token(&issuers.b, "sub-x", "alice")).await,
        None,
        "another issuer's alice claims nothing"
    );
    assert_eq!(
        signs_in(
            &identity,
            &farm.store,
            &token(&issuers.a, "sub-alice", "alice")
        )
        .await,
        Ok(OidcUser {
            name: "alice".to_owned(),
            linked_now: true
        })
    );
    assert_eq!(
        user_name(
            &identity,
            &farm.store,
            &token(&issuers.a, "sub-other", "alice")
        )
        .await,
        None,
        "claimed once: a second identity naming alice is not her"
    );
    assert_eq!(
        user_name(
            &identity,
            &farm.store,
            &token(&issuers.a, "sub-alice", "renamed")
        )
        .await
        .as_deref(),
        Some("alice"),
        "and her own identity stays hers whatever it is called"
    );
}
