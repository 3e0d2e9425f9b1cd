//! Tokens minted in the test: signed by a [`TestKey`], or forged.

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::EncodingKey;
use jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER;
use serde_json::{Map, Value, json};

use super::keys::TestKey;

/// How long a built token lives unless `exp` is changed.
const LIFETIME_SECONDS: u64 = 300;

/// A token's header and claims, to be signed one way or another.
#[derive(Debug, Clone)]
pub struct TokenBuilder {
    header: Map<String, Value>,
    claims: Map<String, Value>,
}

impl TokenBuilder {
    /// Claims `iss`, `aud` and `sub` as given, `iat` at `now`, `exp` five minutes later.
    pub fn new(issuer: &str, audience: &str, subject: &str, now: SystemTime) -> Self {
        let now = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let mut claims = Map::new();
        claims.insert("iss".into(), json!(issuer));
        claims.insert("aud".into(), json!(audience));
        claims.insert("sub".into(), json!(subject));
        claims.insert("iat".into(), json!(now));
        claims.insert("exp".into(), json!(now + LIFETIME_SECONDS));
        TokenBuilder {
            header: Map::new(),
            claims,
        }
    }

    /// Sets claim `name` (replacing any).
    pub fn claim(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.claims.insert(name.to_owned(), value.into());
        self
    }

    /// Removes claim `name`.
    pub fn without_claim(mut self, name: &str) -> Self {
        self.claims.remove(name);
        self
    }

    /// Sets header member `name`, overriding what signing would put there (`kid`, even `alg`).
    pub fn header(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.header.insert(name.to_owned(), value.into());
        self
    }

    /// Signed by `key`: header `alg` and `kid` from the key, unless set with
    /// [`header`](Self::header).
    pub fn sign(&self, key: &TestKey) -> String {
        let alg = key.algorithm().jsonwebtoken();
        self.signed_with(
            key.algorithm().name(),
            Some(key.kid()),
            alg,
            key.encoding_key(),
        )
    }

    /// "Signed" with HS256 under `secret`: the algorithm-confusion forgery when `secret` is a
    /// public key ([`TestKey::public_key_der`], or its JWK's text).
    pub fn sign_hs256(&self, secret: &[u8]) -> String {
        let key = EncodingKey::from_secret(secret).expect("an HMAC secret is not empty");
        self.signed_with("HS256", None, jsonwebtoken::Algorithm::HS256, &key)
    }

    /// Unsigned: header `alg: none` and an empty signature (RFC 7519 §6's unsecured JWT).
    pub fn unsigned(&self) -> String {
        format!("{}.", self.signing_input("none", None))
    }

    fn signed_with(
        &self,
        alg_name: &str,
        kid: Option<&str>,
        alg: jsonwebtoken::Algorithm,
        key: &EncodingKey,
    ) -> String {
        let input = self.signing_input(alg_name, kid);
        let signer = (DEFAULT_PROVIDER.signer_factory)(&alg, key).expect("a test key signs");
        let signature = signer.try_sign(input.as_bytes()).expect("signing succeeds");
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(signature))
    }

    fn signing_input(&self, alg: &str, kid: Option<&str>) -> String {
        let mut header = Map::new();
        header.insert("alg".into(), json!(alg));
        header.insert("typ".into(), json!("at+jwt"));
        if let Some(kid) = kid {
            header.insert("kid".into(), json!(kid));
        }
        header.extend(self.header.clone());
        format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(Value::Object(header).to_string()),
            URL_SAFE_NO_PAD.encode(Value::Object(self.claims.clone()).to_string())
        )
    }
}
