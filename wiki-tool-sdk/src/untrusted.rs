//! Text people wrote, shown so an agent reads only what a person can see.
//!
//! Page content, titles, comments, object values, attachment text and names are untrusted:
//! they can carry characters that render as nothing or that reorder a line (Unicode tag
//! characters spelling an instruction, zero-width spaces, bidi overrides). A model reads those
//! code points as text while the person reviewing its work sees nothing. So every result the
//! wiki server sends shows each such character as a visible escape, `⟦U+XXXX⟧` (its code point
//! in hex, four to six digits), and says once how many it shows ([`note`]).
//!
//! The escape is unambiguous: a `⟦` that already begins something of that form in the text is
//! itself shown as `⟦U+27E6⟧`, so [`unescape`] of [`escape`] is always the text it started
//! from. The write tools unescape what they are sent, so an agent that reads a window and
//! writes it back changes nothing.
//!
//! Which characters are escaped ([`is_invisible`]): control characters other than line feed
//! and tab, every format character (general category Cf: zero-width spaces and joiners, bidi
//! embeddings, overrides, isolates and marks, the tag block U+E0000-U+E007F, the soft hyphen,
//! the byte order mark), the line and paragraph separators, and the other default-ignorable
//! code points (variation selectors, fillers, the unassigned tags), which render as nothing.
//!
//! The wiki server applies [`escape`] once, to the text and every string of the structured
//! content of every tool result, on its one call path. Tools do not escape; a tool that cuts text to a budget
//! measures it as it will be shown ([`shown_len`], [`fit_shown`]), so escapes never push a
//! window past it.

use std::borrow::Cow;

use mcp_runtime::output::guard::FRAGMENT_MAX_CHARS;
use unicode_general_category::{GeneralCategory, get_general_category};

/// What opens an escape.
pub const OPEN: char = '⟦';
/// What closes it.
pub const CLOSE: char = '⟧';
/// What follows [`OPEN`]: the escape reads `⟦U+XXXX⟧`.
const MARK: &str = "U+";

/// Whether `c` is shown escaped: it renders as nothing, or changes how the text around it is
/// laid out (see the module doc for the list).
pub fn is_invisible(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        ' '..='~' => false,
        _ if c.is_control() => true,
        // Default-ignorable code points outside the format category: the combining grapheme
        // joiner, Hangul and Khmer fillers, Mongolian and other variation selectors, and the
        // unassigned code points Unicode reserves as ignorable.
        '\u{034F}'
        | '\u{115F}'..='\u{1160}'
        | '\u{17B4}'..='\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{2065}'
        | '\u{3164}'
        | '\u{FE00}'..='\u{FE0F}'
        | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFF8}'
        | '\u{E0000}'..='\u{E0FFF}' => true,
        _ => matches!(
            get_general_category(c),
            GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        ),
    }
}

/// `text` with every [invisible](is_invisible) character shown as `⟦U+XXXX⟧`, and every `⟦`
/// that begins an escape's form shown as `⟦U+27E6⟧`. Borrows when nothing changes.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_counted(text).0
}

/// [`escape`], and how many characters it showed as escapes.
pub fn escape_counted(text: &str) -> (Cow<'_, str>, usize) {
    let mut out: Option<String> = None;
    let mut count = 0usize;
    for (index, c) in text.char_indices() {
        if needs_escape(c, &text[index..]) {
            let out = out.get_or_insert_with(|| {
                let mut out = String::with_capacity(text.len() + 16);
                out.push_str(&text[..index]);
                out
            });
            push_escape(out, c);
            count += 1;
        } else if let Some(out) = out.as_mut() {
            out.push(c);
        }
    }
    match out {
        Some(out) => (Cow::Owned(out), count),
        None => (Cow::Borrowed(text), 0),
    }
}

/// `text` with every `⟦U+XXXX⟧` (four to six hex digits naming a Unicode scalar value) turned
/// back into its character: what the write tools apply to what an agent sends, so a window read
/// and written back changes nothing. Anything else, a malformed escape included, is kept as
/// it is. Borrows when there is no escape.
pub fn unescape(text: &str) -> Cow<'_, str> {
    if !text.contains(OPEN) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        let from = &rest[at..];
        match parse_escape(from) {
            Some((Some(c), len)) => {
                out.push(c);
                rest = &from[len..];
                changed = true;
            }
            _ => {
                out.push(OPEN);
                rest = &from[OPEN.len_utf8()..];
            }
        }
    }
    out.push_str(rest);
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// How many characters `text` takes once [escaped](escape): what a budget counts.
pub fn shown_len(text: &str) -> usize {
    text.char_indices()
        .map(|(index, c)| shown_char_len(c, &text[index..]))
        .sum()
}

