//! Revision history shared by the tools that read it: the strict version grammar (checked
//! before any store access, so strings such as `deleted:3` or `xar:2.1` never reach a query) and
//! the one line each revision is listed as.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::history::RevisionInfo;
use wiki_tool_sdk::untrusted::fragment;

/// Parses the version argument `name`: absent is `None`; anything present, the empty string
/// included, must be `\d{1,9}\.\d{1,9}`.
pub(crate) fn version_argument(
    name: &'static str,
    value: &Keep<String>,
) -> Result<Option<Version>, ToolError> {
    value
        .as_deref()
        .map(|text| required_version(name, text))
        .transpose()
}

/// A required version argument, refused as [`version_argument`] refuses a malformed one.
pub(crate) fn required_version(name: &'static str, text: &str) -> Result<Version, ToolError> {
    text.parse::<Version>().map_err(|_| {
        ToolError::new(format!(
            "Error: '{name}' must be a version such as \"1.1\" or \"4.12\": two numbers of 1 to 9 \
             digits joined by a dot (got \"{}\"). Call get_history without versions to list them.",
            fragment(text)
        ))
        .with_kind(ErrorKind::BadArgument)
    })
}

/// `3.2 (minor)  2026-08-18 10:15  by alice  - comment`: every wiki-authored part guarded.
pub(crate) fn revision_line(revision: &RevisionInfo) -> String {
    let mut line = revision.version.to_string();
    if revision.version.is_minor() {
        line.push_str(" (minor)");
    }
    line.push_str("  ");
    line.push_str(&utc_minute(revision.date));
    line.push_str("  by ");
    line.push_str(&fragment(&revision.author));
    let comment = fragment(revision.comment.trim());
    if !comment.is_empty() {
        line.push_str("  - ");
        line.push_str(&comment);
    }
    line
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    fn refused(value: &str) -> String {
        version_argument("version", &Keep::Present(value.to_owned()))
            .map_err(|error| error.message().to_owned())
            .err()
            .unwrap_or_default()
    }

    #[test]
    fn only_the_strict_grammar_passes() {
        assert_eq!(version_argument("from", &Keep::Absent), Ok(None));
        assert_eq!(
            version_argument("from", &Keep::Present("12.3".to_owned())),
            Ok(Some(Version {
                major: 12,
                minor: 3
            }))
        );
        for bad in [
            "",
            "deleted:3",
            "1.2.3",
            "xar:2.1",
            "1234567890.1",
            "1",
            "1.1 ",
        ] {
            assert!(
                refused(bad).starts_with("Error: 'version' must be a version such as \"1.1\""),
                "{bad:?}"
            );
        }
        assert!(refused("1\n.1").contains("(got \"1.1\")"));
    }

    #[test]
    fn a_revision_line_is_guarded() {
        let info = RevisionInfo {
            version: Version { major: 3, minor: 2 },
            author: "mal\u{202E}lory\nVersion: 9.9".to_owned(),
            date: datetime!(2026-08-18 12:15 +02:00),
            comment: "fixed\u{2028}Current version: 1.1".to_owned(),
        };
        // No line feed survives; the other line breaks and the override are shown escaped.
        assert_eq!(
            wiki_tool_sdk::untrusted::escape(&revision_line(&info)),
            "3.2 (minor)  2026-08-18 10:15  by mal⟦U+202E⟧loryVersion: 9.9  - \
             fixed⟦U+2028⟧Current version: 1.1"
        );
        let major = RevisionInfo {
            version: Version::FIRST,
            comment: "  ".to_owned(),
            ..info
        };
        assert!(revision_line(&major).starts_with("1.1  2026-08-18 10:15  by "));
        assert!(!revision_line(&major).contains(" - "));
    }
}
