//! Counts in prose: `1 line`, `2 lines`, `0 lines`. Agents read these lines; `1 lines` reads as
//! a slip and makes every other number on the line look doubtful.

/// `count` followed by `one` when it is exactly 1, else by `many`.
pub(crate) fn counted(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// A count as the structured outputs carry it (JSON integers are `u64` there).
pub(crate) fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_everything_else_plural() {
        assert_eq!(counted(1, "line", "lines"), "1 line");
        assert_eq!(counted(0, "line", "lines"), "0 lines");
        assert_eq!(counted(2, "char", "chars"), "2 chars");
    }
}
