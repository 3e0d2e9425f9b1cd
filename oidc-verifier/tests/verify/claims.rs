//! Claims: issuer, audience, times and the user, through real tokens.

use oidc_verifier::testing::{TestIssuer, TestKey};
use oidc_verifier::{Clock, ManualClock, Quoted, Refusal, UserClaim};
use serde_json::json;

use crate::harness::{AUDIENCE, Setup, config, rs256, unix, verifier};

#[tokio::test]
async fn an_expired_token_is_refused_once_the_leeway_has_passed() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    // Lives 300 s; the default leeway is 60 s.
    let token = setup.token().sign(&key);
    let verified = setup.verify(&token).await.expect("fresh token");
    let exp = verified.expires_at_unix();
    setup.advance(300 + 59);
    assert!(setup.verify(&token).await.is_ok(), "within the leeway");
    setup.advance(1);
    // The cached verification does not outlive the token either.
    let refusal = setup.verify(&token).await.err();
    assert!(
        matches!(refusal, Some(Refusal::Expired { exp: e, leeway: 60, .. }) if e == exp),
        "{refusal:?}"
    );
    assert_eq!(setup.verifier.cached_tokens(), 0);
    // A token minted already expired is refused on first sight.
    let token = setup.token().claim("exp", exp - 1000).sign(&key);
    assert!(matches!(
        setup.verify(&token).await,
        Err(Refusal::Expired { .. })
    ));
}

#[tokio::test]
async fn a_token_not_yet_valid_is_refused_until_its_nbf_minus_the_leeway() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let now = setup.clock.now();
    let in_two_minutes = unix(now) + 120;
    let token = setup.token().claim("nbf", in_two_minutes).sign(&key);
    assert!(matches!(
        setup.verify(&token).await,
        Err(Refusal::NotYetValid { nbf, .. }) if nbf == in_two_minutes
    ));
    setup.advance(60);
    assert!(setup.verify(&token).await.is_ok());
    let issued_later = setup.token().claim("iat", unix(now) + 3600).sign(&key);
    assert!(matches!(
        setup.verify(&issued_later).await,
        Err(Refusal::IssuedInFuture { .. })
    ));
}

#[tokio::test]
async fn a_token_for_another_audience_is_refused() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let token = setup.token().claim("aud", "account").sign(&key);
    assert_eq!(
        setup.verify(&token).await.err(),
        Some(Refusal::WrongAudience {
            expected: AUDIENCE.into(),
            found: Quoted::new("account"),
        })
    );
    let token = setup
        .token()
        .claim("aud", json!(["account", AUDIENCE]))
        .sign(&key);
    assert!(setup.verify(&token).await.is_ok());
    let token = setup.token().without_claim("aud").sign(&key);
    assert_eq!(
        setup.verify(&token).await.err(),
        Some(Refusal::MissingClaim("aud"))
    );
}

#[tokio::test]
async fn a_token_of_an_unconfigured_issuer_is_refused() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let elsewhere = format!("http://{}/realms/other", setup.issuer.address());
    let token = setup.token().claim("iss", elsewhere.as_str()).sign(&key);
    assert_eq!(
        setup.verify(&token).await.err(),
        Some(Refusal::UnknownIssuer(Quoted::new(&elsewhere)))
    );
    // A trailing slash makes another issuer: identifiers compare exactly.
    let slashed = format!("{}/", setup.issuer.issuer());
    let token = setup.token().claim("iss", slashed.as_str()).sign(&key);
    assert!(matches!(
        setup.verify(&token).await,
        Err(Refusal::UnknownIssuer(_))
    ));
    let token = setup.token().without_claim("iss").sign(&key);
    assert_eq!(
        setup.verify(&token).await.err(),
        Some(Refusal::MissingClaim("iss"))
    );
}

#[tokio::test]
async fn a_token_is_checked_against_the_keys_of_the_issuer_it_names() {
    // Two trusted issuers, each with its own P-256 key under the same kid.
    let key_a = TestKey::p256("k1");
    let key_b = TestKey::p256("k1");
    let a = TestIssuer::start(&[&key_a]).await.expect("issuer a");
    let b = TestIssuer::start(&[&key_b]).await.expect("issuer b");
    let clock = ManualClock::starting_now();
    let verifier = verifier(config(&[&a, &b]), &clock);
    assert_eq!(
        verifier.issuers(),
        &[a.issuer().clone(), b.issuer().clone()]
    );
    let now = clock.now();
    let from_a = a.token(AUDIENCE, "alice", now).sign(&key_a);
    let from_b = b.token(AUDIENCE, "bob", now).sign(&key_b);
    assert_eq!(
        verifier.verify(&from_a).await.map(|t| t.issuer().clone()),
        Ok(a.issuer().clone())
    );
    assert_eq!(
        verifier.verify(&from_b).await.map(|t| t.issuer().clone()),
        Ok(b.issuer().clone())
    );
    // Issuer a's key signing a token that claims issuer b: checked against b's key, refused.
    let a_claiming_b = b.token(AUDIENCE, "mallory", now).sign(&key_a);
    assert_eq!(
        verifier.verify(&a_claiming_b).await.err(),
        Some(Refusal::BadSignature {
            issuer: b.issuer().to_string(),
            kid: Quoted::new("k1"),
        })
    );
}

#[tokio::test]
async fn the_user_is_the_configured_claim_or_else_sub() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let named = setup
        .token()
        .claim("preferred_username", "asmith")
        .sign(&key);
    let user = setup
        .verify(&named)
        .await
        .map(|t| (t.user().to_owned(), t.user_claim().to_owned()));
    assert_eq!(user, Ok(("asmith".into(), "preferred_username".into())));
    let unnamed = setup.token().sign(&key);
    let user = setup
        .verify(&unnamed)
        .await
        .map(|t| (t.user().to_owned(), t.user_claim().to_owned()));
    assert_eq!(user, Ok(("alice".into(), "sub".into())));
    let odd = setup.token().claim("preferred_username", 42).sign(&key);
    assert!(matches!(setup.verify(&odd).await, Err(Refusal::NoUser(_))));
    let no_sub = setup.token().without_claim("sub").sign(&key);
    assert_eq!(
        setup.verify(&no_sub).await.err(),
        Some(Refusal::MissingClaim("sub"))
    );

    let by_email = Setup::with(&[&key], |config| {
        config.with_user_claim(UserClaim::new("email").expect("claim"))
    })
    .await;
    let token = by_email
        .token()
        .claim("email", "alice@example.com")
        .claim("preferred_username", "asmith")
        .claim("scope", "openid wiki:read")
        .sign(&key);
    let verified = by_email.verify(&token).await.expect("verified");
    assert_eq!(verified.user(), "alice@example.com");
    assert_eq!(
        verified.scopes().collect::<Vec<_>>(),
        ["openid", "wiki:read"]
    );
    assert_eq!(
        by_email
            .verifier
            .user_claim()
            .resolve(verified.claims())
            .map(|u| u.name),
        Ok("alice@example.com".into())
    );
}