/// The longest start of `text` whose [escaped](escape) form takes at most `room` characters
/// (never cutting an escape in two), and that form's length.
pub fn fit_shown(text: &str, room: usize) -> (&str, usize) {
    let mut used = 0usize;
    for (index, c) in text.char_indices() {
        let len = shown_char_len(c, &text[index..]);
        if used + len > room {
            return (&text[..index], used);
        }
        used += len;
    }
    (text, used)
}

/// The echo guard of a wiki tool: one value (a title, a name, a comment, an argument) inside a
/// line of output. Line feeds are removed, so the value cannot open a line of its own, and it
/// is capped at [`FRAGMENT_MAX_CHARS`] characters followed by `…`. Unlike the framework's
/// [`mcp_runtime::output::guard::fragment`], which removes every control, separator and bidi
/// character, it leaves those to the result's [escape]: a person's title with a bidi
/// override then shows it as `⟦U+202E⟧` instead of silently losing it.
pub fn fragment(text: &str) -> Cow<'_, str> {
    let joined = single_line(text);
    match joined.char_indices().nth(FRAGMENT_MAX_CHARS) {
        None => joined,
        Some((cut, _)) => Cow::Owned(format!("{}…", &joined[..cut])),
    }
}

/// `text` without its line feeds, uncapped: a list of values (field names, filters) inside one
/// line of output. Like [`fragment`], it leaves every other character to the escape.
pub fn single_line(text: &str) -> Cow<'_, str> {
    if text.contains('\n') {
        Cow::Owned(text.replace('\n', ""))
    } else {
        Cow::Borrowed(text)
    }
}

/// The line a result starts with when it shows `count` escapes: how many, what the escape
/// means, and that writes take it back. `structured_only`: the text shows none, its
/// structured content does (a field the text leaves out, such as a diff's revision comments).
pub fn note(count: usize, structured_only: bool) -> String {
    let (characters, are) = if count == 1 {
        ("character", "is")
    } else {
        ("characters", "are")
    };
    let place = if structured_only {
        " in the structured content"
    } else {
        ""
    };
    format!(
        "Note: {count} invisible or layout-changing {characters}{place} {are} shown as \
         {OPEN}U+XXXX{CLOSE} (the code point); edit_document and write_document accept \
         the escape."
    )
}

fn needs_escape(c: char, from: &str) -> bool {
    is_invisible(c) || (c == OPEN && parse_escape(from).is_some())
}

fn shown_char_len(c: char, from: &str) -> usize {
    if needs_escape(c, from) {
        escape_len(c)
    } else {
        1
    }
}

/// Characters of `⟦U+XXXX⟧` for `c`: the brackets, `U+` and four to six digits.
fn escape_len(c: char) -> usize {
    let digits = match u32::from(c) {
        0..=0xFFFF => 4,
        0x1_0000..=0xF_FFFF => 5,
        _ => 6,
    };
    4 + digits
}

fn push_escape(out: &mut String, c: char) {
    use std::fmt::Write as _;
    // Writing into a String cannot fail.
    let _ = write!(out, "{OPEN}{MARK}{:04X}{CLOSE}", u32::from(c));
}

