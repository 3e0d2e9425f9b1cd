//! Discovery and key sets: rotation, rate limits, an issuer that is down, and documents that
//! must not be trusted.

use oidc_verifier::testing::{TestIssuer, TestKey, TokenBuilder};
use std::time::Duration;

use oidc_verifier::{Clock, FetchError, FetchLimits, ManualClock, Quoted, RefreshPolicy, Refusal};

use crate::harness::{AUDIENCE, Setup, config, eventually, rs256, small_documents, unix, verifier};

#[tokio::test]
async fn an_unknown_kid_refetches_the_keys_and_finds_the_rotated_key() {
    let old = rs256("2026-01");
    let setup = Setup::new(&[&old]).await;
    assert!(setup.verify(&setup.token().sign(&old)).await.is_ok());
    assert_eq!(
        (
            setup.issuer.discovery_requests(),
            setup.issuer.jwks_requests()
        ),
        (1, 1)
    );

    // The provider rotates; a minute after the first fetch, a token names the new key.
    let new = TestKey::p256("2026-02");
    setup.issuer.publish(&[&old, &new]);
    setup.advance(60);
    let verified = setup.verify(&setup.token().sign(&new)).await;
    assert_eq!(
        verified.map(|t| t.key_id().map(str::to_owned)),
        Ok(Some("2026-02".into()))
    );
    // One more JWKS fetch; the jwks_uri found by discovery was reused.
    assert_eq!(
        (
            setup.issuer.discovery_requests(),
            setup.issuer.jwks_requests()
        ),
        (1, 2)
    );
    assert!(
        setup
            .verify(&setup.token().claim("n", 1).sign(&old))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn a_second_unknown_kid_within_the_minute_does_not_refetch() {
    let first = rs256("first");
    let setup = Setup::new(&[&first]).await;
    assert!(setup.verify(&setup.token().sign(&first)).await.is_ok());
    let second = TestKey::p256("second");
    setup.issuer.publish(&[&first, &second]);
    setup.advance(60);
    assert!(setup.verify(&setup.token().sign(&second)).await.is_ok());
    assert_eq!(setup.issuer.jwks_requests(), 2);

    // Another rotation 59 s after that fetch: the set is not fetched again, so the new key is
    // unknown.
    setup.advance(59);
    let third = TestKey::p256("third");
    setup.issuer.publish(&[&first, &second, &third]);
    let token = setup.token().sign(&third);
    match setup.verify(&token).await {
        Err(Refusal::UnknownKey { kid, detail, .. }) => {
            assert_eq!(kid, Quoted::new("third"));
            assert!(detail.contains("less than 60 s ago"), "{detail}");
        }
        other => panic!("expected an unknown key, got {other:?}"),
    }
    assert_eq!(setup.issuer.jwks_requests(), 2);
    // Forged kids in a burst cost nothing more either.
    for n in 0..20 {
        let forged = setup.token().sign(&third.renamed(&format!("forged-{n}")));
        assert!(matches!(
            setup.verify(&forged).await,
            Err(Refusal::UnknownKey { .. })
        ));
    }
    assert_eq!(setup.issuer.jwks_requests(), 2);

    // A minute after the last fetch, the next unknown kid fetches again.
    setup.advance(1);
    assert!(setup.verify(&token).await.is_ok());
    assert_eq!(setup.issuer.jwks_requests(), 3);
}

#[tokio::test]
async fn concurrent_tokens_with_a_new_kid_share_one_fetch() {
    let first = rs256("first");
    let setup = Setup::new(&[&first]).await;
    assert!(setup.verify(&setup.token().sign(&first)).await.is_ok());
    let rotated = TestKey::p256("rotated");
    setup.issuer.publish(&[&first, &rotated]);
    setup.advance(60);
    let mut tasks = tokio::task::JoinSet::new();
    for n in 0..16 {
        let verifier = setup.verifier.clone();
        let token = setup.token().claim("n", n).sign(&rotated);
        tasks.spawn(async move { verifier.verify(&token).await.is_ok() });
    }
    let mut verified = 0;
    while let Some(joined) = tasks.join_next().await {
        verified += usize::from(joined.unwrap_or(false));
    }
    assert_eq!(verified, 16);
    assert_eq!(setup.issuer.jwks_requests(), 2);
}

#[tokio::test]
async fn an_issuer_down_with_cached_keys_still_verifies() {
    let key = rs256("k1");
    let Setup {
        issuer,
        clock,
        verifier,
    } = Setup::new(&[&key]).await;
    let issuer_url = issuer.issuer().clone();
    let token = |n: u64| {
        TokenBuilder::new(issuer_url.as_str(), AUDIENCE, "alice", clock.now()).claim("n", n)
    };
    assert!(verifier.verify(&token(0).sign(&key)).await.is_ok());
    issuer.stop().await;

    // A token not seen before verifies with the cached keys.
    assert!(verifier.verify(&token(1).sign(&key)).await.is_ok());
    // Past the set's maximum age the refresh fails in the background; the keys are kept.
    clock.advance(RefreshPolicy::default().max_key_age);
    assert!(verifier.verify(&token(2).sign(&key)).await.is_ok());
    eventually("the failed refresh", || {
        verifier.status()[0].last_error.is_some()
    })
    .await;
    let status = &verifier.status()[0];
    assert_eq!(status.keys, 1);
    assert!(
        matches!(&status.last_error, Some(FetchError::Unreachable { .. })),
        "{status:?}"
    );
    assert!(verifier.verify(&token(3).sign(&key)).await.is_ok());

    // An unknown kid is refused, saying the refetch failed, and the cached key still works.
    clock.advance(RefreshPolicy::default().min_refetch_interval);
    match verifier.verify(&token(4).sign(&key.renamed("k2"))).await {
        Err(Refusal::UnknownKey { detail, .. }) => {
            assert!(detail.contains("fetching the set again failed"), "{detail}")
        }
        other => panic!("expected an unknown key, got {other:?}"),
    }
    assert!(verifier.verify(&token(5).sign(&key)).await.is_ok());
}

#[tokio::test]
async fn an_issuer_down_at_startup_is_used_once_it_is_up() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    setup.issuer.set_available(false);
    let statuses = setup.verifier.prefetch().await;
    assert_eq!(statuses.len(), 1);
    assert_eq!(statuses[0].keys, 0);
    assert!(
        matches!(
            &statuses[0].last_error,
            Some(FetchError::Status { status: 503, .. })
        ),
        "{statuses:?}"
    );
    let token = setup.token().sign(&key);
    match setup.verify(&token).await {
        Err(Refusal::KeysUnavailable { reason, .. }) => assert!(reason.contains("503"), "{reason}"),
        other => panic!("expected unavailable keys, got {other:?}"),
    }
    // Up again: the retry waits for its interval, then succeeds on the next token.
    setup.issuer.set_available(true);
    let attempts = setup.issuer.discovery_requests();
    assert!(matches!(
        setup.verify(&token).await,
        Err(Refusal::KeysUnavailable { .. })
    ));
    assert_eq!(setup.issuer.discovery_requests(), attempts);
    setup.advance(RefreshPolicy::default().retry_without_keys.as_secs());
    assert!(setup.verify(&token).await.is_ok());
    let status = &setup.verifier.status()[0];
    assert_eq!((status.keys, status.last_error.clone()), (1, None));
}

#[tokio::test]
async fn an_issuer_refusing_connections_at_startup_is_not_an_error() {
    let key = rs256("k1");
    let issuer = TestIssuer::start(&[&key]).await.expect("issuer");
    let config = config(&[&issuer]);
    let token = issuer
        .token(AUDIENCE, "alice", std::time::SystemTime::now())
        .sign(&key);
    issuer.stop().await;
    let clock = ManualClock::starting_now();
    let verifier = verifier(config, &clock);
    let statuses = verifier.prefetch().await;
    assert!(
        matches!(
            &statuses[0].last_error,
            Some(FetchError::Unreachable { .. })
        ),
        "{statuses:?}"
    );
    assert!(matches!(
        verifier.verify(&token).await,
        Err(Refusal::KeysUnavailable { .. })
    ));
}

#[tokio::test]
async fn a_discovery_document_naming_another_issuer_is_refused() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let impostor = format!("http://{}/realms/evil", setup.issuer.address());
    setup.issuer.state_issuer(Some(&impostor));
    let statuses = setup.verifier.prefetch().await;
    assert_eq!(
        statuses[0].last_error,
        Some(FetchError::IssuerMismatch {
            expected: setup.issuer.issuer().to_string(),
            found: Quoted::new(&impostor),
        })
    );
    // Its keys were never fetched, and its tokens are refused.
    assert_eq!(setup.issuer.jwks_requests(), 0);
    assert!(matches!(
        setup.verify(&setup.token().sign(&key)).await,
        Err(Refusal::KeysUnavailable { .. })
    ));
}

