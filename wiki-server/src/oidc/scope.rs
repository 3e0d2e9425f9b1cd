//! What an OIDC access token's scope lets it do: the identity provider grants `mcp:read` or
//! `mcp:write` (the names are configurable), and a token granted reading only is served like a
//! read-only API token.
//!
//! A token whose scope names neither is served as before scopes were read: with everything its
//! user may do. Identity providers put `openid profile email` in every access token, and a farm
//! that turned on OIDC before the mapping existed would otherwise lose every write at once; an
//! operator who wants reading by default asks the provider to issue `mcp:read` unless
//! `mcp:write` was requested. Writing wins when both are granted.

use oidc_verifier::VerifiedToken;
use serde_json::Value;

/// How much of its user's rights an access token carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OidcAccess {
    /// Everything its user may do: the write scope, or neither scope.
    Full,
    /// Only tools that do not change content: the read scope without the write scope.
    ReadOnly,
}

/// The scope values that grant reading and writing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeGrants {
    read: String,
    write: String,
}

impl ScopeGrants {
    /// The scope that grants reading only, unless configured otherwise.
    pub const DEFAULT_READ: &str = "mcp:read";
    /// The scope that grants writing, unless configured otherwise.
    pub const DEFAULT_WRITE: &str = "mcp:write";

    /// `read` grants reading only, `write` everything (each trimmed).
    pub fn new(read: &str, write: &str) -> Self {
        ScopeGrants {
            read: read.trim().to_owned(),
            write: write.trim().to_owned(),
        }
    }

    /// What `token`'s scope grants. The scope is RFC 9068's space-separated `scope` claim, or
    /// the `scp` claim some providers send instead (a string or an array).
    pub fn access(&self, token: &VerifiedToken) -> OidcAccess {
        let mut scopes: Vec<&str> = token.scopes().collect();
        match token.claim("scp") {
            Some(Value::String(text)) => scopes.extend(text.split_ascii_whitespace()),
            Some(Value::Array(items)) => scopes.extend(items.iter().filter_map(Value::as_str)),
            _ => {}
        }
        self.access_of(&scopes)
    }

    fn access_of(&self, scopes: &[&str]) -> OidcAccess {
        let granted = |wanted: &str| !wanted.is_empty() && scopes.contains(&wanted);
        if !granted(&self.write) && granted(&self.read) {
            OidcAccess::ReadOnly
        } else {
            OidcAccess::Full
        }
    }
}

impl Default for ScopeGrants {
    fn default() -> Self {
        ScopeGrants::new(Self::DEFAULT_READ, Self::DEFAULT_WRITE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_only_when_the_read_scope_comes_without_the_write_scope() {
        let grants = ScopeGrants::default();
        let access = |scopes: &[&str]| grants.access_of(scopes);
        assert_eq!(access(&["openid", "mcp:read"]), OidcAccess::ReadOnly);
        assert_eq!(access(&["mcp:read", "mcp:write"]), OidcAccess::Full);
        assert_eq!(access(&["mcp:write"]), OidcAccess::Full);
        assert_eq!(
            access(&["openid", "profile"]),
            OidcAccess::Full,
            "a token without either scope is served as before"
        );
        assert_eq!(access(&[]), OidcAccess::Full);
        let renamed = ScopeGrants::new("wiki.read", "wiki.write");
        assert_eq!(renamed.access_of(&["wiki.read"]), OidcAccess::ReadOnly);
        assert_eq!(renamed.access_of(&["mcp:read"]), OidcAccess::Full);
    }
}