/// Whether `from` begins with an escape's form (`⟦U+` four to six hex digits `⟧`): its
/// character (`None` when the digits name no Unicode scalar value) and its length in bytes.
fn parse_escape(from: &str) -> Option<(Option<char>, usize)> {
    let digits_from = from.strip_prefix(OPEN)?.strip_prefix(MARK)?;
    let digits = digits_from
        .bytes()
        .take_while(u8::is_ascii_hexdigit)
        .take(7)
        .count();
    if !(4..=6).contains(&digits) || !digits_from[digits..].starts_with(CLOSE) {
        return None;
    }
    let value = u32::from_str_radix(&digits_from[..digits], 16).ok()?;
    let len = OPEN.len_utf8() + MARK.len() + digits + CLOSE.len_utf8();
    Some((char::from_u32(value), len))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn invisible_characters_are_shown_and_counted() {
        let text = "a\u{200B}b\u{202E}c\u{E0041}\u{E007F}d\re";
        let (shown, count) = escape_counted(text);
        assert_eq!(shown, "a⟦U+200B⟧b⟦U+202E⟧c⟦U+E0041⟧⟦U+E007F⟧d⟦U+000D⟧e");
        assert_eq!(count, 5);
        assert_eq!(shown_len(text), shown.chars().count());
    }

    /// Regression: the escape, the information separators U+001C-U+001E (line breaks to some
    /// clients' line splitting) and the Arabic letter mark U+061C reached numbered lines and
    /// titles unescaped.
    #[test]
    fn separators_escape_and_the_arabic_letter_mark_are_shown() {
        let text = "1\u{1B}[2J\u{1C}2\u{1D}3\u{1E}4 \u{61C}title";
        let (shown, count) = escape_counted(text);
        assert_eq!(
            shown,
            "1⟦U+001B⟧[2J⟦U+001C⟧2⟦U+001D⟧3⟦U+001E⟧4 ⟦U+061C⟧title"
        );
        assert_eq!(count, 5);
        assert_eq!(unescape(&shown), text);
    }

    #[test]
    fn plain_text_tabs_and_line_feeds_are_kept_and_borrowed() {
        let text = "Straße\tnaïve\n日本語 ⟦ not an escape ⟧ ⟦U+XXXX⟧ ⟦U+12⟧";
        assert!(matches!(escape(text), Cow::Borrowed(_)));
        assert!(matches!(unescape(text), Cow::Borrowed(_)));
    }

    #[test]
    fn a_literal_escape_is_itself_escaped() {
        let text = "write ⟦U+200B⟧ for a zero-width space";
        let shown = escape(text);
        assert_eq!(shown, "write ⟦U+27E6⟧U+200B⟧ for a zero-width space");
        assert_eq!(unescape(&shown), text);
        assert_eq!(unescape("⟦U+200B⟧x⟦U+1F600⟧"), "\u{200B}x\u{1F600}");
    }

    #[test]
    fn malformed_or_impossible_escapes_stay_as_written() {
        for text in [
            "⟦U+D800⟧",
            "⟦U+110000⟧",
            "⟦U+1234567⟧",
            "⟦u+200B⟧",
            "⟦U+200B",
        ] {
            assert_eq!(unescape(text), text);
            assert_eq!(unescape(&escape(text)), text);
        }
    }

    #[test]
    fn fitting_never_cuts_an_escape() {
        let text = "ab\u{200B}cd";
        assert_eq!(fit_shown(text, 2), ("ab", 2));
        assert_eq!(fit_shown(text, 9), ("ab", 2));
        assert_eq!(fit_shown(text, 10), ("ab\u{200B}", 10));
        assert_eq!(fit_shown(text, 100), (text, 12));
    }

    #[test]
    fn fragments_lose_line_feeds_and_keep_the_rest_for_the_escape() {
        assert_eq!(fragment("a\nb\u{202E}c\td"), "ab\u{202E}c\td");
        let long = "é".repeat(250);
        assert_eq!(
            fragment(&long),
            format!("{}…", "é".repeat(FRAGMENT_MAX_CHARS))
        );
        assert!(matches!(fragment("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn the_note_says_how_many_and_how_to_write_them_back() {
        assert!(note(1, false).starts_with("Note: 1 invisible or layout-changing character is"));
        assert!(note(3, false).contains("3 invisible or layout-changing characters are shown"));
        assert!(note(2, true).contains("characters in the structured content are shown as"));
        assert!(matches!(escape(&note(2, false)), Cow::Borrowed(_)));
    }

    proptest! {
        #[test]
        fn unescape_undoes_escape(text in any::<String>()) {
            let shown = escape(&text);
            prop_assert_eq!(unescape(&shown), text.as_str());
        }

        #[test]
        fn unescape_undoes_escape_near_escape_forms(
            parts in prop::collection::vec(
                prop_oneof![
                    Just("⟦".to_owned()), Just("U+".to_owned()), Just("⟧".to_owned()),
                    "[0-9A-Fa-f]{1,7}", Just("\u{200B}".to_owned()), Just("\u{E0041}".to_owned()),
                    any::<char>().prop_map(String::from),
                ],
                0..24,
            )
        ) {
            let text = parts.concat();
            let shown = escape(&text);
            prop_assert_eq!(unescape(&shown), text.as_str());
        }

        #[test]
        fn nothing_invisible_survives_and_lengths_agree(text in any::<String>()) {
            let shown = escape(&text);
            prop_assert!(!shown.chars().any(is_invisible), "{:?}", shown);
            prop_assert_eq!(shown_len(&text), shown.chars().count());
        }

        /// Every C0 and C1 control but line feed and tab, and every format character a
        /// line splitter or a bidi algorithm acts on, is escaped wherever it stands.
        #[test]
        fn separators_controls_and_marks_never_survive(
            chars in prop::collection::vec(
                prop_oneof![
                    prop::char::range('\u{0}', '\u{1F}'),
                    prop::char::range('\u{7F}', '\u{9F}'),
                    prop::sample::select(vec![
                        '\u{061C}', '\u{200E}', '\u{200F}', '\u{2028}', '\u{2029}', '\u{202A}',
                        '\u{202E}', '\u{2066}', '\u{2069}', '\u{FEFF}',
                    ]),
                    any::<char>(),
                ],
                0..32,
            )
        ) {
            let text: String = chars.into_iter().collect();
            let shown = escape(&text);
            prop_assert!(
                !shown.chars().any(|c| (c.is_control() && c != '\n' && c != '\t')
                    || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{2028}'..='\u{202E}'
                        | '\u{2066}'..='\u{2069}' | '\u{FEFF}')),
                "{:?}",
                shown
            );
            prop_assert_eq!(unescape(&shown), text.as_str());
        }
    }
}