#[tokio::test]
async fn a_jwks_uri_over_http_to_another_host_is_never_fetched() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    setup
        .issuer
        .state_jwks_uri(Some("http://keys.example.com/realms/test/certs"));
    let statuses = setup.verifier.prefetch().await;
    match &statuses[0].last_error {
        Some(FetchError::UnusableJwksUri { reason, .. }) => assert!(reason.contains("use https")),
        other => panic!("expected an unusable jwks_uri, got {other:?}"),
    }
}

#[tokio::test]
async fn redirects_are_not_followed() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    for location in [
        "http://idp.example.com/.well-known/openid-configuration".to_owned(),
        format!("{}/.well-known/openid-configuration", setup.issuer.issuer()),
    ] {
        setup.issuer.redirect_discovery(Some(&location));
        let before = setup.issuer.discovery_requests();
        let statuses = setup.verifier.prefetch().await;
        assert!(
            matches!(
                &statuses[0].last_error,
                Some(FetchError::Status { status: 302, .. })
            ),
            "{location}: {statuses:?}"
        );
        assert_eq!(setup.issuer.discovery_requests(), before + 1, "{location}");
    }
}

#[tokio::test]
async fn a_hung_issuer_costs_at_most_the_timeout() {
    let key = rs256("k1");
    let limits = FetchLimits {
        timeout: Duration::from_millis(300),
        ..FetchLimits::default()
    };
    let setup = Setup::with(&[&key], |config| {
        config.with_fetch_limits(limits).expect("limits in range")
    })
    .await;
    setup.issuer.set_response_delay(Duration::from_secs(30));
    let statuses = setup.verifier.prefetch().await;
    match &statuses[0].last_error {
        Some(FetchError::Unreachable { reason, .. }) => {
            assert!(reason.contains("within 300 ms"), "{reason}");
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
}

#[tokio::test]
async fn a_jwks_too_large_is_refused() {
    let key = rs256("k1");
    let setup = Setup::with(&[&key], |config| {
        config
            .with_fetch_limits(small_documents(4096))
            .expect("limits in range")
    })
    .await;
    // A valid key set, padded past the bound with keys of no use.
    let mut keys = vec![key.jwk()];
    keys.extend((0..40).map(
        |n| serde_json::json!({"kty": "unknown", "kid": format!("pad-{n}"), "x": "y".repeat(64)}),
    ));
    let body = serde_json::json!({ "keys": keys }).to_string();
    assert!(body.len() > 4096);
    setup.issuer.serve_jwks_body(Some(body));
    let statuses = setup.verifier.prefetch().await;
    assert!(
        matches!(
            &statuses[0].last_error,
            Some(FetchError::TooLarge { max: 4096, .. })
        ),
        "{statuses:?}"
    );
    assert!(matches!(
        setup.verify(&setup.token().sign(&key)).await,
        Err(Refusal::KeysUnavailable { .. })
    ));
    // The same keys within the bound are taken.
    setup.issuer.serve_jwks_body(None);
    setup.advance(RefreshPolicy::default().retry_without_keys.as_secs());
    assert!(setup.verify(&setup.token().sign(&key)).await.is_ok());
}

#[tokio::test]
async fn a_key_withdrawn_by_the_issuer_stops_verifying_once_the_set_is_refreshed() {
    let withdrawn = rs256("withdrawn");
    let kept = TestKey::p256("kept");
    let setup = Setup::new(&[&withdrawn, &kept]).await;
    let ten_days = unix(setup.clock.now()) + 10 * 24 * 3600;
    let early = setup.token().claim("exp", ten_days).sign(&withdrawn);
    assert!(setup.verify(&early).await.is_ok());
    assert_eq!(setup.verifier.cached_tokens(), 1);

    setup.issuer.publish(&[&kept]);
    setup.advance(RefreshPolicy::default().max_key_age.as_secs());
    // The first token checked against the aged set triggers the background refresh (and is
    // verified with the cached set meanwhile).
    assert!(setup.verify(&setup.token().sign(&kept)).await.is_ok());
    eventually("the refreshed set", || {
        setup.verifier.status()[0].fetched_at == Some(setup.clock.now())
    })
    .await;
    assert_eq!(setup.issuer.jwks_requests(), 2);
    assert_eq!(setup.verifier.status()[0].keys, 1);
    // The withdrawn key's tokens left the cache with it, and are refused from now on.
    let late = setup.token().claim("exp", ten_days).sign(&withdrawn);
    for token in [&early, &late] {
        let refused = setup.verify(token).await;
        assert!(
            matches!(&refused, Err(Refusal::UnknownKey { kid, .. }) if *kid == Quoted::new("withdrawn")),
            "{refused:?}"
        );
    }
}

#[tokio::test]
async fn an_https_issuer_gets_a_client_trusting_the_system_roots() {
    // Builds the rustls client (ring provider, platform verifier) without contacting anyone:
    // construction does no I/O.
    let issuer = oidc_verifier::IssuerUrl::parse("https://idp.example.com/realms/acme")
        .expect("https issuer");
    let config = oidc_verifier::VerifierConfig::new([issuer], AUDIENCE).expect("config");
    let verifier = oidc_verifier::Verifier::new(config).expect("the system's CA roots load");
    assert_eq!(verifier.status()[0].last_attempt, None);
    assert_eq!(
        verifier.issuers()[0].discovery_url().as_str(),
        "https://idp.example.com/realms/acme/.well-known/openid-configuration"
    );
}
