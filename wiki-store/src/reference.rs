//! Document references: the one parser and serializer of `wiki:Space.Sub.Page`.
//!
//! Grammar: an optional wiki prefix (a [`WikiId`] followed by `:`), then segments separated by `.`.
//! A backslash escapes the next character, so `\.` is a dot inside a name, `\:` a colon and `\\` a
//! backslash. The last segment is the page name and the others are the space path; a single segment
//! names a space, and `Space` alone means `Space.WebHome`. Serialization escapes `\`, `.` and `:` in
//! every segment, so `parse(serialize(r)) == r` for every reference (property-tested below).

use std::fmt;

use unicode_general_category::{GeneralCategory, get_general_category};

use crate::model::wiki::WikiId;

/// The page name of a space's home page: `Space` alone means `Space.WebHome`.
pub const HOME_PAGE: &str = "WebHome";

/// The longest name (space or page) accepted, in characters.
pub const MAX_NAME_CHARS: usize = 255;

/// The deepest space nesting accepted.
pub const MAX_SPACE_DEPTH: usize = 32;

/// Why a reference was refused. Each variant is safe to describe to an agent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReferenceError {
    /// Nothing to parse.
    #[error("reference is empty")]
    Empty,
    /// Two dots in a row, or a dot at either end (segment numbers are 1-based).
    #[error("reference has an empty name at segment {segment}")]
    EmptySegment {
        /// Which segment is empty, counted from 1 after the wiki prefix.
        segment: usize,
    },
    /// A backslash at the very end escapes nothing.
    #[error("reference ends with a lone backslash")]
    TrailingEscape,
    /// The text before `:` is not a wiki id.
    #[error("reference has an invalid wiki prefix")]
    InvalidWiki,
    /// Control, line-separator and paragraph-separator characters are never part of a name.
    #[error("reference contains a control character")]
    ControlCharacter,
    /// A name is longer than [`MAX_NAME_CHARS`].
    #[error("a name in the reference is longer than {MAX_NAME_CHARS} characters")]
    NameTooLong,
    /// More spaces than [`MAX_SPACE_DEPTH`].
    #[error("reference nests more than {MAX_SPACE_DEPTH} spaces")]
    TooDeep,
}

/// A non-empty path of spaces, outermost first (`Sales.Europe` is `["Sales", "Europe"]`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpacePath(Vec<String>);

impl SpacePath {
    /// Builds a path from already-unescaped names, validating each one.
    pub fn new<I, S>(names: I) -> Result<Self, ReferenceError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        if names.is_empty() {
            return Err(ReferenceError::Empty);
        }
        if names.len() > MAX_SPACE_DEPTH {
            return Err(ReferenceError::TooDeep);
        }
        for (index, name) in names.iter().enumerate() {
            validate_name(name, index + 1)?;
        }
        Ok(SpacePath(names))
    }

    /// Parses a serialized space path (`Sales.Europe`, escapes allowed, no wiki prefix, no page).
    pub fn parse(input: &str) -> Result<Self, ReferenceError> {
        let segments = split_segments(input)?;
        SpacePath::new(segments)
    }

    /// The names, outermost first.
    pub fn names(&self) -> &[String] {
        &self.0
    }

    /// The innermost name.
    pub fn last(&self) -> &str {
        // The vector is never empty: every constructor refuses an empty path.
        self.0.last().map(String::as_str).unwrap_or_default()
    }

    /// The enclosing space, or `None` for a top-level space.
    pub fn parent(&self) -> Option<SpacePath> {
        (self.0.len() > 1).then(|| SpacePath(self.0[..self.0.len() - 1].to_vec()))
    }

    /// The outermost space of this path.
    pub fn top(&self) -> SpacePath {
        SpacePath(self.0[..1].to_vec())
    }

    /// How many spaces deep this path is (a top-level space has depth 1).
    pub fn depth(&self) -> usize {
        self.0.len()
    }

    /// A nested space of this one.
    pub fn child(&self, name: &str) -> Result<SpacePath, ReferenceError> {
        let mut names = self.0.clone();
        names.push(name.to_owned());
        SpacePath::new(names)
    }

    /// Whether `other` is this space or nested inside it.
    pub fn contains(&self, other: &SpacePath) -> bool {
        other.0.len() >= self.0.len() && other.0[..self.0.len()] == self.0[..]
    }

    /// The home page of this space (`Space.WebHome`).
    pub fn home(&self, wiki: &WikiId) -> DocumentReference {
        DocumentReference {
            wiki: wiki.clone(),
            space: self.clone(),
            name: HOME_PAGE.to_owned(),
        }
    }
}

impl fmt::Display for SpacePath {
    /// The escaped serialized form, `Sales.Europe`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, name) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str(".")?;
            }
            write_escaped(f, name)?;
        }
        Ok(())
    }
}

