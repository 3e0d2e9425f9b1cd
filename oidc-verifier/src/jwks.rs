//! A fetched JWK set, reduced to the keys that may verify tokens.
//!
//! Each key is checked once, when the set is fetched: RSA of at least 2048 bits or a valid
//! P-256 point, meant for signatures (`use` absent or `sig`, `key_ops` absent or with
//! `verify`), declaring no algorithm or one that fits its type. Keys that fail are kept aside
//! with the reason, so a token naming one is refused with that reason instead of triggering a
//! refetch. Symmetric (`oct`) keys are never usable: see [`crate::algorithm`].
//!
//! One malformed key does not spoil the set: each is parsed on its own, as providers publish
//! encryption keys and new key types beside their signing keys.

use std::collections::BTreeSet;
use std::time::SystemTime;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::DecodingKey;
use jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyOperations, PublicKeyUse};
use serde::Deserialize;
use serde_json::Value;

use crate::algorithm::{KeyFamily, SigningAlgorithm};
use crate::error::FetchError;

/// The smallest RSA modulus accepted, in bits (NIST SP 800-131A: 2048 since 2014).
pub(crate) const MIN_RSA_BITS: usize = 2048;
/// The largest RSA modulus accepted, in bits (the `rsa` crate's own bound).
const MAX_RSA_BITS: usize = 8192;
/// Usable keys kept per set: providers publish two or three; a bound keeps a token without
/// `kid`, which is tried against every fitting key, cheap.
pub(crate) const MAX_KEYS: usize = 32;

const DOCUMENT: &str = "JWK set";

/// The usable keys of one issuer, as fetched at one time.
#[derive(Debug)]
pub(crate) struct KeySet {
    keys: Vec<VerificationKey>,
    skipped: Vec<SkippedKey>,
    fetched_at: SystemTime,
}

/// A key that may verify tokens of its family.
#[derive(Debug)]
pub(crate) struct VerificationKey {
    kid: Option<String>,
    family: KeyFamily,
    /// The JWK's `alg`, when it declares one: then only that algorithm may use it.
    declared: Option<SigningAlgorithm>,
    key: DecodingKey,
    /// The public key material, to tell whether a later set still holds this key.
    material: String,
}

/// A published key that cannot verify tokens, and why.
#[derive(Debug)]
struct SkippedKey {
    kid: Option<String>,
    reason: String,
}

/// What a set holds for a token's `kid` and algorithm.
#[derive(Debug)]
pub(crate) enum Lookup<'a> {
    /// Keys to try, in the set's order.
    Found(Vec<&'a VerificationKey>),
    /// The key exists but cannot verify this token.
    Unfit(String),
    /// No key by that id.
    Missing,
}

#[derive(Deserialize)]
struct RawSet {
    keys: Vec<Value>,
}

impl KeySet {
    /// Parses a JWKS document fetched from `url` at `fetched_at`.
    pub(crate) fn parse(
        body: Value,
        url: &str,
        fetched_at: SystemTime,
    ) -> Result<Self, FetchError> {
        let raw: RawSet = serde_json::from_value(body).map_err(|e| FetchError::Invalid {
            url: url.to_owned(),
            document: DOCUMENT,
            reason: e.to_string(),
        })?;
        let mut set = KeySet {
            keys: Vec::new(),
            skipped: Vec::new(),
            fetched_at,
        };
        for value in raw.keys {
            let kid = value.get("kid").and_then(Value::as_str).map(str::to_owned);
            match VerificationKey::from_value(value) {
                Ok(_) if set.keys.len() == MAX_KEYS => set.skipped.push(SkippedKey {
                    kid,
                    reason: format!("the set holds more than {MAX_KEYS} usable keys"),
                }),
                Ok(key) => set.keys.push(key),
                Err(reason) => set.skipped.push(SkippedKey { kid, reason }),
            }
        }
        if set.keys.is_empty() {
            return Err(FetchError::NoUsableKey {
                url: url.to_owned(),
                skipped: set.skipped.len(),
            });
        }
        Ok(set)
    }

