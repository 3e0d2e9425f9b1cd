//! Just enough of the PDF object syntax to read the dictionaries that lopdf decodes BEFORE any
//! of our checks could see them: the cross-reference streams and trailers on the chain that
//! `startxref` starts (lopdf inflates a cross-reference stream while it reads the file's
//! structure, so a bomb there would go off inside `Document::load_mem`).
//!
//! The grammar follows lopdf's own parser (`lopdf/src/parser/mod.rs`) token for token, so
//! what this reads at an offset is what lopdf reads there: whitespace and `%` comments between
//! tokens, `#xx` escapes in names, nested and escaped literal strings, hexadecimal strings,
//! `N G R` references before numbers, arrays and dictionaries nested at most
//! [`MAX_NESTING`] deep.

/// How deep arrays and dictionaries may nest (lopdf stops at a similar depth).
const MAX_NESTING: usize = 64;

/// A PDF value, as far as the checks need it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// A name, `#xx` escapes decoded, without the `/`.
    Name(Vec<u8>),
    /// An integer.
    Integer(i64),
    /// A dictionary, in file order.
    Dictionary(Vec<(Vec<u8>, Value)>),
    /// An array.
    Array(Vec<Value>),
    /// Anything else (reals, strings, references, booleans, null).
    Other,
}

impl Value {
    /// The value of `key` when this is a dictionary (the last one wins, as in lopdf).
    pub(crate) fn get(&self, key: &[u8]) -> Option<&Value> {
        match self {
            Value::Dictionary(entries) => entries
                .iter()
                .rev()
                .find(|(name, _)| name == key)
                .map(|(_, value)| value),
            _ => None,
        }
    }

    /// The integer, when this is one.
    pub(crate) fn integer(&self) -> Option<i64> {
        match self {
            Value::Integer(value) => Some(*value),
            _ => None,
        }
    }
}

/// A cursor over the file's bytes.
pub(crate) struct Syntax<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Syntax<'a> {
    /// A cursor at `at` in `bytes`.
    pub(crate) fn at(bytes: &'a [u8], at: usize) -> Self {
        Self { bytes, at }
    }

    /// Where the cursor is.
    pub(crate) fn position(&self) -> usize {
        self.at
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.at..).unwrap_or_default()
    }

    /// Skips whitespace and comments (lopdf's `space`).
    pub(crate) fn space(&mut self) {
        while let Some(c) = self.peek() {
            if is_whitespace(c) {
                self.at += 1;
            } else if c == b'%' {
                while self.peek().is_some_and(|c| c != b'\r' && c != b'\n') {
                    self.at += 1;
                }
            } else {
                break;
            }
        }
    }

    /// Consumes `keyword` if the cursor is on it.
    pub(crate) fn keyword(&mut self, keyword: &[u8]) -> bool {
        if self.rest().starts_with(keyword) {
            self.at += keyword.len();
            true
        } else {
            false
        }
    }

    /// Consumes one end of line (CRLF, LF or CR).
    pub(crate) fn eol(&mut self) -> bool {
        self.keyword(b"\r\n") || self.keyword(b"\n") || self.keyword(b"\r")
    }

    /// Consumes spaces and tabs (nom's `space0`).
    pub(crate) fn blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
    }

    /// An unsigned integer.
    pub(crate) fn unsigned(&mut self) -> Option<u64> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        std::str::from_utf8(self.bytes.get(start..self.at)?)
            .ok()?
            .parse()
            .ok()
    }

    /// `N G obj` and the spaces after it.
    pub(crate) fn object_header(&mut self) -> Option<()> {
        self.space();
        self.unsigned()?;
        self.space();
        self.unsigned()?;
        self.space();
        self.keyword(b"obj").then_some(())?;
        self.space();
        Some(())
    }

    /// One direct value and the spaces after it.
    pub(crate) fn value(&mut self) -> Option<Value> {
        self.value_at_depth(MAX_NESTING)
    }

    fn value_at_depth(&mut self, depth: usize) -> Option<Value> {
        let depth = depth.checked_sub(1)?;
        let value = match self.peek()? {
            b'<' if self.rest().starts_with(b"<<") => self.dictionary(depth)?,
            b'<' => {
                self.hex_string()?;
                Value::Other
            }
            b'(' => {
                self.literal_string()?;
                Value::Other
            }
            b'/' => Value::Name(self.name()?),
            b'[' => self.array(depth)?,
            _ if self.keyword(b"null") || self.keyword(b"true") || self.keyword(b"false") => {
                Value::Other
            }
            _ => self.number_or_reference()?,
        };
        self.space();
        Some(value)
    }

    fn dictionary(&mut self, depth: usize) -> Option<Value> {
        self.keyword(b"<<").then_some(())?;
        self.space();
        let mut entries = Vec::new();
        while self.peek() == Some(b'/') {
            let key = self.name()?;
            self.space();
            let value = self.value_at_depth(depth)?;
            entries.push((key, value));
        }
        self.keyword(b">>").then_some(())?;
        Some(Value::Dictionary(entries))
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.keyword(b"[").then_some(())?;
        self.space();
        let mut items = Vec::new();
        while self.peek() != Some(b']') {
            items.push(self.value_at_depth(depth)?);
        }
        self.at += 1;
        Some(Value::Array(items))
    }

    /// `/Name`, with `#xx` escapes decoded.
    fn name(&mut self) -> Option<Vec<u8>> {
        self.keyword(b"/").then_some(())?;
        let mut name = Vec::new();
        while let Some(c) = self.peek() {
            if c == b'#' {
                let hex = self.bytes.get(self.at + 1..self.at + 3)?;
                let decoded = std::str::from_utf8(hex)
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())?;
                name.push(decoded);
                self.at += 3;
            } else if is_regular(c) {
                name.push(c);
                self.at += 1;
            } else {
                break;
            }
        }
        Some(name)
    }

    /// A literal string: balanced parentheses, backslash escapes.
    fn literal_string(&mut self) -> Option<()> {
        self.keyword(b"(").then_some(())?;
        let mut open = 1usize;
        while open > 0 {
            match self.peek()? {
                b'\\' => self.at += 2,
                b'(' => {
                    open += 1;
                    self.at += 1;
                }
                b')' => {
                    open -= 1;
                    self.at += 1;
                }
                _ => self.at += 1,
            }
        }
        Some(())
    }

    /// A hexadecimal string: hex digits and whitespace up to `>`.
    fn hex_string(&mut self) -> Option<()> {
        self.keyword(b"<").then_some(())?;
        loop {
            match self.peek()? {
                b'>' => {
                    self.at += 1;
                    return Some(());
                }
                c if c.is_ascii_hexdigit() || is_whitespace(c) => self.at += 1,
                _ => return None,
            }
        }
    }

    /// `N G R`, an integer, or a real (lopdf tries them in that order).
    fn number_or_reference(&mut self) -> Option<Value> {
        let start = self.at;
        if self.unsigned().is_some() {
            let after_first = self.at;
            self.space();
            if self.unsigned().is_some() {
                self.space();
                if self.keyword(b"R") {
                    return Some(Value::Other);
                }
            }
            self.at = after_first;
        }
        self.at = start;
        if matches!(self.peek(), Some(b'+' | b'-')) {
            self.at += 1;
        }
        let digits = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.at += 1;
            }
            return (self.at > digits + 1).then_some(Value::Other);
        }
        if self.at == digits {
            return None;
        }
        let text = std::str::from_utf8(self.bytes.get(start..self.at)?).ok()?;
        Some(text.parse().map_or(Value::Other, Value::Integer))
    }
}

