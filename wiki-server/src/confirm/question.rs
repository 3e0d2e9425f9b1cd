//! What a write will do, in a person's words: the question the client shows.

/// One write as the person is asked about it: the tool, the wiki and what will happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    /// What will happen, e.g. `replace 1,204 characters of Sandbox.Notes (version 1.3) with
    /// 1,310 characters`.
    pub what: String,
}

impl Proposal {
    /// A proposal saying `what` will happen.
    pub fn new(what: impl Into<String>) -> Self {
        Self { what: what.into() }
    }

    /// The question the person reads.
    pub(crate) fn question(&self, tool: &str, wiki: &str) -> String {
        format!(
            "An AI agent asks to {} on the wiki \"{wiki}\" (tool {tool}). Allow this change?",
            self.what
        )
    }
}

/// `n` with thousands separated by commas: `1,204`.
pub(crate) fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// `1 character` / `1,310 characters`, counted in characters as agents count them.
pub(crate) fn characters(text: &str) -> String {
    plural(text.chars().count(), "character", "characters")
}

/// `n thing` or `n things`.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_people_write_them() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_204), "1,204");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(characters("é"), "1 character");
        assert_eq!(plural(3, "attachment", "attachments"), "3 attachments");
    }

    #[test]
    fn the_question_names_the_change_the_wiki_and_the_tool() {
        let proposal = Proposal::new("delete Sandbox.Old and its 3 attachments");
        assert_eq!(
            proposal.question("delete_document", "main"),
            "An AI agent asks to delete Sandbox.Old and its 3 attachments on the wiki \"main\" \
             (tool delete_document). Allow this change?"
        );
    }
}
