//! Signatures and algorithms: what may sign a token, with which key.

use oidc_verifier::testing::TestKey;
use oidc_verifier::{Quoted, Refusal, SigningAlgorithm};
use serde_json::json;

use crate::harness::{AUDIENCE, Setup, config, rs256, verifier};

#[tokio::test]
async fn a_valid_token_of_each_algorithm_verifies() {
    let rs = rs256("rs");
    let ps = TestKey::rsa("ps", SigningAlgorithm::PS256);
    let es = TestKey::p256("es");
    let setup = Setup::new(&[&rs, &ps, &es]).await;
    for key in [&rs, &ps, &es] {
        let token = setup
            .token()
            .claim("preferred_username", "alice.smith")
            .sign(key);
        let verified = setup
            .verify(&token)
            .await
            .unwrap_or_else(|refusal| panic!("{}: {refusal}", key.algorithm()));
        assert_eq!(verified.algorithm(), key.algorithm());
        assert_eq!(verified.key_id(), Some(key.kid()));
        assert_eq!(verified.issuer(), setup.issuer.issuer());
        assert_eq!(verified.subject(), "alice");
        assert_eq!(verified.user(), "alice.smith");
        assert_eq!(verified.user_claim(), "preferred_username");
        assert_eq!(verified.claim("aud"), Some(&json!(AUDIENCE)));
    }
    // One discovery and one JWKS fetch served all three.
    assert_eq!(setup.issuer.discovery_requests(), 1);
    assert_eq!(setup.issuer.jwks_requests(), 1);
}

#[tokio::test]
async fn a_bad_signature_is_refused() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let bad_signature = |issuer: &str| Refusal::BadSignature {
        issuer: issuer.to_owned(),
        kid: Quoted::new("k1"),
    };
    let issuer = setup.issuer.issuer().as_str();

    // Claims changed after signing: the signature no longer covers them.
    let genuine = setup.token().sign(&key);
    let forged_claims = setup.token().claim("sub", "mallory").sign(&key);
    let mut parts: Vec<&str> = genuine.split('.').collect();
    parts[1] = forged_claims.split('.').nth(1).unwrap_or_default();
    assert_eq!(
        setup.verify(&parts.join(".")).await.err(),
        Some(bad_signature(issuer))
    );

    // Signed by another key under the published kid of an ES256 key.
    let es = TestKey::p256("es");
    setup.issuer.publish(&[&key, &es]);
    setup.advance(61);
    let impostor = TestKey::p256("es");
    let token = setup.token().sign(&impostor);
    assert_eq!(
        setup.verify(&token).await.err(),
        Some(Refusal::BadSignature {
            issuer: issuer.to_owned(),
            kid: Quoted::new("es"),
        })
    );
    // The genuine token still verifies: nothing above poisoned the cache.
    assert!(setup.verify(&setup.token().sign(&key)).await.is_ok());
}

#[tokio::test]
async fn alg_none_is_refused() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    for token in [
        setup.token().unsigned(),
        setup.token().header("kid", "k1").unsigned(),
        // A real signature, relabelled `none`.
        setup.token().header("alg", "none").sign(&key),
    ] {
        assert_eq!(
            setup.verify(&token).await.err(),
            Some(Refusal::UnsupportedAlgorithm(Quoted::new("none")))
        );
    }
    // Refused before any key was needed.
    assert_eq!(setup.issuer.jwks_requests(), 0);
}

#[tokio::test]
async fn hs256_signed_with_the_public_key_as_secret_is_refused() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let jwk_text = key.jwk().to_string();
    // Even a key set that publishes the public key as a symmetric `oct` key does not help.
    let mut published = vec![key.jwk()];
    published.push(json!({
        "kty": "oct",
        "kid": "hmac",
        "k": base64_url(key.public_key_der()),
    }));
    setup.issuer.publish_jwks(published);
    for (secret, kid) in [
        (key.public_key_der(), "k1"),
        (jwk_text.as_bytes(), "k1"),
        (key.public_key_der(), "hmac"),
    ] {
        let token = setup.token().header("kid", kid).sign_hs256(secret);
        assert_eq!(
            setup.verify(&token).await.err(),
            Some(Refusal::UnsupportedAlgorithm(Quoted::new("HS256")))
        );
    }
    for alg in ["HS384", "HS512", "RS384", "ES384", "EdDSA"] {
        let token = setup.token().header("alg", alg).sign(&key);
        assert_eq!(
            setup.verify(&token).await.err(),
            Some(Refusal::UnsupportedAlgorithm(Quoted::new(alg)))
        );
    }
}

