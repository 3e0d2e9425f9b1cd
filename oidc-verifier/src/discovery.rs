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

/// Where a relying party sends the browser and exchanges the code (OpenID Connect Discovery
/// §3), each checked by the same transport rule as the issuer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LoginEndpoints {
    pub(crate) authorization: Url,
    pub(crate) token: Url,
}

#[derive(Deserialize)]
struct LoginMetadata {
    issuer: String,
    authorization_endpoint: Option<String>,
    token_endpoint: Option<String>,
    /// RFC 8414 §2; absent means the provider does not say, and S256 is tried.
    code_challenge_methods_supported: Option<Vec<String>>,
}

/// Fetches `issuer`'s discovery document and returns its checked login endpoints.
pub(crate) async fn login_endpoints(
    fetcher: &Fetcher,
    issuer: &IssuerUrl,
) -> Result<LoginEndpoints, FetchError> {
    let metadata: LoginMetadata = fetcher.get_json(issuer.discovery_url(), DOCUMENT).await?;
    if metadata.issuer != issuer.as_str() {
        return Err(FetchError::IssuerMismatch {
            expected: issuer.as_str().to_owned(),
            found: Quoted::new(&metadata.issuer),
        });
    }
    let invalid = |reason: &str| FetchError::Invalid {
        url: issuer.discovery_url().to_string(),
        document: DOCUMENT,
        reason: reason.to_owned(),
    };
    if let Some(methods) = &metadata.code_challenge_methods_supported
        && !methods.iter().any(|method| method == "S256")
    {
        return Err(invalid(
            "code_challenge_methods_supported does not include S256 (PKCE), which sign-in requires",
        ));
    }
    let endpoint = |name: &str, value: Option<&String>| {
        let value = value.ok_or_else(|| invalid(&format!("it has no {name}")))?;
        let url = Url::parse(value)
            .map_err(|_| invalid(&format!("its {name} is not an absolute URL")))?;
        check_transport(&url).map_err(|reason| invalid(&format!("its {name}: {reason}")))?;
        Ok::<_, FetchError>(url)
    };
    Ok(LoginEndpoints {
        authorization: endpoint(
            "authorization_endpoint",
            metadata.authorization_endpoint.as_ref(),
        )?,
        token: endpoint("token_endpoint", metadata.token_endpoint.as_ref())?,
    })
}