/// A reference as written, possibly without a wiki prefix.
///
/// Access checks need to know whether a prefix was written (an explicit prefix that contradicts the
/// requested wiki is refused), so the parser keeps it optional; [`RelativeReference::in_wiki`] fills
/// it in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RelativeReference {
    /// The wiki prefix, if one was written.
    pub wiki: Option<WikiId>,
    /// The space path.
    pub space: SpacePath,
    /// The page name.
    pub name: String,
}

impl RelativeReference {
    /// Parses `[wiki:]Space[.Sub...][.Page]`; a single segment is a space and means its home page.
    pub fn parse(input: &str) -> Result<Self, ReferenceError> {
        if input.is_empty() {
            return Err(ReferenceError::Empty);
        }
        let (wiki, local) = split_wiki_prefix(input)?;
        let mut segments = split_segments(local)?;
        let name = if segments.len() == 1 {
            HOME_PAGE.to_owned()
        } else {
            segments.pop().unwrap_or_default()
        };
        let depth = segments.len();
        validate_name(&name, depth + 1)?;
        let space = SpacePath::new(segments)?;
        Ok(RelativeReference { wiki, space, name })
    }

    /// The absolute reference, in the written wiki or else in `default_wiki`.
    pub fn in_wiki(self, default_wiki: &WikiId) -> DocumentReference {
        DocumentReference {
            wiki: self.wiki.unwrap_or_else(|| default_wiki.clone()),
            space: self.space,
            name: self.name,
        }
    }
}

/// An absolute document reference: wiki, space path and page name (locale-free).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DocumentReference {
    wiki: WikiId,
    space: SpacePath,
    name: String,
}

impl DocumentReference {
    /// Builds a reference from parts, validating the page name.
    pub fn new(
        wiki: WikiId,
        space: SpacePath,
        name: impl Into<String>,
    ) -> Result<Self, ReferenceError> {
        let name = name.into();
        validate_name(&name, space.depth() + 1)?;
        Ok(DocumentReference { wiki, space, name })
    }

    /// Parses a reference, resolving an unprefixed one into `default_wiki`.
    pub fn parse(input: &str, default_wiki: &WikiId) -> Result<Self, ReferenceError> {
        RelativeReference::parse(input).map(|r| r.in_wiki(default_wiki))
    }

    /// The wiki.
    pub fn wiki(&self) -> &WikiId {
        &self.wiki
    }

    /// The space path.
    pub fn space(&self) -> &SpacePath {
        &self.space
    }

    /// The page name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether this is a space home page (`…WebHome`).
    pub fn is_home(&self) -> bool {
        self.name == HOME_PAGE
    }

    /// The serialized reference without the wiki prefix, `Space.Sub.Page`.
    pub fn local(&self) -> String {
        let mut out = self.space.to_string();
        out.push('.');
        push_escaped(&mut out, &self.name);
        out
    }

    /// The same page in another wiki.
    pub fn with_wiki(&self, wiki: WikiId) -> DocumentReference {
        DocumentReference {
            wiki,
            space: self.space.clone(),
            name: self.name.clone(),
        }
    }

    /// Why this reference may be read but not created: the first of its space and page names
    /// with a [look-alike problem](look_alike_problem), as `(what, reason)`.
    pub fn look_alike_problem(&self) -> Option<(&'static str, String)> {
        let spaces = self.space.names().iter().map(|name| ("space name", name));
        spaces
            .chain(std::iter::once(("page name", &self.name)))
            .find_map(|(what, name)| look_alike_problem(name).map(|reason| (what, reason)))
    }

    /// The parent in the hierarchy: a page's parent is its space home, a space home's parent is
    /// the enclosing space's home, and a top-level space home has none.
    pub fn parent(&self) -> Option<DocumentReference> {
        if self.is_home() {
            self.space.parent().map(|space| space.home(&self.wiki))
        } else {
            Some(self.space.home(&self.wiki))
        }
    }
}

impl fmt::Display for DocumentReference {
    /// The fully qualified form, `wiki:Space.Sub.Page`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}.", self.wiki, self.space)?;
        write_escaped(f, &self.name)
    }
}

fn split_wiki_prefix(input: &str) -> Result<(Option<WikiId>, &str), ReferenceError> {
    let mut escaped = false;
    for (index, c) in input.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '.' => return Ok((None, input)),
            ':' => {
                let wiki = WikiId::new(&input[..index]).map_err(|_| ReferenceError::InvalidWiki)?;
                let rest = &input[index + 1..];
                if rest.is_empty() {
                    return Err(ReferenceError::Empty);
                }
                return Ok((Some(wiki), rest));
            }
            _ => {}
        }
    }
    Ok((None, input))
}