    /// The keys that may check a token signed with `alg` naming `kid`.
    pub(crate) fn lookup(&self, kid: Option<&str>, alg: SigningAlgorithm) -> Lookup<'_> {
        let Some(kid) = kid else {
            let fitting: Vec<_> = self.keys.iter().filter(|k| k.fits(alg).is_ok()).collect();
            return if fitting.is_empty() {
                Lookup::Missing
            } else {
                Lookup::Found(fitting)
            };
        };
        let named: Vec<_> = self
            .keys
            .iter()
            .filter(|k| k.kid.as_deref() == Some(kid))
            .collect();
        let fitting: Vec<_> = named
            .iter()
            .copied()
            .filter(|k| k.fits(alg).is_ok())
            .collect();
        if !fitting.is_empty() {
            return Lookup::Found(fitting);
        }
        if let Some(Err(reason)) = named.first().map(|k| k.fits(alg)) {
            return Lookup::Unfit(reason);
        }
        match self.skipped.iter().find(|s| s.kid.as_deref() == Some(kid)) {
            Some(skipped) => Lookup::Unfit(skipped.reason.clone()),
            None => Lookup::Missing,
        }
    }

    /// How many usable keys the set holds.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// When the set was fetched.
    pub(crate) fn fetched_at(&self) -> SystemTime {
        self.fetched_at
    }

    /// Whether some key of this set is absent from `newer` (withdrawn by the provider).
    pub(crate) fn loses_keys_in(&self, newer: &KeySet) -> bool {
        let kept: BTreeSet<&str> = newer.keys.iter().map(|k| k.material.as_str()).collect();
        self.keys
            .iter()
            .any(|k| !kept.contains(k.material.as_str()))
    }
}

impl VerificationKey {
    fn from_value(value: Value) -> Result<Self, String> {
        let jwk: Jwk = serde_json::from_value(value)
            .map_err(|e| format!("the key is not a valid JWK ({e})"))?;
        if let Some(usage) = &jwk.common.public_key_use
            && *usage != PublicKeyUse::Signature
        {
            return Err("the key is published for encryption, not signatures (`use`)".into());
        }
        if let Some(ops) = &jwk.common.key_operations
            && !ops.contains(&KeyOperations::Verify)
        {
            return Err("the key's `key_ops` do not include `verify`".into());
        }
        let declared =
            match jwk.common.key_algorithm {
                None => None,
                Some(alg) => Some(SigningAlgorithm::from_name(&alg.to_string()).ok_or_else(
                    || format!("the key is declared for {alg}, which is not accepted"),
                )?),
            };
        let (family, key, material) = match &jwk.algorithm {
            AlgorithmParameters::RSA(rsa) => {
                let bits = modulus_bits(&rsa.n)?;
                if !(MIN_RSA_BITS..=MAX_RSA_BITS).contains(&bits) {
                    return Err(format!(
                        "its RSA modulus has {bits} bits; {MIN_RSA_BITS} to {MAX_RSA_BITS} are accepted"
                    ));
                }
                let key = DecodingKey::from_rsa_components(&rsa.n, &rsa.e)
                    .map_err(|_| "its RSA components are not base64url".to_owned())?;
                (KeyFamily::Rsa, key, format!("RSA:{}:{}", rsa.n, rsa.e))
            }
            AlgorithmParameters::EllipticCurve(ec) if ec.curve == EllipticCurve::P256 => {
                let key = DecodingKey::from_ec_components(&ec.x, &ec.y)
                    .map_err(|_| "its EC coordinates are not base64url".to_owned())?;
                // Building the verifier parses the point, so an invalid one is refused here,
                // once, rather than failing every token.
                (DEFAULT_PROVIDER.verifier_factory)(&jsonwebtoken::Algorithm::ES256, &key)
                    .map_err(|_| "its EC point is not on P-256".to_owned())?;
                (KeyFamily::P256, key, format!("EC:{}:{}", ec.x, ec.y))
            }
            AlgorithmParameters::EllipticCurve(ec) => {
                return Err(format!(
                    "its curve {:?} is not accepted (P-256 is)",
                    ec.curve
                ));
            }
            AlgorithmParameters::OctetKey(_) => {
                return Err("it is a symmetric (oct) key: HMAC tokens are never accepted".into());
            }
            AlgorithmParameters::OctetKeyPair(_) => {
                return Err("it is an OKP (EdDSA) key, which is not accepted".into());
            }
            _ => {
                return Err(
                    "its key type or parameters are not accepted (RSA with `n` and \
                            `e`, or EC on P-256 with `x` and `y`)"
                        .into(),
                );
            }
        };
        let key = VerificationKey {
            kid: jwk.common.key_id.clone(),
            family,
            declared,
            key,
            material,
        };
        if let Some(alg) = declared {
            key.fits(alg)?;
        }
        Ok(key)
    }

