//! Packing a section's lines into pieces of bounded size, cutting at the gentlest boundary that
//! keeps the bound: between paragraphs, then between lines, then at a space inside an overlong
//! line, and only inside a word longer than the bound itself.

/// Consecutive text of one section, with the source lines it came from (0-based, inclusive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Piece {
    pub(super) text: String,
    pub(super) first_line: usize,
    pub(super) last_line: usize,
}

/// Builds pieces of at most `max_chars` characters from `lines` (`(line number, text)`).
/// Paragraphs (runs of non-blank lines) are joined with one blank line; lines keep their
/// indentation.
pub(super) fn pack(lines: &[(usize, &str)], max_chars: usize) -> Vec<Piece> {
    let mut packer = Packer {
        max_chars,
        pieces: Vec::new(),
        open: None,
    };
    for paragraph in lines
        .split(|(_, text)| text.trim().is_empty())
        .filter(|p| !p.is_empty())
    {
        let chars: usize = paragraph
            .iter()
            .map(|(_, t)| t.chars().count())
            .sum::<usize>()
            + paragraph.len()
            - 1;
        if chars <= max_chars {
            let text = paragraph
                .iter()
                .map(|(_, t)| *t)
                .collect::<Vec<_>>()
                .join("\n");
            packer.add(
                &text,
                chars,
                "\n\n",
                paragraph[0].0,
                paragraph[paragraph.len() - 1].0,
            );
            continue;
        }
        let mut separator = "\n\n";
        for &(line, text) in paragraph {
            let chars = text.chars().count();
            if chars <= max_chars {
                packer.add(text, chars, separator, line, line);
            } else {
                // Consecutive cuts never fit one piece together (each is as long as the bound
                // allows), so only the first may join the open piece and only the last stays
                // open for the lines after it.
                for (k, cut) in split_line(text, max_chars).into_iter().enumerate() {
                    let joiner = if k == 0 { separator } else { "" };
                    packer.add(cut, cut.chars().count(), joiner, line, line);
                }
            }
            separator = "\n";
        }
    }
    packer.close();
    packer.pieces
}

struct Packer {
    max_chars: usize,
    pieces: Vec<Piece>,
    /// The piece being filled and its length in characters.
    open: Option<(Piece, usize)>,
}

impl Packer {
    /// Appends `text` (`chars` long) to the open piece after `separator` if it fits, else
    /// closes that piece and opens one with `text`.
    fn add(&mut self, text: &str, chars: usize, separator: &str, first: usize, last: usize) {
        if let Some((piece, len)) = self.open.as_mut() {
            let joined = *len + separator.len() + chars;
            if joined <= self.max_chars {
                piece.text.push_str(separator);
                piece.text.push_str(text);
                piece.last_line = last;
                *len = joined;
                return;
            }
            self.close();
        }
        let piece = Piece {
            text: text.to_owned(),
            first_line: first,
            last_line: last,
        };
        self.open = Some((piece, chars));
    }

    fn close(&mut self) {
        if let Some((piece, _)) = self.open.take() {
            self.pieces.push(piece);
        }
    }
}

/// `line` cut into consecutive slices of at most `max_chars` characters, each ending after the
/// last whitespace that keeps it within the bound (a word longer than the bound is cut where
/// the bound falls). The slices concatenate back to `line`.
fn split_line(line: &str, max_chars: usize) -> Vec<&str> {
    let mut cuts = Vec::new();
    let mut rest = line;
    while rest.chars().count() > max_chars {
        // Byte offset just past the max_chars-th character.
        let window_end = rest
            .char_indices()
            .nth(max_chars)
            .map_or(rest.len(), |(i, _)| i);
        let window = &rest[..window_end];
        let cut = window
            .char_indices()
            .filter(|(_, c)| c.is_whitespace())
            .map(|(i, c)| i + c.len_utf8())
            .next_back()
            .unwrap_or(window_end);
        cuts.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    if !rest.is_empty() {
        cuts.push(rest);
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(text: &str) -> Vec<(usize, &str)> {
        text.lines().enumerate().collect()
    }

    #[test]
    fn paragraphs_that_fit_share_a_piece() {
        let pieces = pack(&numbered("one\ntwo\n\n\nthree"), 100);
        assert_eq!(
            pieces,
            [Piece {
                text: "one\ntwo\n\nthree".into(),
                first_line: 0,
                last_line: 4
            }]
        );
    }

    #[test]
    fn a_paragraph_that_does_not_fit_starts_a_new_piece() {
        let pieces = pack(&numbered("aaaa\n\nbbbb\n\ncc"), 10);
        let texts: Vec<&str> = pieces.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["aaaa\n\nbbbb", "cc"]);
        assert_eq!((pieces[1].first_line, pieces[1].last_line), (4, 4));
    }

    #[test]
    fn an_overlong_paragraph_is_cut_between_lines() {
        let pieces = pack(&numbered("  aaaa\n  bbbb\n  cccc"), 13);
        let texts: Vec<&str> = pieces.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["  aaaa\n  bbbb", "  cccc"]);
    }

    #[test]
    fn an_overlong_line_is_cut_at_spaces_and_a_giant_word_where_it_must() {
        assert_eq!(split_line("aa bb cc dd", 6), ["aa bb ", "cc dd"]);
        assert_eq!(split_line("ééééé", 2), ["éé", "éé", "é"]);
        let pieces = pack(&numbered("intro\nxxxxxxxxxx yy\nend"), 8);
        let texts: Vec<&str> = pieces.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["intro", "xxxxxxxx", "xx yy", "end"]);
    }
}
