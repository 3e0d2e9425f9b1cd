//! The checks on a token's claims, against the configuration and the verifier's clock.
//!
//! `jsonwebtoken`'s own `Validation` is not used for these: it reads the system clock (the
//! tests move an injected one), and it accepts an array as `iss`, which RFC 7519 §4.1.1 does
//! not allow. What is checked (RFC 9068 §4, OAuth 2.0 JWT access tokens):
//!
//! - `iss`: a string; the caller has already matched it to a configured issuer and picked that
//!   issuer's keys by it.
//! - `aud`: a string or an array of strings containing the configured audience.
//! - `exp`: required; the token is refused from `exp + leeway` on.
//! - `nbf` and `iat`: optional; refused while later than `now + leeway`.
//! - `sub`: required, a non-empty string (the stable identity even when the user name comes
//!   from another claim).

use serde_json::{Map, Value};

use crate::error::{Quoted, Refusal};

/// What the checks establish, for the verified token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CheckedClaims {
    pub(crate) subject: String,
    /// `exp`, in Unix seconds.
    pub(crate) expires_at: u64,
    /// `iat`, in Unix seconds, when present.
    pub(crate) issued_at: Option<u64>,
}

/// The token's `iss`, before anything else is trusted: it picks the key set to verify with.
pub(crate) fn issuer(claims: &Map<String, Value>) -> Result<&str, Refusal> {
    match claims.get("iss") {
        Some(Value::String(iss)) => Ok(iss),
        None | Some(Value::Null) => Err(Refusal::MissingClaim("iss")),
        Some(_) => Err(Refusal::InvalidClaim {
            claim: "iss",
            reason: "it is not a string",
        }),
    }
}

/// Checks `aud`, the times and `sub` as of `now` (Unix seconds), tolerating `leeway` seconds.
pub(crate) fn check(
    claims: &Map<String, Value>,
    audience: &str,
    leeway: u64,
    now: u64,
) -> Result<CheckedClaims, Refusal> {
    check_audience(claims, audience)?;
    let expires_at = numeric_date(claims, "exp")?.ok_or(Refusal::MissingClaim("exp"))?;
    if now >= expires_at.saturating_add(leeway) {
        return Err(Refusal::Expired {
            exp: expires_at,
            now,
            leeway,
        });
    }
    if let Some(nbf) = numeric_date(claims, "nbf")?
        && nbf > now.saturating_add(leeway)
    {
        return Err(Refusal::NotYetValid { nbf, now, leeway });
    }
    let issued_at = numeric_date(claims, "iat")?;
    if let Some(iat) = issued_at
        && iat > now.saturating_add(leeway)
    {
        return Err(Refusal::IssuedInFuture { iat, now, leeway });
    }
    let subject = match claims.get("sub") {
        Some(Value::String(sub)) if !sub.is_empty() => sub.clone(),
        None | Some(Value::Null) => return Err(Refusal::MissingClaim("sub")),
        Some(_) => {
            return Err(Refusal::InvalidClaim {
                claim: "sub",
                reason: "it is not a non-empty string",
            });
        }
    };
    Ok(CheckedClaims {
        subject,
        expires_at,
        issued_at,
    })
}

fn check_audience(claims: &Map<String, Value>, audience: &str) -> Result<(), Refusal> {
    let invalid = Refusal::InvalidClaim {
        claim: "aud",
        reason: "it is neither a string nor an array of strings",
    };
    let audiences: Vec<&str> = match claims.get("aud") {
        None | Some(Value::Null) => return Err(Refusal::MissingClaim("aud")),
        Some(Value::String(aud)) => vec![aud],
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().ok_or(invalid.clone()))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(invalid),
    };
    if audiences.contains(&audience) {
        return Ok(());
    }
    Err(Refusal::WrongAudience {
        expected: audience.to_owned(),
        found: Quoted::new(&audiences.join(" ")),
    })
}

/// The ID-token checks beyond an access token's (OpenID Connect Core §3.1.3.7): `azp`, when
/// present or when `aud` lists several audiences, is `client_id`; `nonce` is the one sent.
pub(crate) fn check_id_token(
    claims: &Map<String, Value>,
    client_id: &str,
    nonce: &str,
) -> Result<(), Refusal> {
    let several_audiences =
        matches!(claims.get("aud"), Some(Value::Array(items)) if items.len() > 1);
    match claims.get("azp") {
        Some(Value::String(azp)) if azp == client_id => {}
        None | Some(Value::Null) if !several_audiences => {}
        Some(Value::String(azp)) => {
            return Err(Refusal::WrongAuthorizedParty {
                found: Quoted::new(azp),
            });
        }
        _ => {
            return Err(Refusal::WrongAuthorizedParty {
                found: Quoted::absent(),
            });
        }
    }
    use subtle::ConstantTimeEq;
    match claims.get("nonce") {
        Some(Value::String(found))
            if found.len() == nonce.len()
                && bool::from(found.as_bytes().ct_eq(nonce.as_bytes())) =>
        {
            Ok(())
        }
        _ => Err(Refusal::WrongNonce),
    }
}

