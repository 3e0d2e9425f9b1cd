//! The verifier against a real issuer on loopback: keys generated here, discovery and JWKS
//! served by `oidc_verifier::testing::TestIssuer`, tokens minted here, time moved by a
//! `ManualClock` (no test sleeps to make a token expire).

mod cache;
mod claims;
mod harness;
mod id_tokens;
mod keys;
mod signatures;
