//! OpenID Provider metadata: where an issuer publishes its keys.
//!
//! Only two members matter to a resource server: `issuer`, which must be the configured issuer
//! exactly (OpenID Connect Discovery §4.3; otherwise the document describes another issuer and
//! its keys must not vouch for this one), and `jwks_uri`, which must pass the same transport
//! rule as the issuer.

use serde::Deserialize;
use url::Url;

use crate::error::{FetchError, Quoted};
use crate::fetch::Fetcher;
use crate::issuer::{IssuerUrl, check_transport};

/// The members of the provider metadata this verifier reads; others are ignored.
#[derive(Deserialize)]
struct ProviderMetadata {
    issuer: String,
    jwks_uri: String,
}

const DOCUMENT: &str = "OpenID Provider configuration";

/// Fetches `issuer`'s discovery document and returns its checked `jwks_uri`.
pub(crate) async fn jwks_uri(fetcher: &Fetcher, issuer: &IssuerUrl) -> Result<Url, FetchError> {
    let metadata: ProviderMetadata = fetcher.get_json(issuer.discovery_url(), DOCUMENT).await?;
    if metadata.issuer != issuer.as_str() {
        return Err(FetchError::IssuerMismatch {
            expected: issuer.as_str().to_owned(),
            found: Quoted::new(&metadata.issuer),
        });
    }
    let unusable = |reason| FetchError::UnusableJwksUri {
        issuer: issuer.as_str().to_owned(),
        uri: Quoted::new(&metadata.jwks_uri),
        reason,
    };
    let uri = Url::parse(&metadata.jwks_uri).map_err(|_| unusable("not an absolute URL"))?;
    check_transport(&uri).map_err(unusable)?;
    Ok(uri)
}