    /// Whether this key may check a token signed with `alg`: the right type (RSA for RS256 and
    /// PS256, P-256 for ES256) and, if the key declares an algorithm, that one.
    pub(crate) fn fits(&self, alg: SigningAlgorithm) -> Result<(), String> {
        if self.family != alg.family() {
            return Err(format!(
                "{alg} needs {}, and this is {}",
                alg.family(),
                self.family
            ));
        }
        match self.declared {
            Some(declared) if declared != alg => Err(format!(
                "the key is declared for {declared} (`alg`), and the token uses {alg}"
            )),
            _ => Ok(()),
        }
    }

    /// Whether `signature` is `alg`'s signature of `message` under this key.
    /// (`&Vec` because jsonwebtoken's verifiers implement `Verifier<Vec<u8>>`.)
    pub(crate) fn verifies(
        &self,
        alg: SigningAlgorithm,
        message: &[u8],
        signature: &Vec<u8>,
    ) -> bool {
        // The provider is named, not the process default, so no other crate's choice of
        // jsonwebtoken backend can change (or, with two backends, panic) what runs here.
        (DEFAULT_PROVIDER.verifier_factory)(&alg.jsonwebtoken(), &self.key)
            .is_ok_and(|verifier| verifier.verify(message, signature).is_ok())
    }
}

