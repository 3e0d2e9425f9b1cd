//! ID tokens for the relying party's sign-in (`Verifier::verify_id_token`): the client id as
//! the audience, `azp`, the nonce of this sign-in, the issuer it began at, and no caching.

use oidc_verifier::testing::TestKey;
use oidc_verifier::{Clock, IssuerUrl, Refusal, SigningAlgorithm};
use serde_json::json;

use crate::harness::Setup;

const CLIENT: &str = "wiki-admin";
const NONCE: &str = "n-0S6_WzA2Mj";

async fn setup() -> (Setup, TestKey) {
    let key = TestKey::rsa("k1", SigningAlgorithm::RS256);
    (Setup::new(&[&key]).await, key)
}

fn id_token(setup: &Setup) -> oidc_verifier::testing::TokenBuilder {
    setup
        .issuer
        .token(CLIENT, "alice", setup.clock.now())
        .claim("nonce", NONCE)
        .claim("preferred_username", "alice")
}

#[tokio::test]
async fn an_id_token_for_this_client_and_nonce_verifies_and_is_not_cached() {
    let (setup, key) = setup().await;
    let token = id_token(&setup).sign(&key);
    let issuer = setup.issuer.issuer().clone();
    let verified = setup
        .verifier
        .verify_id_token(&token, &issuer, CLIENT, NONCE)
        .await
        .expect("a good ID token");
    assert_eq!(verified.user(), "alice");
    assert_eq!(setup.verifier.cached_tokens(), 0);
    // Its audience is the client, not the resource server: it is no access token.
    assert!(matches!(
        setup.verify(&token).await,
        Err(Refusal::WrongAudience { .. })
    ));
}

#[tokio::test]
async fn another_nonce_another_client_or_another_issuer_is_refused() {
    let (setup, key) = setup().await;
    let issuer = setup.issuer.issuer().clone();
    let check = |token: String| {
        let verifier = setup.verifier.clone();
        let issuer = issuer.clone();
        async move {
            verifier
                .verify_id_token(&token, &issuer, CLIENT, NONCE)
                .await
        }
    };
    let wrong_nonce = id_token(&setup).claim("nonce", "other").sign(&key);
    assert_eq!(check(wrong_nonce).await.err(), Some(Refusal::WrongNonce));
    let no_nonce = id_token(&setup).without_claim("nonce").sign(&key);
    assert_eq!(check(no_nonce).await.err(), Some(Refusal::WrongNonce));
    let other_client = setup
        .issuer
        .token("another-app", "alice", setup.clock.now())
        .claim("nonce", NONCE)
        .sign(&key);
    assert!(matches!(
        check(other_client).await,
        Err(Refusal::WrongAudience { .. })
    ));
    let other_azp = id_token(&setup).claim("azp", "another-app").sign(&key);
    assert!(matches!(
        check(other_azp).await,
        Err(Refusal::WrongAuthorizedParty { .. })
    ));
    let several_without_azp = id_token(&setup)
        .claim("aud", json!([CLIENT, "another-app"]))
        .sign(&key);
    assert!(matches!(
        check(several_without_azp).await,
        Err(Refusal::WrongAuthorizedParty { .. })
    ));
    let elsewhere = IssuerUrl::parse("https://idp.example.com").expect("an issuer URL");
    let token = id_token(&setup).sign(&key);
    assert!(matches!(
        setup
            .verifier
            .verify_id_token(&token, &elsewhere, CLIENT, NONCE)
            .await,
        Err(Refusal::UnexpectedIssuer { .. })
    ));
    let expired = id_token(&setup).sign(&key);
    setup.advance(3600);
    assert!(matches!(check(expired).await, Err(Refusal::Expired { .. })));
}