fn is_whitespace(c: u8) -> bool {
    b" \t\n\r\0\x0C".contains(&c)
}

fn is_regular(c: u8) -> bool {
    !is_whitespace(c) && !b"()<>[]{}/%".contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Option<Value> {
        Syntax::at(text, 0).value()
    }

    #[test]
    fn dictionaries_read_as_lopdf_reads_them() {
        let dict = parse(
            b"<< /Type /XRef /Filter [ /ASCII85Decode /Flate#44ecode ] % a comment\n /S (a (nested) \\) string) \
              /H <4F 6b> /R 12 0 R /N 3 /L -1.5 /D << /Predictor 12 >> >>",
        );
        let Some(dict) = dict else {
            panic!("not parsed");
        };
        assert_eq!(dict.get(b"Type"), Some(&Value::Name(b"XRef".to_vec())));
        assert_eq!(
            dict.get(b"Filter"),
            Some(&Value::Array(vec![
                Value::Name(b"ASCII85Decode".to_vec()),
                Value::Name(b"FlateDecode".to_vec())
            ]))
        );
        assert_eq!(dict.get(b"N").and_then(Value::integer), Some(3));
        assert_eq!(dict.get(b"R"), Some(&Value::Other));
        assert_eq!(
            dict.get(b"D").and_then(|d| d.get(b"Predictor")),
            Some(&Value::Integer(12))
        );
    }

    #[test]
    fn malformed_input_is_none_not_a_panic() {
        for bad in [
            &b"<< /A "[..],
            b"<< /A (unclosed >>",
            b"<< /A <zz> >>",
            b"[[[[",
            b"",
            b"/Bad#Z",
        ] {
            assert_eq!(parse(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
        let deep = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(parse(deep.as_bytes()), None);
    }

    #[test]
    fn object_headers_and_keywords() {
        let text = b"  12 0 obj\n<< /Length 5 >>\nstream\r\nhello";
        let mut syntax = Syntax::at(text, 0);
        assert_eq!(syntax.object_header(), Some(()));
        assert!(syntax.value().is_some());
        assert!(syntax.keyword(b"stream"));
        syntax.blanks();
        assert!(syntax.eol());
        assert_eq!(&text[syntax.position()..], b"hello");
    }
}
