//! A verifier wired to test issuers on a manual clock.

use std::sync::Arc;
use std::time::Duration;

use oidc_verifier::testing::{TestIssuer, TestKey, TokenBuilder};
use oidc_verifier::{
    Clock, FetchLimits, ManualClock, Refusal, SigningAlgorithm, VerifiedToken, Verifier,
    VerifierConfig,
};

/// The audience every test verifier expects.
pub(crate) const AUDIENCE: &str = "wiki-mcp";

/// One issuer, one verifier, one clock.
pub(crate) struct Setup {
    pub(crate) issuer: TestIssuer,
    pub(crate) clock: ManualClock,
    pub(crate) verifier: Verifier,
}

impl Setup {
    /// An issuer publishing `keys`, and a verifier trusting it with default settings.
    pub(crate) async fn new(keys: &[&TestKey]) -> Setup {
        Setup::with(keys, |config| config).await
    }

    /// As [`Setup::new`], with the configuration adjusted by `adjust`.
    pub(crate) async fn with(
        keys: &[&TestKey],
        adjust: impl FnOnce(VerifierConfig) -> VerifierConfig,
    ) -> Setup {
        init_logs();
        let issuer = TestIssuer::start(keys)
            .await
            .expect("the test issuer starts");
        let clock = ManualClock::starting_now();
        let config = adjust(config(&[&issuer]));
        let verifier = verifier(config, &clock);
        Setup {
            issuer,
            clock,
            verifier,
        }
    }

    /// A token of this issuer for the test audience, subject `alice`, issued now.
    pub(crate) fn token(&self) -> TokenBuilder {
        self.issuer.token(AUDIENCE, "alice", self.clock.now())
    }

    /// Verifies `token` with the setup's verifier.
    pub(crate) async fn verify(&self, token: &str) -> Result<VerifiedToken, Refusal> {
        self.verifier.verify(token).await
    }

    pub(crate) fn advance(&self, seconds: u64) {
        self.clock.advance(Duration::from_secs(seconds));
    }
}

/// Default settings for `issuers` and the test audience.
pub(crate) fn config(issuers: &[&TestIssuer]) -> VerifierConfig {
    VerifierConfig::new(
        issuers.iter().map(|issuer| issuer.issuer().clone()),
        AUDIENCE,
    )
    .expect("a valid configuration")
}

/// A verifier on `clock`.
pub(crate) fn verifier(config: VerifierConfig, clock: &ManualClock) -> Verifier {
    Verifier::with_clock(config, Arc::new(clock.clone())).expect("a loopback verifier builds")
}

/// Fetch limits with a small document bound.
pub(crate) fn small_documents(max_document_bytes: usize) -> FetchLimits {
    FetchLimits {
        max_document_bytes,
        ..FetchLimits::default()
    }
}

/// The shared RSA test key as `kid` for RS256.
pub(crate) fn rs256(kid: &str) -> TestKey {
    TestKey::rsa(kid, SigningAlgorithm::RS256)
}

/// Logs to the test's captured output, so a failing test shows what the verifier said.
fn init_logs() {
    let _ = tracing_subscriber::fmt()
        .with_test_writer()
        .with_env_filter("oidc_verifier=debug")
        .try_init();
}

/// Waits (bounded) until `done` holds: for the one effect that happens in a background task
/// (refreshing an aged key set). Panics after five seconds.
pub(crate) async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..500 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("timed out waiting for {what}");
}

/// `time` in Unix seconds, as token claims write it.
pub(crate) fn unix(time: std::time::SystemTime) -> u64 {
    time.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
