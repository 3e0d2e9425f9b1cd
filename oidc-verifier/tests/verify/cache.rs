//! The verified-token cache: served until expiry, bounded.

use crate::harness::{Setup, rs256};

#[tokio::test]
async fn a_repeated_token_is_answered_from_the_cache() {
    let key = rs256("k1");
    let setup = Setup::new(&[&key]).await;
    let token = setup.token().sign(&key);
    let first = setup.verify(&token).await.expect("verified");
    assert_eq!(setup.verifier.cached_tokens(), 1);
    for _ in 0..5 {
        let again = setup.verify(&token).await.expect("cached");
        assert_eq!(again.subject(), first.subject());
        assert_eq!(again.expires_at(), first.expires_at());
    }
    assert_eq!(setup.verifier.cached_tokens(), 1);
    // Refused tokens are not cached.
    let refused = setup.token().claim("aud", "other").sign(&key);
    assert!(setup.verify(&refused).await.is_err());
    assert_eq!(setup.verifier.cached_tokens(), 1);
}

#[tokio::test]
async fn the_cache_is_bounded() {
    let key = rs256("k1");
    let setup = Setup::with(&[&key], |config| config.with_max_cached_tokens(3)).await;
    for n in 0..10 {
        let token = setup.token().claim("n", n).sign(&key);
        assert!(setup.verify(&token).await.is_ok());
        assert!(setup.verifier.cached_tokens() <= 3);
    }
    let off = Setup::with(&[&key], |config| config.with_max_cached_tokens(0)).await;
    assert!(off.verify(&off.token().sign(&key)).await.is_ok());
    assert_eq!(off.verifier.cached_tokens(), 0);
}