/// The bit length of a base64url-encoded big-endian RSA modulus.
fn modulus_bits(n: &str) -> Result<usize, String> {
    let bytes = URL_SAFE_NO_PAD
        .decode(n)
        .map_err(|_| "its RSA modulus is not base64url".to_owned())?;
    let Some(first) = bytes.iter().position(|&b| b != 0) else {
        return Err("its RSA modulus is zero".into());
    };
    let leading = bytes[first].leading_zeros() as usize;
    Ok((bytes.len() - first) * 8 - leading)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A syntactically valid RSA modulus of `bits` bits (the top bit set).
    fn modulus(bits: usize) -> String {
        let mut bytes = vec![0xA5u8; bits.div_ceil(8)];
        bytes[0] = 0x80 >> ((8 - bits % 8) % 8);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    fn rsa(kid: &str, extra: Value) -> Value {
        let mut key = json!({"kty": "RSA", "kid": kid, "n": modulus(2048), "e": "AQAB"});
        if let (Some(key), Value::Object(extra)) = (key.as_object_mut(), extra) {
            key.extend(extra);
        }
        key
    }

    fn parse(keys: Vec<Value>) -> Result<KeySet, FetchError> {
        KeySet::parse(
            json!({ "keys": keys }),
            "http://127.0.0.1/jwks",
            SystemTime::UNIX_EPOCH,
        )
    }

    fn unfit_reason(set: &KeySet, kid: &str, alg: SigningAlgorithm) -> String {
        match set.lookup(Some(kid), alg) {
            Lookup::Unfit(reason) => reason,
            other => panic!("{kid}: expected unfit, got {other:?}"),
        }
    }

    #[test]
    fn modulus_bits_are_counted_from_the_first_set_bit() {
        assert_eq!(modulus_bits(&modulus(2048)), Ok(2048));
        assert_eq!(modulus_bits(&modulus(2047)), Ok(2047));
        assert_eq!(modulus_bits(&URL_SAFE_NO_PAD.encode([0, 0, 1])), Ok(1));
    }

    #[test]
    fn unusable_keys_are_set_aside_with_their_reason() {
        let set = parse(vec![
            rsa("sig", json!({"use": "sig", "alg": "RS256"})),
            rsa("enc", json!({"use": "enc"})),
            rsa("ops", json!({"key_ops": ["encrypt"]})),
            rsa("rs512", json!({"alg": "RS512"})),
            rsa("es-declared", json!({"alg": "ES256"})),
            json!({"kty": "RSA", "kid": "small", "n": modulus(1024), "e": "AQAB"}),
            json!({"kty": "oct", "kid": "hmac", "k": "c2VjcmV0"}),
            json!({"kty": "EC", "kid": "p384", "crv": "P-384", "x": "AA", "y": "AA"}),
            json!({"kty": "EC", "kid": "off-curve", "crv": "P-256",
                   "x": URL_SAFE_NO_PAD.encode([1u8; 32]), "y": URL_SAFE_NO_PAD.encode([2u8; 32])}),
            json!({"kty": "RSA", "kid": "broken"}),
        ]);
        let Ok(set) = set else {
            panic!("one usable key is enough: {set:?}");
        };
        assert_eq!(set.len(), 1);
        let rs = SigningAlgorithm::RS256;
        assert!(matches!(set.lookup(Some("sig"), rs), Lookup::Found(keys) if keys.len() == 1));
        assert!(unfit_reason(&set, "enc", rs).contains("encryption"));
        assert!(unfit_reason(&set, "ops", rs).contains("key_ops"));
        assert!(unfit_reason(&set, "rs512", rs).contains("RS512"));
        assert!(unfit_reason(&set, "es-declared", rs).contains("ES256 needs a P-256 key"));
        assert!(unfit_reason(&set, "small", rs).contains("1024 bits"));
        assert!(unfit_reason(&set, "hmac", rs).contains("symmetric"));
        assert!(unfit_reason(&set, "p384", SigningAlgorithm::ES256).contains("P384"));
        assert!(unfit_reason(&set, "off-curve", SigningAlgorithm::ES256).contains("P-256"));
        assert!(unfit_reason(&set, "broken", rs).contains("RSA with `n` and `e`"));
        assert!(matches!(set.lookup(Some("other"), rs), Lookup::Missing));
    }

    #[test]
    fn a_key_fits_only_its_family_and_declared_algorithm() {
        let Ok(set) = parse(vec![
            rsa("any", json!({})),
            rsa("ps", json!({"alg": "PS256"})),
        ]) else {
            panic!("valid set refused");
        };
        assert!(matches!(
            set.lookup(Some("any"), SigningAlgorithm::PS256),
            Lookup::Found(_)
        ));
        assert!(unfit_reason(&set, "any", SigningAlgorithm::ES256).contains("needs a P-256 key"));
        assert!(unfit_reason(&set, "ps", SigningAlgorithm::RS256).contains("declared for PS256"));
        // Without a kid, every key that fits is a candidate.
        match set.lookup(None, SigningAlgorithm::RS256) {
            Lookup::Found(keys) => assert_eq!(keys.len(), 1),
            other => panic!("expected one candidate, got {other:?}"),
        }
        assert!(matches!(
            set.lookup(None, SigningAlgorithm::ES256),
            Lookup::Missing
        ));
    }

    #[test]
    fn a_set_without_usable_keys_or_not_a_set_is_refused() {
        assert!(matches!(
            parse(vec![json!({"kty": "oct", "k": "c2VjcmV0"})]),
            Err(FetchError::NoUsableKey { skipped: 1, .. })
        ));
        let not_a_set = KeySet::parse(json!({"keys": "none"}), "u", SystemTime::UNIX_EPOCH);
        assert!(matches!(not_a_set, Err(FetchError::Invalid { .. })));
    }

    #[test]
    fn the_set_is_bounded() {
        let keys = (0..MAX_KEYS + 3)
            .map(|i| rsa(&format!("k{i}"), json!({})))
            .collect();
        let Ok(set) = parse(keys) else {
            panic!("valid set refused");
        };
        assert_eq!(set.len(), MAX_KEYS);
        let last = format!("k{}", MAX_KEYS + 2);
        assert!(unfit_reason(&set, &last, SigningAlgorithm::RS256).contains("more than"));
    }
}