fn split_segments(input: &str) -> Result<Vec<String>, ReferenceError> {
    if input.is_empty() {
        return Err(ReferenceError::Empty);
    }
    let mut segments = Vec::new();
    let mut current = String::new();
    let mut chars = input.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped) => current.push(escaped),
                None => return Err(ReferenceError::TrailingEscape),
            },
            '.' => {
                if current.is_empty() {
                    return Err(ReferenceError::EmptySegment {
                        segment: segments.len() + 1,
                    });
                }
                segments.push(std::mem::take(&mut current));
            }
            _ => current.push(c),
        }
    }
    if current.is_empty() {
        return Err(ReferenceError::EmptySegment {
            segment: segments.len() + 1,
        });
    }
    segments.push(current);
    if segments.len() > MAX_SPACE_DEPTH + 1 {
        return Err(ReferenceError::TooDeep);
    }
    Ok(segments)
}

fn validate_name(name: &str, segment: usize) -> Result<(), ReferenceError> {
    if name.is_empty() {
        return Err(ReferenceError::EmptySegment { segment });
    }
    if name
        .chars()
        .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
    {
        return Err(ReferenceError::ControlCharacter);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ReferenceError::NameTooLong);
    }
    Ok(())
}

/// Why `name` should not be given to something new (a page, a space, an attachment), or
/// `None`: leading or trailing whitespace, or an invisible format character (Unicode category
/// Cf: zero-width space, byte order mark, word joiner, soft hyphen, tag characters, …). Either
/// makes a name that looks like another one, or like nothing at all. ZWJ and ZWNJ (U+200D,
/// U+200C) are allowed: scripts and emoji need them.
///
/// Parsing does not refuse these, so names stored before this rule stay readable; the store
/// refuses them when a document or an attachment is created.
pub fn look_alike_problem(name: &str) -> Option<String> {
    if name.starts_with(char::is_whitespace) || name.ends_with(char::is_whitespace) {
        return Some("it starts or ends with a space".to_owned());
    }
    name.chars()
        .find(|&c| {
            !matches!(c, '\u{200C}' | '\u{200D}')
                && get_general_category(c) == GeneralCategory::Format
        })
        .map(|c| {
            format!(
                "it contains the invisible format character U+{:04X}",
                u32::from(c)
            )
        })
}

fn write_escaped(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    let mut out = String::with_capacity(name.len());
    push_escaped(&mut out, name);
    f.write_str(&out)
}