#[tokio::test]
async fn a_key_must_fit_the_token_algorithm() {
    let rsa = rs256("rsa");
    let es = TestKey::p256("es");
    let setup = Setup::new(&[&rsa, &es]).await;
    let mismatch = |token: &str| {
        let verifier = setup.verifier.clone();
        let token = token.to_owned();
        async move {
            match verifier.verify(&token).await {
                Err(Refusal::KeyMismatch { reason, .. }) => reason,
                other => panic!("expected a key mismatch, got {other:?}"),
            }
        }
    };
    // ES256 under the kid of an RSA key.
    let token = setup.token().sign(&es.renamed("rsa"));
    assert!(mismatch(&token).await.contains("needs a P-256 key"));
    // PS256 under an RSA key published for RS256 only.
    let token = setup
        .token()
        .sign(&TestKey::rsa("rsa", SigningAlgorithm::PS256));
    assert!(mismatch(&token).await.contains("declared for RS256"));
    // RS256 under the EC key's kid.
    let token = setup.token().sign(&rsa.renamed("es"));
    assert!(mismatch(&token).await.contains("needs an RSA key"));

    // A key published without `alg` serves both RSA algorithms; one marked for encryption
    // serves none, and is refused without a refetch.
    setup.issuer.publish_jwks(vec![rsa.bare_jwk(), {
        let mut enc = rsa.renamed("enc").bare_jwk();
        enc["use"] = json!("enc");
        enc
    }]);
    setup.advance(61);
    let verifier = verifier(config(&[&setup.issuer]), &setup.clock);
    for alg in [SigningAlgorithm::RS256, SigningAlgorithm::PS256] {
        let token = setup.token().sign(&TestKey::rsa("rsa", alg));
        assert!(verifier.verify(&token).await.is_ok(), "{alg}");
    }
    let fetches = setup.issuer.jwks_requests();
    let token = setup.token().sign(&rsa.renamed("enc"));
    match verifier.verify(&token).await {
        Err(Refusal::KeyMismatch { reason, .. }) => assert!(reason.contains("encryption")),
        other => panic!("expected a key mismatch, got {other:?}"),
    }
    assert_eq!(setup.issuer.jwks_requests(), fetches);
}

#[tokio::test]
async fn a_token_without_kid_is_checked_against_every_fitting_key() {
    let first = TestKey::p256("first");
    let second = TestKey::p256("second");
    let setup = Setup::new(&[&first, &second]).await;
    let token = setup
        .token()
        .header("kid", serde_json::Value::Null)
        .sign(&second);
    let verified = setup
        .verify(&token)
        .await
        .expect("the second key verifies it");
    assert_eq!(verified.key_id(), None);
    let stranger = TestKey::p256("stranger");
    let token = setup
        .token()
        .header("kid", serde_json::Value::Null)
        .sign(&stranger);
    assert!(matches!(
        setup.verify(&token).await,
        Err(Refusal::BadSignature { kid, .. }) if kid == Quoted::absent()
    ));
}

#[tokio::test]
async fn critical_headers_oversized_and_malformed_tokens_are_refused() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let token = setup.token().header("crit", json!(["b64"])).sign(&key);
    assert_eq!(
        setup.verify(&token).await.err(),
        Some(Refusal::CriticalHeader)
    );
    let token = setup
        .token()
        .claim("padding", "x".repeat(20_000))
        .sign(&key);
    assert!(matches!(
        setup.verify(&token).await,
        Err(Refusal::TooLarge { max: 16384, .. })
    ));
    assert!(matches!(
        setup.verify("wmcp_0123456789ab_secret").await,
        Err(Refusal::Malformed(_))
    ));
}

#[tokio::test]
async fn the_authorization_header_must_carry_a_bearer_token() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let token = setup.token().sign(&key);
    for header in [format!("Bearer {token}"), format!("bearer  {token} ")] {
        assert!(
            setup.verifier.verify_authorization(&header).await.is_ok(),
            "{header}"
        );
    }
    for header in ["Basic YWxpY2U6cHc=", "Bearer", "Bearer ", token.as_str()] {
        assert_eq!(
            setup.verifier.verify_authorization(header).await.err(),
            Some(Refusal::NotBearer),
            "{header}"
        );
    }
}

fn base64_url(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}