/// A NumericDate claim (RFC 7519 §2: seconds, possibly fractional), floored to whole seconds.
fn numeric_date(claims: &Map<String, Value>, claim: &'static str) -> Result<Option<u64>, Refusal> {
    let value = match claims.get(claim) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Number(number)) => number.as_u64().or_else(|| {
            number
                .as_f64()
                .filter(|f| f.is_finite() && *f >= 0.0 && *f < u64::MAX as f64)
                // Checked finite, non-negative and in range just above.
                .map(|f| f.floor() as u64)
        }),
        Some(_) => None,
    };
    value.map(Some).ok_or(Refusal::InvalidClaim {
        claim,
        reason: "it is not a non-negative number of seconds (NumericDate)",
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const NOW: u64 = 1_800_000_000;
    const LEEWAY: u64 = 60;

    fn claims(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    fn valid() -> Map<String, Value> {
        claims(json!({"iss": "i", "sub": "s", "aud": "wiki", "exp": NOW + 300, "iat": NOW}))
    }

    fn with(key: &str, value: Value) -> Map<String, Value> {
        let mut claims = valid();
        claims.insert(key.to_owned(), value);
        claims
    }

    fn without(key: &str) -> Map<String, Value> {
        let mut claims = valid();
        claims.remove(key);
        claims
    }

    fn checked(claims: &Map<String, Value>) -> Result<CheckedClaims, Refusal> {
        check(claims, "wiki", LEEWAY, NOW)
    }

    #[test]
    fn a_valid_set_yields_subject_and_times() {
        assert_eq!(
            checked(&valid()),
            Ok(CheckedClaims {
                subject: "s".into(),
                expires_at: NOW + 300,
                issued_at: Some(NOW),
            })
        );
        assert_eq!(issuer(&valid()), Ok("i"));
        let fractional = with("exp", json!((NOW + 10) as f64 + 0.75));
        assert_eq!(checked(&fractional).map(|c| c.expires_at), Ok(NOW + 10));
    }

    #[test]
    fn the_audience_may_be_a_string_or_an_array_containing_it() {
        assert!(checked(&with("aud", json!(["other", "wiki"]))).is_ok());
        assert_eq!(
            checked(&with("aud", json!(["other", "more"]))),
            Err(Refusal::WrongAudience {
                expected: "wiki".into(),
                found: Quoted::new("other more"),
            })
        );
        assert!(matches!(
            checked(&with("aud", json!("Wiki"))),
            Err(Refusal::WrongAudience { .. })
        ));
        assert!(matches!(
            checked(&with("aud", json!([]))),
            Err(Refusal::WrongAudience { .. })
        ));
        assert!(matches!(
            checked(&with("aud", json!(["wiki", 3]))),
            Err(Refusal::InvalidClaim { claim: "aud", .. })
        ));
        assert_eq!(checked(&without("aud")), Err(Refusal::MissingClaim("aud")));
    }

    #[test]
    fn times_are_checked_with_the_leeway_at_its_edges() {
        // exp: accepted until exp + leeway, refused from then on.
        assert!(checked(&with("exp", json!(NOW - LEEWAY + 1))).is_ok());
        assert_eq!(
            checked(&with("exp", json!(NOW - LEEWAY))),
            Err(Refusal::Expired {
                exp: NOW - LEEWAY,
                now: NOW,
                leeway: LEEWAY
            })
        );
        assert_eq!(checked(&without("exp")), Err(Refusal::MissingClaim("exp")));
        // nbf and iat: accepted up to now + leeway.
        assert!(checked(&with("nbf", json!(NOW + LEEWAY))).is_ok());
        assert_eq!(
            checked(&with("nbf", json!(NOW + LEEWAY + 1))),
            Err(Refusal::NotYetValid {
                nbf: NOW + LEEWAY + 1,
                now: NOW,
                leeway: LEEWAY
            })
        );
        assert!(checked(&with("iat", json!(NOW + LEEWAY))).is_ok());
        assert!(matches!(
            checked(&with("iat", json!(NOW + LEEWAY + 1))),
            Err(Refusal::IssuedInFuture { .. })
        ));
        assert!(checked(&without("iat")).is_ok_and(|c| c.issued_at.is_none()));
        for bad in [json!("soon"), json!(-1), json!(f64::MAX)] {
            assert!(
                matches!(
                    checked(&with("exp", bad.clone())),
                    Err(Refusal::InvalidClaim { claim: "exp", .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn issuer_and_subject_must_be_strings() {
        assert_eq!(issuer(&without("iss")), Err(Refusal::MissingClaim("iss")));
        assert!(matches!(
            issuer(&with("iss", json!(["i"]))),
            Err(Refusal::InvalidClaim { claim: "iss", .. })
        ));
        assert_eq!(checked(&without("sub")), Err(Refusal::MissingClaim("sub")));
        assert!(matches!(
            checked(&with("sub", json!(""))),
            Err(Refusal::InvalidClaim { claim: "sub", .. })
        ));
    }
}
