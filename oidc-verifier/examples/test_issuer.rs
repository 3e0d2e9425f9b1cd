//! The test issuer as a process, for tests that are not Rust (the admin page's browser test):
//! discovery, JWKS, and authorization and token endpoints on `127.0.0.1`, signing ID tokens
//! with a P-256 key generated at start. Its authorization endpoint asks for a user name in a
//! form (or declines), as a real provider's sign-in page would.
//!
//! ```text
//! cargo run -p oidc-verifier --features testing --example test_issuer -- CLIENT_ID REDIRECT_URI
//! ```
//!
//! Prints `issuer <URL>` on stdout once it serves, then serves until killed. `REDIRECT_URI` on a
//! loopback IP without a port matches any port (RFC 8252 §7.3), so the client may be started
//! after the issuer on a port of its choosing.

use oidc_verifier::testing::{TestIssuer, TestKey};

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(client_id), Some(redirect_uri)) = (args.next(), args.next()) else {
        eprintln!("usage: test_issuer CLIENT_ID REDIRECT_URI");
        std::process::exit(2);
    };
    let key = TestKey::p256("browser-test");
    let issuer = TestIssuer::start(&[&key]).await?;
    issuer.register_client(&client_id, None, &redirect_uri);
    println!("issuer {}", issuer.issuer());
    std::future::pending::<()>().await;
    Ok(())
}