fn push_escaped(out: &mut String, name: &str) {
    for c in name.chars() {
        if matches!(c, '\\' | '.' | ':') {
            out.push('\\');
        }
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn main() -> WikiId {
        WikiId::main()
    }

    fn parse(input: &str) -> Result<DocumentReference, ReferenceError> {
        DocumentReference::parse(input, &main())
    }

    #[test]
    fn a_space_alone_means_its_home_page() {
        let r = parse("Sales").unwrap();
        assert_eq!(r.space().names(), ["Sales"]);
        assert_eq!(r.name(), "WebHome");
        assert_eq!(r.to_string(), "main:Sales.WebHome");
    }

    #[test]
    fn nested_spaces_and_page() {
        let r = parse("Sales.Europe.Q3").unwrap();
        assert_eq!(r.space().names(), ["Sales", "Europe"]);
        assert_eq!(r.name(), "Q3");
        assert_eq!(r.local(), "Sales.Europe.Q3");
    }

    #[test]
    fn escaped_dots_colons_and_backslashes_stay_in_names() {
        let r = parse(r"Release\.Notes.v1\.2\:final\\x").unwrap();
        assert_eq!(r.space().names(), ["Release.Notes"]);
        assert_eq!(r.name(), r"v1.2:final\x");
        assert_eq!(r.local(), r"Release\.Notes.v1\.2\:final\\x");
    }

    #[test]
    fn wiki_prefix_is_kept_apart_from_the_default() {
        let relative = RelativeReference::parse("dev:Sandbox.Test").unwrap();
        assert_eq!(relative.wiki.as_ref().map(WikiId::as_str), Some("dev"));
        let absolute = relative.in_wiki(&main());
        assert_eq!(absolute.wiki().as_str(), "dev");
        assert_eq!(RelativeReference::parse("Sandbox.Test").unwrap().wiki, None);
    }

    #[test]
    fn a_colon_after_the_first_dot_is_part_of_a_name() {
        let r = parse("Meetings.At 10:30").unwrap();
        assert_eq!(r.wiki().as_str(), "main");
        assert_eq!(r.name(), "At 10:30");
    }

    #[test]
    fn parent_follows_the_hierarchy() {
        let page = parse("A.B.Page").unwrap();
        let b_home = page.parent().unwrap();
        assert_eq!(b_home.local(), "A.B.WebHome");
        let a_home = b_home.parent().unwrap();
        assert_eq!(a_home.local(), "A.WebHome");
        assert_eq!(a_home.parent(), None);
    }

    #[test]
    fn malformed_references_are_refused_with_a_reason() {
        assert_eq!(parse(""), Err(ReferenceError::Empty));
        assert_eq!(parse("main:"), Err(ReferenceError::Empty));
        assert_eq!(
            parse("A..B"),
            Err(ReferenceError::EmptySegment { segment: 2 })
        );
        assert_eq!(
            parse(".A"),
            Err(ReferenceError::EmptySegment { segment: 1 })
        );
        assert_eq!(
            parse("A."),
            Err(ReferenceError::EmptySegment { segment: 2 })
        );
        assert_eq!(parse("A.B\\"), Err(ReferenceError::TrailingEscape));
        assert_eq!(parse("Bad Wiki:A.B"), Err(ReferenceError::InvalidWiki));
        assert_eq!(parse(":A.B"), Err(ReferenceError::InvalidWiki));
        assert_eq!(parse("A.B\nC"), Err(ReferenceError::ControlCharacter));
        assert_eq!(parse("A.B\u{2028}"), Err(ReferenceError::ControlCharacter));
        assert_eq!(
            parse(&format!("A.{}", "x".repeat(256))),
            Err(ReferenceError::NameTooLong)
        );
        assert_eq!(
            parse(&vec!["S"; 40].join(".")),
            Err(ReferenceError::TooDeep)
        );
    }

    #[test]
    fn look_alike_names_parse_but_are_named_for_creation() {
        for (name, reason) in [
            (
                "Plan\u{200B}s",
                "it contains the invisible format character U+200B",
            ),
            (
                "\u{FEFF}Plans",
                "it contains the invisible format character U+FEFF",
            ),
            (
                "Pla\u{2060}ns",
                "it contains the invisible format character U+2060",
            ),
            (
                "Plans\u{E0041}",
                "it contains the invisible format character U+E0041",
            ),
            (
                "soft\u{AD}hyphen",
                "it contains the invisible format character U+00AD",
            ),
            (" Plans", "it starts or ends with a space"),
            ("Plans\u{A0}", "it starts or ends with a space"),
        ] {
            assert_eq!(
                look_alike_problem(name),
                Some(reason.to_owned()),
                "{name:?}"
            );
        }
        for fine in ["Plans", "Release Notes", "فارسی\u{200C}ها", "👩\u{200D}💻"] {
            assert_eq!(look_alike_problem(fine), None, "{fine:?}");
        }
        // Reading stays possible: the parser accepts them.
        let padded = parse("Sales .Plan\u{200B}s");
        let Ok(padded) = padded else {
            panic!("a stored look-alike must stay readable");
        };
        assert_eq!(
            padded.look_alike_problem(),
            Some(("space name", "it starts or ends with a space".to_owned()))
        );
        assert_eq!(
            parse("Sales.Plans")
                .ok()
                .and_then(|r| r.look_alike_problem()),
            None
        );
    }

    #[test]
    fn space_containment_is_by_whole_names() {
        let sales = SpacePath::parse("Sales").unwrap();
        assert!(sales.contains(&SpacePath::parse("Sales.Europe").unwrap()));
        assert!(sales.contains(&sales));
        assert!(!sales.contains(&SpacePath::parse("SalesForce").unwrap()));
        assert!(!sales.contains(&SpacePath::parse(r"Sales\.x").unwrap()));
    }

    fn name_strategy() -> impl Strategy<Value = String> {
        proptest::string::string_regex(r"[a-zA-Z0-9 .:\\_éß漢-]{1,12}").unwrap()
    }

    proptest! {
        #[test]
        fn serialization_round_trips(
            wiki in "[a-z0-9][a-z0-9_-]{0,8}",
            spaces in proptest::collection::vec(name_strategy(), 1..5),
            name in name_strategy(),
        ) {
            let wiki = WikiId::new(&wiki).unwrap();
            let space = SpacePath::new(spaces).unwrap();
            let reference = DocumentReference::new(wiki.clone(), space.clone(), name).unwrap();
            let full = reference.to_string();
            prop_assert_eq!(&DocumentReference::parse(&full, &main()).unwrap(), &reference);
            prop_assert_eq!(&DocumentReference::parse(&reference.local(), &wiki).unwrap(), &reference);
            prop_assert_eq!(SpacePath::parse(&space.to_string()).unwrap(), space);
        }

        #[test]
        fn parsing_never_panics_and_canonical_forms_are_stable(input in "\\PC{0,40}") {
            if let Ok(reference) = parse(&input) {
                let again = parse(&reference.to_string()).unwrap();
                prop_assert_eq!(again, reference);
            }
        }
    }
}
