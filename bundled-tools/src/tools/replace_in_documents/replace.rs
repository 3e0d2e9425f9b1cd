//! The replacement itself, on one page's text: exact, non-overlapping, left to right, within the
//! limits one save may reach. Pure and linear, run off the async workers by the callers.

use mcp_runtime::output::lines::normalize_line_endings;

/// The most replacements made in one page.
pub(super) const MAX_REPLACEMENTS: usize = 10_000;

/// The longest text a page may have after the replacement, in characters.
pub(super) const MAX_RESULT_CHARS: usize = 1_000_000;

/// How many times `find` occurs in `content` (line endings as stored: LF).
pub(super) fn occurrences(content: &str, find: &str) -> usize {
    normalize_line_endings(content).matches(find).count()
}

/// `content` with every `find` replaced by `replace`, and how many there were; or why the page
/// cannot take it, worded for the page's line in the result.
pub(super) fn replaced(
    content: &str,
    find: &str,
    replace: &str,
) -> Result<(String, usize), String> {
    let content = normalize_line_endings(content);
    let count = content.matches(find).count();
    if count == 0 {
        return Err(
            "it no longer contains the text; nothing was written to it. Preview again.".to_owned(),
        );
    }
    if count > MAX_REPLACEMENTS {
        return Err(format!(
            "{count} replacements, more than the 10,000 one save makes; nothing was written to \
             it. Change it with edit_document in parts."
        ));
    }
    let text = content.replace(find, replace);
    let chars = text.chars().count();
    if chars > MAX_RESULT_CHARS {
        return Err(format!(
            "the result would be {chars} characters, more than the 1,000,000 a page holds; \
             nothing was written to it."
        ));
    }
    Ok((text, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_occurrence_is_replaced_left_to_right_without_overlap() {
        assert_eq!(
            replaced("aaa b aaa\r\n", "aa", "x"),
            Ok(("xa b xa\n".to_owned(), 2))
        );
        assert_eq!(occurrences("aaa b aaa", "aa"), 2);
        assert!(replaced("abc", "z", "y").is_err_and(|why| why.contains("no longer")));
    }

    #[test]
    fn a_page_past_the_limits_is_refused_whole() {
        let many = "a".repeat(MAX_REPLACEMENTS + 1);
        assert!(replaced(&many, "a", "b").is_err_and(|why| why.contains("10,000")));
        let big = "ab".repeat(9_000);
        assert!(replaced(&big, "a", &"c".repeat(200)).is_err_and(|why| why.contains("1,000,000")));
    }
}
