//! Which claim names the user: the configured one (default `preferred_username`), falling back
//! to `sub`.
//!
//! `preferred_username` is what people recognise (Keycloak, Entra ID and Okta put the login
//! name there); `sub` is what every access token carries (RFC 9068 §2.2) and never changes,
//! though it is often an opaque id. The fallback applies only when the configured claim is
//! absent: a claim that is present but not a usable string refuses the token, because falling
//! back then would silently map a misconfigured provider's users to other names.
//!
//! Names of different issuers share one namespace here: `alice` from two issuers is one name.
//! Configure issuers whose user names you would give the same rights, or a claim that is unique
//! across them.

use std::fmt;

use serde_json::{Map, Value};

use crate::error::{ConfigError, Refusal};

/// The fallback claim: always present in an access token, stable for the user's lifetime.
pub const SUBJECT_CLAIM: &str = "sub";

/// The longest user name taken from a claim, in bytes (OpenID Connect Core §2 bounds `sub` to
/// 255 ASCII characters; the same bound keeps other claims sane).
pub const MAX_USER_NAME_BYTES: usize = 255;

/// The claim a token's user name is read from.
#[derive(Clone, PartialEq, Eq)]
pub struct UserClaim(String);

/// A user named by a token, and which claim named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedUser {
    /// The user name, exactly as in the claim.
    pub name: String,
    /// The claim it came from: the configured one, or [`SUBJECT_CLAIM`] after the fallback.
    pub claim: String,
}

impl UserClaim {
    /// The default claim.
    pub const DEFAULT: &'static str = "preferred_username";

    /// A claim by name: non-empty, printable ASCII without spaces (claim names are JSON member
    /// names chosen by the provider's administrator, and in practice always look like this).
    pub fn new(name: &str) -> Result<Self, ConfigError> {
        let refuse = |reason| ConfigError::InvalidUserClaim {
            claim: name.to_owned(),
            reason,
        };
        if name.is_empty() {
            return Err(refuse("the claim name is empty"));
        }
        if !name.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(refuse(
                "a claim name is printable ASCII without spaces (e.g. preferred_username, email)",
            ));
        }
        Ok(UserClaim(name.to_owned()))
    }

    /// The claim's name.
    pub fn name(&self) -> &str {
        &self.0
    }

    /// The user `claims` name: the configured claim when present, else `sub`. Refused when the
    /// claim present is not a non-empty string of at most [`MAX_USER_NAME_BYTES`] bytes without
    /// control characters, or when neither claim is present.
    ///
    /// Usable on any verified claim set, an ID token's included (the admin page's sign-in reads
    /// the same claim, so a person is the same user there and over MCP).
    pub fn resolve(&self, claims: &Map<String, Value>) -> Result<ResolvedUser, Refusal> {
        for claim in [self.name(), SUBJECT_CLAIM] {
            match claims.get(claim) {
                None | Some(Value::Null) => continue,
                Some(value) => {
                    return user_name(claim, value).map(|name| ResolvedUser {
                        name,
                        claim: claim.to_owned(),
                    });
                }
            }
        }
        Err(Refusal::NoUser(if self.name() == SUBJECT_CLAIM {
            "it has no `sub` claim".to_owned()
        } else {
            format!("it has neither a `{}` nor a `sub` claim", self.name())
        }))
    }
}

fn user_name(claim: &str, value: &Value) -> Result<String, Refusal> {
    let refuse = |what: &str| Refusal::NoUser(format!("its `{claim}` claim {what}"));
    let Value::String(name) = value else {
        return Err(refuse("is not a string"));
    };
    if name.is_empty() {
        return Err(refuse("is empty"));
    }
    if name.len() > MAX_USER_NAME_BYTES {
        return Err(refuse("is longer than 255 bytes"));
    }
    if name.chars().any(char::is_control) {
        return Err(refuse("contains control characters"));
    }
    Ok(name.clone())
}

impl Default for UserClaim {
    fn default() -> Self {
        UserClaim(Self::DEFAULT.to_owned())
    }
}

impl fmt::Display for UserClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for UserClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UserClaim({})", self.0)
    }
}

impl std::str::FromStr for UserClaim {
    type Err = ConfigError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        UserClaim::new(name)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn claims(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    fn resolve(claim: &UserClaim, value: Value) -> Result<ResolvedUser, Refusal> {
        claim.resolve(&claims(value))
    }

    #[test]
    fn the_configured_claim_wins_and_sub_is_the_fallback() {
        let default = UserClaim::default();
        let both = resolve(
            &default,
            json!({"sub": "f3a9", "preferred_username": "alice"}),
        );
        assert_eq!(
            both,
            Ok(ResolvedUser {
                name: "alice".into(),
                claim: "preferred_username".into()
            })
        );
        let only_sub = resolve(&default, json!({"sub": "f3a9", "preferred_username": null}));
        assert_eq!(
            only_sub.map(|u| (u.name, u.claim)),
            Ok(("f3a9".into(), "sub".into()))
        );
        let email = UserClaim::new("email").unwrap_or_default();
        let by_email = resolve(&email, json!({"sub": "f3a9", "email": "a@example.com"}));
        assert_eq!(by_email.map(|u| u.name), Ok("a@example.com".into()));
    }

    #[test]
    fn unusable_names_are_refused_rather_than_replaced() {
        let default = UserClaim::default();
        for (value, why) in [
            (
                json!({"sub": "x", "preferred_username": 7}),
                "is not a string",
            ),
            (json!({"sub": "x", "preferred_username": ""}), "is empty"),
            (
                json!({"sub": "x", "preferred_username": "a\nb"}),
                "control characters",
            ),
            (
                json!({"sub": "x", "preferred_username": "a".repeat(256)}),
                "longer than 255",
            ),
            (
                json!({"name": "alice"}),
                "neither a `preferred_username` nor a `sub`",
            ),
        ] {
            match resolve(&default, value) {
                Err(Refusal::NoUser(reason)) => assert!(reason.contains(why), "{reason}"),
                other => panic!("expected a refusal ({why}), got {other:?}"),
            }
        }
    }

    #[test]
    fn claim_names_are_checked() {
        assert!(UserClaim::new("").is_err());
        assert!(UserClaim::new("user name").is_err());
        assert_eq!(
            UserClaim::new("upn").map(|c| c.to_string()),
            Ok("upn".into())
        );
    }
}
