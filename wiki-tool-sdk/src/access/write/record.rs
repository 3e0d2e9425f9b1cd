//! How a write is recorded and reported: the version comment every save stores (`[AI] `-prefixed
//! and capped, so tooling can find what agents wrote) and the lines that say what was saved.

use mcp_runtime::prelude::ToolOutput;
use wiki_store::model::document::SaveOutcome;
use wiki_store::model::version::Version;

use super::WriteTarget;

/// The literal prefix of every version comment a write tool stores: tooling greps for it.
pub const AI_PREFIX: &str = "[AI] ";

/// The longest stored version comment, prefix included; longer ones end in `...`.
pub const MAX_COMMENT_CHARS: usize = 1000;

/// A version comment as the store records it. Only [`Comment::new`] makes one, so every comment
/// a write through the door stores carries [`AI_PREFIX`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment(String);

impl Comment {
    /// `[AI] ` and the agent's comment, or `default` when the agent's is absent or blank, cut
    /// to [`MAX_COMMENT_CHARS`] with `...` (the prefix always kept).
    pub fn new(agent: Option<&str>, default: &str) -> Self {
        let text = agent
            .map(str::trim)
            .filter(|comment| !comment.is_empty())
            .unwrap_or(default);
        let comment = format!("{AI_PREFIX}{text}");
        if comment.chars().count() <= MAX_COMMENT_CHARS {
            return Self(comment);
        }
        let mut cut: String = comment.chars().take(MAX_COMMENT_CHARS - 3).collect();
        cut.push_str("...");
        Self(cut)
    }

    /// The stored text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn into_string(self) -> String {
        self.0
    }
}

/// `Version: 1.1` after a creation, `Version: 4.3 -> 4.4` after an update.
pub fn version_line(outcome: &SaveOutcome) -> String {
    match outcome {
        SaveOutcome::Created { version } | SaveOutcome::Unchanged { version } => {
            format!("Version: {version}")
        }
        SaveOutcome::Updated { previous, version } => {
            format!("Version: {previous} -> {version}")
        }
    }
}

/// The no-op result: `No changes: <what>. Nothing was saved; …` with the untouched version.
/// `what` is a clause, e.g. "the content and title are already as given". Only a target the
/// caller may view exists, so this never tells anything about a page it may not see.
pub fn no_changes(target: &WriteTarget, what: &str, version: Version) -> ToolOutput {
    ToolOutput::text(format!(
        "No changes: {what}. Nothing was saved; the {} stays at version {version}.",
        target.row_name()
    ))
}

/// The quiet answer to a retry: `Already applied: …` with the row's version. For a write whose
/// base_version the row has moved past (or that creates a row that exists) but whose row
/// already holds exactly what the write would store: the first attempt succeeded and its answer
/// was lost, so the write is done, not in conflict ([`WriteTarget::version_refused`]).
pub fn already_applied(target: &WriteTarget, version: Version) -> ToolOutput {
    ToolOutput::text(format!(
        "Already applied: the {} is at version {version} and already holds exactly what you \
         sent (a retry of a write that succeeded). Nothing was saved.",
        target.row_name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_prefixed_defaulted_and_capped() {
        let text = |agent, default| Comment::new(agent, default).into_string();
        assert_eq!(text(None, "Created document"), "[AI] Created document");
        assert_eq!(
            text(Some("  \n "), "Replaced content"),
            "[AI] Replaced content"
        );
        assert_eq!(text(Some(" fix typo "), "x"), "[AI] fix typo");
        let long = "é".repeat(2000);
        let capped = text(Some(&long), "x");
        assert_eq!(capped.chars().count(), MAX_COMMENT_CHARS);
        assert!(capped.starts_with(AI_PREFIX) && capped.ends_with("é..."));
        let exact = "a".repeat(MAX_COMMENT_CHARS - AI_PREFIX.len());
        assert_eq!(text(Some(&exact), "x"), format!("{AI_PREFIX}{exact}"));
    }

    #[test]
    fn version_lines() {
        let first = Version::FIRST;
        let next = first.next(false);
        assert_eq!(
            version_line(&SaveOutcome::Created { version: first }),
            "Version: 1.1"
        );
        assert_eq!(
            version_line(&SaveOutcome::Updated {
                previous: first,
                version: next
            }),
            "Version: 1.1 -> 1.2"
        );
    }
}
