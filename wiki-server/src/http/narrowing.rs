//! A client narrowing its own session, on any request to the MCP endpoint: `X-MCP-Readonly:
//! true` or `?readonly=true` leaves only the tools that do not change content, `X-MCP-Tools:
//! a,b` or `?tools=a,b` only the tools named (ids, or category names such as `Authoring`).
//!
//! The endpoint is stateless, so a client that wants a narrowed session sends the header with
//! every request, or puts the query on the endpoint URL it was configured with (what a client
//! that cannot set headers does). Both may be given: each narrows. What they name must be a
//! tool or a category of this server: a misspelt name is refused (400) rather than quietly
//! giving an empty list. The wiki's policy stays the upper bound (`server/narrowing.rs`).

use std::collections::BTreeSet;

use http::{HeaderMap, Uri};
use mcp_runtime::Registry;

use crate::narrowing::{Limit, NarrowedBy, tool_names};

/// The read-only header.
pub(crate) const READONLY_HEADER: &str = "x-mcp-readonly";
/// The tools header.
pub(crate) const TOOLS_HEADER: &str = "x-mcp-tools";
/// The read-only query parameter.
const READONLY_QUERY: &str = "readonly";
/// The tools query parameter.
const TOOLS_QUERY: &str = "tools";

/// The limit a request's client set on its session (`None` when it set none), or why its
/// narrowing cannot be read (the text of a 400).
pub(crate) fn session_limit(
    headers: &HeaderMap,
    uri: &Uri,
    registry: &Registry,
) -> Result<Option<Limit>, String> {
    let mut read_only = false;
    let mut tools: Option<BTreeSet<String>> = None;
    let mut narrow = |names: BTreeSet<String>| {
        tools = Some(match tools.take() {
            Some(kept) => kept.intersection(&names).cloned().collect(),
            None => names,
        });
    };
    for value in headers.get_all(READONLY_HEADER) {
        let value = value
            .to_str()
            .map_err(|_| format!("the {READONLY_HEADER} header is not text; send true or false"))?;
        read_only |= flag(value, "the X-MCP-Readonly header")?;
    }
    let listed: Vec<&str> = headers
        .get_all(TOOLS_HEADER)
        .iter()
        .map(|value| {
            value
                .to_str()
                .map_err(|_| "the X-MCP-Tools header is not text; send tool names".to_owned())
        })
        .collect::<Result<_, _>>()?;
    if !listed.is_empty() {
        narrow(names(
            &listed.join(","),
            "the X-MCP-Tools header",
            registry,
        )?);
    }
    for (key, value) in url::form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes()) {
        match key.as_ref() {
            READONLY_QUERY => read_only |= flag(&value, "?readonly= on the endpoint URL")?,
            TOOLS_QUERY => narrow(names(&value, "?tools= on the endpoint URL", registry)?),
            _ => {}
        }
    }
    let limit = Limit {
        by: NarrowedBy::Client,
        read_only,
        tools,
    };
    Ok((limit.read_only || limit.tools.is_some()).then_some(limit))
}

/// `true`/`false` (also `1`/`0`, `yes`/`no`), ignoring case and surrounding spaces.
fn flag(value: &str, place: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        _ => Err(format!(
            "{place} must be true or false, not `{}`",
            value.chars().take(40).collect::<String>()
        )),
    }
}

/// The names of a comma-separated list, each a tool id or a category of `registry`.
fn names(list: &str, place: &str, registry: &Registry) -> Result<BTreeSet<String>, String> {
    tool_names(list, registry).map_err(|problem| format!("{place} {problem}"))
}

#[cfg(test)]
mod tests {
    use http::HeaderValue;

    use super::*;

    fn registry() -> &'static Registry {
        crate::registry().unwrap_or_else(|error| panic!("{error}"))
    }

    fn read(headers: &[(&'static str, &'static str)], uri: &str) -> Result<Option<Limit>, String> {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.append(*name, HeaderValue::from_static(value));
        }
        let uri: Uri = uri.parse().unwrap_or_else(|error| panic!("{error}"));
        session_limit(&map, &uri, registry())
    }

    fn tools(limit: &Option<Limit>) -> Vec<String> {
        limit
            .as_ref()
            .and_then(|limit| limit.tools.clone())
            .map(|tools| tools.into_iter().collect())
            .unwrap_or_default()
    }

    #[test]
    fn no_header_and_no_query_is_no_limit() {
        assert_eq!(read(&[], "/mcp"), Ok(None));
        assert_eq!(
            read(&[(READONLY_HEADER, "false")], "/mcp?other=1"),
            Ok(None)
        );
    }

    #[test]
    fn headers_and_query_both_narrow() {
        let limit = read(&[(READONLY_HEADER, "True")], "/mcp").unwrap_or_default();
        assert!(limit.is_some_and(|limit| limit.read_only && limit.tools.is_none()));
        let limit = read(&[], "/mcp?readonly=1").unwrap_or_default();
        assert!(limit.is_some_and(|limit| limit.read_only));
        let limit = read(
            &[(TOOLS_HEADER, "man, list_wikis")],
            "/mcp?tools=man%2CHelp",
        );
        assert_eq!(tools(&limit.unwrap_or_default()), ["man"]);
    }

    #[test]
    fn a_misspelt_name_or_flag_is_refused_with_what_is_accepted() {
        let refusal = read(&[(TOOLS_HEADER, "man,get_documnet")], "/mcp").unwrap_err();
        assert!(refusal.contains("`get_documnet`"), "{refusal}");
        assert!(
            refusal.contains("Tools: ") && refusal.contains("man"),
            "{refusal}"
        );
        let refusal = read(&[], "/mcp?tools=").unwrap_err();
        assert!(refusal.contains("names no tool"), "{refusal}");
        let refusal = read(&[], "/mcp?readonly=maybe").unwrap_err();
        assert!(refusal.contains("true or false"), "{refusal}");
    }
}
