//! An API token's scope as people write and read it: what `wiki-mcp token create --read-only
//! --tools a,b --wiki w --expires 30d` and the admin page's token form turn into a
//! [`TokenScope`], and the one-line description both listings print.
//!
//! The store keeps the scope; the HTTP gate enforces it (`http/identity.rs`: expiry and wikis
//! refused there, read-only and tools as a narrowing of the caller, `server/narrowing.rs`).

use std::time::Duration;

use mcp_runtime::Registry;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use wiki_store::model::token::TokenScope;
use wiki_store::model::wiki::WikiId;
use wiki_tool_sdk::instant::utc_minute;

use crate::narrowing::tool_names;

/// The longest lifetime `--expires` accepts (ten years): beyond it, make a full token.
const MAX_LIFETIME: Duration = Duration::from_secs(10 * 366 * 24 * 60 * 60);

/// What a person asked a new token to be limited to, as typed.
#[derive(Debug, Clone, Default)]
pub struct ScopeRequest<'a> {
    /// Only tools that do not change content.
    pub read_only: bool,
    /// Tool ids or category names, comma-separated; `None` or blank: any tool.
    pub tools: Option<&'a str>,
    /// Wiki ids, comma-separated; `None` or blank: any wiki.
    pub wikis: Option<&'a str>,
    /// A lifetime (`30d`, `12h`, `90m`, `2w`) or an RFC 3339 instant; `None` or blank: it does
    /// not expire.
    pub expires: Option<&'a str>,
}

/// A value that was typed: trimmed, and `None` when blank.
fn given(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|value| !value.is_empty())
}

impl ScopeRequest<'_> {
    /// The scope asked for at `now`, checked against `registry` (tool and category names) and
    /// `known_wikis`; `Err` is a sentence saying what to correct.
    pub fn scope(
        &self,
        registry: &Registry,
        known_wikis: &[WikiId],
        now: OffsetDateTime,
    ) -> Result<TokenScope, String> {
        let tools = given(self.tools)
            .map(|list| {
                tool_names(list, registry)
                    .map(|names| names.into_iter().collect::<Vec<_>>())
                    .map_err(|problem| format!("The tool list {problem}"))
            })
            .transpose()?;
        let wikis = given(self.wikis)
            .map(|list| wiki_list(list, known_wikis))
            .transpose()?;
        let expires = given(self.expires)
            .map(|text| parse_expiry(text, now))
            .transpose()?;
        Ok(TokenScope {
            read_only: self.read_only,
            tools,
            wikis,
            expires,
        })
    }
}

/// The wikis of a comma-separated list, each one that exists.
fn wiki_list(list: &str, known: &[WikiId]) -> Result<Vec<String>, String> {
    let mut wikis = Vec::new();
    for name in list
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
    {
        if !known.iter().any(|wiki| wiki.as_str() == name) {
            return Err(format!(
                "The wiki list names `{}`, which is not a wiki of this farm. Wikis: {}.",
                name.chars().take(64).collect::<String>(),
                known
                    .iter()
                    .map(WikiId::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        wikis.push(name.to_owned());
    }
    if wikis.is_empty() {
        return Err("The wiki list names no wiki.".into());
    }
    Ok(wikis)
}

/// When a token made at `now` expires: `text` is a lifetime (`30d`, `12h`, `90m`, `2w`) or an
/// RFC 3339 instant in the future.
pub fn parse_expiry(text: &str, now: OffsetDateTime) -> Result<OffsetDateTime, String> {
    let text = text.trim();
    if let Ok(at) = OffsetDateTime::parse(text, &Rfc3339) {
        if at <= now {
            return Err(format!("The expiry {text} is not in the future."));
        }
        return Ok(at);
    }
    let unit_at = text.len() - text.chars().next_back().map_or(0, char::len_utf8);
    let (count, unit) = text.split_at(unit_at);
    let seconds = match unit {
        "m" => 60,
        "h" => 60 * 60,
        "d" => 24 * 60 * 60,
        "w" => 7 * 24 * 60 * 60,
        _ => 0,
    };
    let lifetime = count
        .parse::<u64>()
        .ok()
        .filter(|count| *count > 0 && seconds > 0)
        .map(|count| Duration::from_secs(count.saturating_mul(seconds)));
    match lifetime {
        Some(lifetime) if lifetime <= MAX_LIFETIME => Ok(now + lifetime),
        Some(_) => Err(format!(
            "The lifetime {text} is longer than ten years; create a token without an expiry."
        )),
        None => Err(format!(
            "The expiry `{}` is neither a lifetime (such as 30d, 12h, 90m or 2w) nor an RFC 3339 \
             date and time (such as 2030-01-31T00:00:00Z).",
            text.chars().take(40).collect::<String>()
        )),
    }
}

/// `full`, or what limits the token: `read-only; tools: a, b; wikis: w; expires
/// 2030-01-31 00:00 UTC` (`expired …` once past `now`).
pub fn describe(scope: &TokenScope, now: OffsetDateTime) -> String {
    let mut parts = Vec::new();
    if scope.read_only {
        parts.push("read-only".to_owned());
    }
    if let Some(tools) = &scope.tools {
        parts.push(format!("tools: {}", tools.join(", ")));
    }
    if let Some(wikis) = &scope.wikis {
        parts.push(format!("wikis: {}", wikis.join(", ")));
    }
    if let Some(expires) = scope.expires {
        let word = if expires <= now { "expired" } else { "expires" };
        parts.push(format!("{word} {} UTC", utc_minute(expires)));
    }
    if parts.is_empty() {
        "full".to_owned()
    } else {
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp(1_900_000_000).unwrap_or(OffsetDateTime::UNIX_EPOCH)
    }

    #[test]
    fn lifetimes_and_instants_are_read_and_anything_else_explained() {
        let day = Duration::from_secs(24 * 60 * 60);
        assert_eq!(parse_expiry("30d", now()), Ok(now() + day * 30));
        assert_eq!(parse_expiry(" 2w ", now()), Ok(now() + day * 14));
        assert_eq!(
            parse_expiry("90m", now()),
            Ok(now() + Duration::from_secs(90 * 60))
        );
        assert!(parse_expiry("2031-01-01T00:00:00Z", now()).is_ok());
        for bad in [
            "0d",
            "30",
            "d",
            "30y",
            "-3d",
            "2000-01-01T00:00:00Z",
            "99999w",
        ] {
            assert!(parse_expiry(bad, now()).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_scope_request_checks_its_tools_and_wikis() {
        let registry = crate::registry().unwrap_or_else(|error| panic!("{error}"));
        let wikis = [WikiId::main()];
        let request = ScopeRequest {
            read_only: true,
            tools: Some("man, help"),
            wikis: Some("main"),
            expires: Some("1d"),
        };
        let scope = request.scope(registry, &wikis, now());
        let scope = scope.unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(
            describe(&scope, now()),
            "read-only; tools: help, man; wikis: main; expires 2030-03-18 17:46 UTC"
        );
        let misspelt = ScopeRequest {
            tools: Some("mna"),
            ..ScopeRequest::default()
        };
        let error = misspelt.scope(registry, &wikis, now()).unwrap_err();
        assert!(error.contains("`mna`"), "{error}");
        let unknown = ScopeRequest {
            wikis: Some("nowhere"),
            ..ScopeRequest::default()
        };
        let error = unknown.scope(registry, &wikis, now()).unwrap_err();
        assert!(error.contains("Wikis: main"), "{error}");
        assert_eq!(
            describe(&TokenScope::full(), now()),
            "full",
            "a full token says so"
        );
    }
}
