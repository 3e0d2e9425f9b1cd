//! A token in JWS compact serialization (RFC 7515 §7.1), split and decoded but not yet
//! trusted: `base64url(header) . base64url(claims) . base64url(signature)`.
//!
//! The header is read here rather than by `jsonwebtoken::decode_header` so that a refused
//! algorithm (`none`, `HS256`) is reported by name instead of as a parse error, and so that any
//! `crit` member refuses the token (no extension is implemented, RFC 7515 §4.1.11).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::algorithm::SigningAlgorithm;
use crate::error::{Quoted, Refusal};

/// A split, decoded token whose signature is still to be checked.
#[derive(Debug)]
pub(crate) struct UnverifiedToken<'a> {
    pub(crate) alg: SigningAlgorithm,
    pub(crate) kid: Option<String>,
    pub(crate) claims: Map<String, Value>,
    /// `header.claims`, the bytes the signature covers.
    pub(crate) signing_input: &'a [u8],
    pub(crate) signature: Vec<u8>,
}

#[derive(Deserialize)]
struct Header {
    alg: Option<Value>,
    kid: Option<Value>,
    crit: Option<Value>,
}

/// Whether `token` has the shape of a JWS compact serialization: three non-empty-header
/// base64url segments separated by two dots. A cheap test for telling a JWT from an opaque
/// API token (which has no dot) before choosing how to check it; it proves nothing about the
/// token.
pub fn is_jwt_shaped(token: &str) -> bool {
    let mut parts = token.split('.');
    let (Some(header), Some(claims), Some(signature), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let base64url = |part: &str| {
        part.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    !header.is_empty()
        && !claims.is_empty()
        && [header, claims, signature].into_iter().all(base64url)
}

impl<'a> UnverifiedToken<'a> {
    /// Splits and decodes `token`, refusing what no accepted token can be.
    pub(crate) fn parse(token: &'a str) -> Result<Self, Refusal> {
        let malformed = Refusal::Malformed;
        let mut parts = token.splitn(4, '.');
        let (Some(header), Some(claims), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(malformed(
                "not three dot-separated parts (JWS compact serialization)",
            ));
        };
        let header: Header = decode_json(
            header,
            "the header is not base64url",
            "the header is not a JSON object",
        )?;
        if header.crit.is_some() {
            return Err(Refusal::CriticalHeader);
        }
        let alg = match &header.alg {
            Some(Value::String(name)) => SigningAlgorithm::from_name(name)
                .ok_or_else(|| Refusal::UnsupportedAlgorithm(Quoted::new(name)))?,
            Some(_) => return Err(malformed("the header's `alg` is not a string")),
            None => return Err(malformed("the header has no `alg`")),
        };
        let kid = match header.kid {
            None | Some(Value::Null) => None,
            Some(Value::String(kid)) => Some(kid),
            Some(_) => return Err(malformed("the header's `kid` is not a string")),
        };
        let claims: Map<String, Value> = decode_json(
            claims,
            "the claims are not base64url",
            "the claims are not a JSON object",
        )?;
        let signature = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| malformed("the signature is not base64url"))?;
        if signature.is_empty() {
            return Err(malformed("the signature is empty"));
        }
        let signing_input = &token.as_bytes()[..header_and_claims_len(token)];
        Ok(UnverifiedToken {
            alg,
            kid,
            claims,
            signing_input,
            signature,
        })
    }
}

/// The length of `header.claims` in `token` (everything before the second dot).
fn header_and_claims_len(token: &str) -> usize {
    token.rfind('.').unwrap_or(token.len())
}

/// Decodes one base64url JSON part; the messages say which part failed how.
fn decode_json<T: serde::de::DeserializeOwned>(
    part: &str,
    not_base64: &'static str,
    not_json: &'static str,
) -> Result<T, Refusal> {
    let bytes = URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|_| Refusal::Malformed(not_base64))?;
    serde_json::from_slice(&bytes).map_err(|_| Refusal::Malformed(not_json))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn part(value: &Value) -> String {
        URL_SAFE_NO_PAD.encode(value.to_string())
    }

    fn token(header: Value, claims: Value, signature: &str) -> String {
        format!("{}.{}.{signature}", part(&header), part(&claims))
    }

    fn refusal(token: &str) -> Refusal {
        match UnverifiedToken::parse(token) {
            Err(refusal) => refusal,
            Ok(parsed) => panic!("expected a refusal, parsed {parsed:?}"),
        }
    }

    #[test]
    fn a_well_formed_token_is_split_and_decoded() {
        let text = token(
            json!({"alg": "ES256", "kid": "k1"}),
            json!({"sub": "a"}),
            "c2ln",
        );
        let Ok(parsed) = UnverifiedToken::parse(&text) else {
            panic!("refused a well-formed token");
        };
        assert_eq!(parsed.alg, SigningAlgorithm::ES256);
        assert_eq!(parsed.kid.as_deref(), Some("k1"));
        assert_eq!(parsed.claims.get("sub"), Some(&json!("a")));
        assert_eq!(parsed.signature, b"sig");
        let second_dot = text.rfind('.').unwrap_or_default();
        assert_eq!(parsed.signing_input, &text.as_bytes()[..second_dot]);
        assert!(is_jwt_shaped(&text));
    }

    #[test]
    fn refused_algorithms_are_named() {
        for alg in ["none", "HS256", "RS512"] {
            let text = token(json!({"alg": alg}), json!({}), "c2ln");
            assert_eq!(
                refusal(&text),
                Refusal::UnsupportedAlgorithm(Quoted::new(alg))
            );
        }
        // `alg: none` usually comes with an empty signature: still named, not "malformed".
        let unsigned = format!("{}.{}.", part(&json!({"alg": "none"})), part(&json!({})));
        assert_eq!(
            refusal(&unsigned),
            Refusal::UnsupportedAlgorithm(Quoted::new("none"))
        );
    }

    #[test]
    fn malformed_tokens_and_critical_headers_are_refused() {
        let claims = json!({});
        assert_eq!(
            refusal(&token(
                json!({"alg": "RS256", "crit": ["exp"]}),
                claims.clone(),
                "c2ln"
            )),
            Refusal::CriticalHeader
        );
        for (text, why) in [
            ("abc".to_owned(), "three"),
            ("a.b.c.d".to_owned(), "three"),
            ("!!.e30.c2ln".to_owned(), "header is not base64url"),
            (
                format!("{}.e30.c2ln", URL_SAFE_NO_PAD.encode("[1]")),
                "header is not a JSON object",
            ),
            (
                token(json!({"kid": "k"}), claims.clone(), "c2ln"),
                "no `alg`",
            ),
            (
                token(json!({"alg": 1}), claims.clone(), "c2ln"),
                "`alg` is not a string",
            ),
            (
                token(json!({"alg": "RS256", "kid": 3}), claims.clone(), "c2ln"),
                "`kid`",
            ),
            (
                token(json!({"alg": "RS256"}), json!([1]), "c2ln"),
                "claims are not a JSON object",
            ),
            (
                token(json!({"alg": "RS256"}), claims.clone(), "c2ln="),
                "signature is not base64url",
            ),
            (
                token(json!({"alg": "RS256"}), claims.clone(), ""),
                "signature is empty",
            ),
        ] {
            match refusal(&text) {
                Refusal::Malformed(reason) => assert!(reason.contains(why), "{text}: {reason}"),
                other => panic!("{text}: expected malformed ({why}), got {other:?}"),
            }
        }
    }

    #[test]
    fn only_three_base64url_parts_look_like_a_jwt() {
        assert!(is_jwt_shaped("eyJh.eyJz.c2ln"));
        assert!(is_jwt_shaped("eyJh.eyJz."));
        assert!(!is_jwt_shaped("wmcp_0123456789ab_c2VjcmV0"));
        assert!(!is_jwt_shaped("a.b"));
        assert!(!is_jwt_shaped("a.b.c.d"));
        assert!(!is_jwt_shaped(".b.c"));
        assert!(!is_jwt_shaped("a b.c.d"));
    }
}
