//! Key pairs generated in the test, and their public JWKs.

use std::sync::OnceLock;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::EncodingKey;
use rsa::pkcs1::{EncodeRsaPrivateKey, EncodeRsaPublicKey};
use rsa::traits::PublicKeyParts;
use serde_json::{Value, json};

use crate::algorithm::SigningAlgorithm;

/// A signing key of a test issuer: private half to mint tokens, public half as a JWK.
#[derive(Clone)]
pub struct TestKey {
    kid: String,
    alg: SigningAlgorithm,
    encoding: EncodingKey,
    /// The public JWK without `kid` and `alg`, which [`TestKey::jwk`] adds.
    public: Value,
    public_der: Vec<u8>,
}

impl std::fmt::Debug for TestKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TestKey({}, {})", self.kid, self.alg)
    }
}

/// Generating a 2048-bit RSA key takes seconds in a debug build, so one per test binary is
/// generated, and [`TestKey::rsa`] hands out that one under any kid and algorithm. Tests that
/// need distinct keys use [`TestKey::p256`], generated in microseconds.
static SHARED_RSA: OnceLock<rsa::PrivateKey> = OnceLock::new();

impl TestKey {
    /// An RSA key (2048 bits) for `alg` (RS256 or PS256), named `kid`. Every call returns the
    /// same key pair (generated once per process) under the given name.
    pub fn rsa(kid: &str, alg: SigningAlgorithm) -> Self {
        let private = SHARED_RSA.get_or_init(generate_rsa);
        Self::from_rsa(kid, alg, private)
    }

    /// A newly generated P-256 key for ES256, named `kid`.
    pub fn p256(kid: &str) -> Self {
        use p256::ecdsa::SigningKey;
        use p256::elliptic_curve::Generate;
        use p256::pkcs8::EncodePrivateKey;

        let signing = SigningKey::generate_from_rng(&mut rand::rng());
        let der = signing
            .to_pkcs8_der()
            .expect("a generated P-256 key encodes as PKCS#8");
        let point = signing.verifying_key().to_sec1_point(false);
        let (Some(x), Some(y)) = (point.x(), point.y()) else {
            panic!("an uncompressed P-256 point has both coordinates");
        };
        TestKey {
            kid: kid.to_owned(),
            alg: SigningAlgorithm::ES256,
            encoding: EncodingKey::from_ec_der(der.as_bytes()),
            public: json!({
                "kty": "EC",
                "crv": "P-256",
                "x": URL_SAFE_NO_PAD.encode(x),
                "y": URL_SAFE_NO_PAD.encode(y),
            }),
            public_der: point.as_bytes().to_vec(),
        }
    }

    fn from_rsa(kid: &str, alg: SigningAlgorithm, private: &rsa::PrivateKey) -> Self {
        assert!(
            matches!(alg, SigningAlgorithm::RS256 | SigningAlgorithm::PS256),
            "an RSA key signs RS256 or PS256, not {alg}"
        );
        let der = private
            .to_pkcs1_der()
            .expect("a generated RSA key encodes as PKCS#1");
        let public = private.to_public_key();
        TestKey {
            kid: kid.to_owned(),
            alg,
            encoding: EncodingKey::from_rsa_der(der.as_bytes()),
            public: json!({
                "kty": "RSA",
                "n": URL_SAFE_NO_PAD.encode(public.n_bytes()),
                "e": URL_SAFE_NO_PAD.encode(public.e_bytes()),
            }),
            public_der: public
                .to_pkcs1_der()
                .expect("an RSA public key encodes as PKCS#1")
                .as_bytes()
                .to_vec(),
        }
    }

    /// The same key pair under another `kid` (a rotation without generating a key).
    pub fn renamed(&self, kid: &str) -> Self {
        TestKey {
            kid: kid.to_owned(),
            ..self.clone()
        }
    }

    /// The key id tokens name in their header.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The algorithm tokens signed with this key use.
    pub fn algorithm(&self) -> SigningAlgorithm {
        self.alg
    }

    /// The public JWK as an issuer publishes it: `kid`, `alg`, `use: sig`.
    pub fn jwk(&self) -> Value {
        let mut jwk = self.public.clone();
        if let Some(members) = jwk.as_object_mut() {
            members.insert("kid".into(), json!(self.kid));
            members.insert("alg".into(), json!(self.alg.name()));
            members.insert("use".into(), json!("sig"));
        }
        jwk
    }

    /// The public JWK without `alg` and `use` (many providers publish only `kty`, `kid` and
    /// the key), so only the key type constrains which algorithm may use it.
    pub fn bare_jwk(&self) -> Value {
        let mut jwk = self.public.clone();
        if let Some(members) = jwk.as_object_mut() {
            members.insert("kid".into(), json!(self.kid));
        }
        jwk
    }

    /// The public key's DER (PKCS#1 for RSA, the SEC1 point for P-256): what an attacker holds
    /// and would use as an HMAC secret.
    pub fn public_key_der(&self) -> &[u8] {
        &self.public_der
    }

    pub(crate) fn encoding_key(&self) -> &EncodingKey {
        &self.encoding
    }
}

fn generate_rsa() -> rsa::PrivateKey {
    rsa::PrivateKey::new(&mut rand::rng(), 2048).expect("RSA key generation succeeds")
}
