//! What a write will do, in a person's words: the question the client shows.

/// How many writes a question names one by one; the rest are counted (`and 3 more`), so a
/// batch of hundreds still reads as a question.
pub const LISTED: usize = 10;

/// What a call's writes will do as the person is asked about them: the tool, the wiki and
/// what will happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    /// What will happen, e.g. `replace 1,204 characters of Sandbox.Notes (version 1.3) with
    /// 1,310 characters`.
    pub what: String,
    /// How many writes `what` describes.
    writes: usize,
}

impl Proposal {
    /// A proposal saying `what` (one write) will happen.
    pub fn new(what: impl Into<String>) -> Self {
        Self {
            what: what.into(),
            writes: 1,
        }
    }

    /// One proposal for every write of `proposals`, in order: `make 3 changes: A; B; C`, the
    /// first [`LISTED`] named and the rest counted. One write reads as itself.
    pub fn all(mut proposals: Vec<Proposal>) -> Self {
        if proposals.len() == 1 {
            return proposals.remove(0);
        }
        let writes = proposals.iter().map(|p| p.writes).sum();
        let more = proposals.len().saturating_sub(LISTED);
        let mut listed: Vec<String> = proposals.into_iter().take(LISTED).map(|p| p.what).collect();
        if more > 0 {
            listed.push(format!("and {} more", count(more)));
        }
        Self {
            what: format!(
                "make {}: {}",
                plural(writes, "change", "changes"),
                listed.join("; ")
            ),
            writes,
        }
    }

    /// How many writes this proposal describes.
    pub fn writes(&self) -> usize {
        self.writes
    }

    /// The question the person reads.
    pub fn question(&self, tool: &str, wiki: &str) -> String {
        let allow = if self.writes > 1 {
            "Allow these changes?"
        } else {
            "Allow this change?"
        };
        format!(
            "An AI agent asks to {} on the wiki \"{wiki}\" (tool {tool}). {allow}",
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
pub fn plural(n: usize, one: &str, many: &str) -> String {
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
    fn several_writes_are_named_up_to_the_limit_then_counted() {
        let twelve = (1..=12)
            .map(|n| Proposal::new(format!("create Sandbox.P{n}")))
            .collect();
        let proposal = Proposal::all(twelve);
        assert_eq!(proposal.writes(), 12);
        assert_eq!(
            proposal.question("write_many", "main"),
            "An AI agent asks to make 12 changes: create Sandbox.P1; create Sandbox.P2; create \
             Sandbox.P3; create Sandbox.P4; create Sandbox.P5; create Sandbox.P6; create \
             Sandbox.P7; create Sandbox.P8; create Sandbox.P9; create Sandbox.P10; and 2 more on \
             the wiki \"main\" (tool write_many). Allow these changes?"
        );
        let one = Proposal::all(vec![Proposal::new("delete Sandbox.Old")]);
        assert_eq!(one, Proposal::new("delete Sandbox.Old"));
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
