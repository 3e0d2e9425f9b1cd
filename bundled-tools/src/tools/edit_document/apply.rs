//! Applying edit_document's edits: each edit in one linear pass over the text (find every
//! occurrence, build the result once, move the recorded places once), so `replace_all` costs
//! the length of the text and the number of replacements, never their product.
//!
//! Bounded before anything is built: at most [`max_replacements`] replacements per call, all
//! edits together, and no result longer than [`MAX_RESULT_CHARS`]; either refusal says what the
//! bound is and how to proceed, and nothing is saved.

use std::ops::Range;

use mcp_runtime::output::lines::normalize_line_endings;
use mcp_runtime::prelude::*;

use super::Edit;

/// The most replacements one call makes, all edits together: the process's budget
/// (`serve --max-replacements`, 10,000 by default).
fn max_replacements() -> usize {
    wiki_tool_sdk::budgets::budgets().max_replacements
}

/// The longest document an edit may produce, in characters (write_document's limit too).
pub(super) const MAX_RESULT_CHARS: usize = 1_000_000;

/// The edits' text after applying them, the replacements each made, and where they landed.
#[derive(Debug)]
pub(super) struct Applied {
    pub(super) text: String,
    /// Replacements per edit, in order.
    pub(super) counts: Vec<usize>,
    /// `(edit number, byte range in text)` of every changed place, in text order, pairwise
    /// disjoint: a later edit's replacement that overlaps an earlier place absorbs it.
    pub(super) places: Vec<(usize, Range<usize>)>,
}

/// Applies `edits` in order to `text`, all or nothing.
pub(super) fn apply(text: &str, edits: &[Edit]) -> Result<Applied, ToolError> {
    let mut applied = Applied {
        text: text.to_owned(),
        counts: Vec::with_capacity(edits.len()),
        places: Vec::new(),
    };
    let mut chars = text.chars().count();
    let mut replacements = 0usize;
    let cap = max_replacements();
    for (index, edit) in edits.iter().enumerate() {
        let number = index + 1;
        let old = normalize_line_endings(&edit.old_string);
        let new = normalize_line_endings(&edit.new_string);
        if old.is_empty() {
            return Err(ToolError::new(format!(
                "Edit {number}: old_string is empty. On an existing document every edit must \
                 anchor on text that is there; to append, quote the current last lines and \
                 repeat them with your addition. Nothing was saved."
            ))
            .with_kind(ErrorKind::BadArgument));
        }
        let all = edit.replace_all == Some(true);
        // Never more starts than the call may still replace (one more to know it is too many).
        let room = cap.saturating_sub(replacements);
        let starts: Vec<usize> = applied
            .text
            .match_indices(old.as_ref())
            .map(|(start, _)| start)
            .take(if all { room + 1 } else { 2 })
            .collect();
        match (starts.len(), all) {
            (0, _) => {
                return Err(ToolError::new(format!(
                    "Edit {number}: old_string not found in the document (after the edits before \
                     it). Re-read it with get_document and copy the text exactly, without the \
                     line-number prefix. Nothing was saved."
                ))
                .with_kind(ErrorKind::NotFound));
            }
            (_, false) if starts.len() > 1 => {
                let found = applied.text.matches(old.as_ref()).count();
                return Err(ToolError::new(format!(
                    "Edit {number}: old_string found {found} times. Add surrounding text to make \
                     it unique, or set replace_all=true to replace every occurrence. Nothing was \
                     saved."
                ))
                .with_kind(ErrorKind::BadArgument));
            }
            (found, true) if found > room => {
                return Err(ToolError::new(format!(
                    "Edit {number}: old_string occurs more than {room} more times, and one call \
                     makes at most {cap} replacements (all edits together). Split the \
                     change: make old_string longer so it matches fewer places, or edit part of \
                     the document per call; or replace the whole content with write_document. \
                     Nothing was saved."
                ))
                .with_kind(ErrorKind::Budget));
            }
            _ => {}
        }
        let (old_chars, new_chars) = (old.chars().count(), new.chars().count());
        let result_chars = (chars - starts.len() * old_chars)
            .saturating_add(starts.len().saturating_mul(new_chars));
        if result_chars > MAX_RESULT_CHARS {
            return Err(ToolError::new(format!(
                "Edit {number}: the document would be {result_chars} characters long, more than \
                 the {MAX_RESULT_CHARS} a document holds. Make the replacement smaller or split \
                 the content over several documents. Nothing was saved."
            ))
            .with_kind(ErrorKind::Budget));
        }
        replace_all(&mut applied, number, &starts, old.len(), &new);
        applied.counts.push(starts.len());
        chars = result_chars;
        replacements += starts.len();
    }
    Ok(applied)
}

/// Replaces the `old_len` bytes at each of `starts` (sorted, disjoint) by `new`, in one pass
/// over the text, and moves the recorded places in one pass over them: a place strictly
/// overlapping a replaced range is merged into that replacement's place (numbered `number`),
/// one that only touches it stays its own.
fn replace_all(applied: &mut Applied, number: usize, starts: &[usize], old_len: usize, new: &str) {
    let text = &applied.text;
    let grown = text.len() - starts.len() * old_len + starts.len() * new.len();
    let mut out = String::with_capacity(grown);
    let mut copied = 0;
    for &start in starts {
        out.push_str(&text[copied..start]);
        out.push_str(new);
        copied = start + old_len;
    }
    out.push_str(&text[copied..]);

    let old_places = std::mem::take(&mut applied.places);
    let mut places = Vec::with_capacity(old_places.len() + starts.len());
    let mut old_places = old_places.into_iter().peekable();
    // Bytes added (or removed, negative) by the replacements so far.
    let mut delta: isize = 0;
    let shifted = |at: usize, delta: isize| at.saturating_add_signed(delta);
    let grow = new.len() as isize - old_len as isize;
    let mut next = 0;
    while next < starts.len() {
        let first = starts[next];
        // Places that end before this replacement begins keep their text.
        while let Some((n, place)) = old_places.next_if(|(_, place)| place.end <= first) {
            places.push((n, shifted(place.start, delta)..shifted(place.end, delta)));
        }
        let start_delta = delta;
        let mut start = shifted(first, delta);
        let mut covered = first + old_len;
        let mut place_end = 0;
        delta += grow;
        let mut end = shifted(covered, delta);
        next += 1;
        loop {
            if let Some((_, place)) = old_places.next_if(|(_, place)| place.start < covered) {
                start = start.min(shifted(place.start, start_delta));
                place_end = place_end.max(place.end);
                covered = covered.max(place.end);
                continue;
            }
            if let Some(&start) = starts.get(next).filter(|&&start| start < covered) {
                covered = covered.max(start + old_len);
                delta += grow;
                end = shifted(start + old_len, delta);
                next += 1;
                continue;
            }
            break;
        }
        if place_end > 0 {
            end = end.max(shifted(place_end, delta));
        }
        places.push((number, start..end));
    }
    places.extend(
        old_places.map(|(n, place)| (n, shifted(place.start, delta)..shifted(place.end, delta))),
    );
    applied.text = out;
    applied.places = places;
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn edit(old: &str, new: &str, all: bool) -> Edit {
        Edit {
            old_string: old.to_owned(),
            new_string: new.to_owned(),
            replace_all: Some(all),
        }
    }

    fn refused(result: Result<Applied, ToolError>) -> String {
        result
            .err()
            .map(|error| error.message().to_owned())
            .unwrap_or_default()
    }

    fn ok(result: Result<Applied, ToolError>) -> Applied {
        result.unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn edits_apply_in_order_and_count() {
        let applied = ok(apply(
            "a b a\nline two\n",
            &[edit("a", "x", true), edit("x b x", "done", false)],
        ));
        assert_eq!(applied.text, "done\nline two\n");
        assert_eq!(applied.counts, vec![2, 1]);
    }

    #[test]
    fn failures_name_the_edit() {
        assert!(
            refused(apply(
                "abc",
                &[edit("b", "c", false), edit("zz", "", false)]
            ))
            .starts_with("Edit 2: old_string not found")
        );
        assert!(
            refused(apply("aaa", &[edit("a", "b", false)]))
                .starts_with("Edit 1: old_string found 3 times")
        );
        assert!(
            refused(apply("aa", &[edit("", "b", false)]))
                .starts_with("Edit 1: old_string is empty")
        );
    }

    #[test]
    fn replacements_are_capped_per_call_with_the_way_forward() {
        let cap = max_replacements();
        let text = "x".repeat(cap);
        let at_cap = ok(apply(&text, &[edit("x", "y", true)]));
        assert_eq!(at_cap.counts, vec![cap]);
        let over = format!("{text}x");
        assert_eq!(
            refused(apply(&over, &[edit("x", "y", true)])),
            "Edit 1: old_string occurs more than 10000 more times, and one call makes at most \
             10000 replacements (all edits together). Split the change: make old_string longer \
             so it matches fewer places, or edit part of the document per call; or replace the \
             whole content with write_document. Nothing was saved."
        );
        // The cap counts every edit of the call.
        let both = format!("{}{}", "x".repeat(6_000), "y".repeat(5_000));
        assert!(
            refused(apply(&both, &[edit("x", "X", true), edit("y", "Y", true)]))
                .starts_with("Edit 2: old_string occurs more than 4000 more times")
        );
    }

    #[test]
    fn a_result_past_the_document_limit_is_refused_before_it_is_built() {
        let text = "a".repeat(1_000);
        let refusal = refused(apply(&text, &[edit("a", &"b".repeat(1_001), true)]));
        assert!(
            refusal.starts_with(
                "Edit 1: the document would be 1001000 characters long, more than the 1000000"
            ),
            "{refusal}"
        );
    }

    /// The quadratic algorithm this module replaced: one replacement at a time from the end,
    /// places moved and merged on each. The linear pass must agree with it exactly.
    fn reference_replace(
        applied: &mut Applied,
        number: usize,
        starts: &[usize],
        old: usize,
        new: &str,
    ) {
        for &start in starts.iter().rev() {
            let range = start..start + old;
            let removed = range.len();
            let shift = |at: usize| at - removed + new.len();
            let mut begin = range.start;
            let mut end = range.start + new.len();
            applied.places.retain_mut(|(_, place)| {
                if place.end <= range.start {
                    true
                } else if place.start >= range.end {
                    *place = shift(place.start)..shift(place.end);
                    true
                } else {
                    begin = begin.min(place.start);
                    if place.end > range.end {
                        end = end.max(shift(place.end));
                    }
                    false
                }
            });
            applied.text.replace_range(range, new);
            applied.places.push((number, begin..end));
        }
    }

    /// Places in a canonical order: empty places at one position may come in any order.
    fn sorted(places: &[(usize, Range<usize>)]) -> Vec<(usize, usize, usize)> {
        let mut sorted: Vec<_> = places.iter().map(|(n, p)| (p.start, p.end, *n)).collect();
        sorted.sort_unstable();
        sorted
    }

    #[test]
    fn the_linear_pass_agrees_with_one_replacement_at_a_time() {
        // A small deterministic generator: texts over a tiny alphabet make overlaps common.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |bound: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % bound as u64).unwrap_or(0)
        };
        let alphabet = ['a', 'b', '\n'];
        for _ in 0..2_000 {
            let text: String = (0..next(40)).map(|_| alphabet[next(3)]).collect();
            let mut fast = Applied {
                text: text.clone(),
                counts: Vec::new(),
                places: Vec::new(),
            };
            let mut slow = Applied {
                text,
                counts: Vec::new(),
                places: Vec::new(),
            };
            for number in 1..=4 {
                let old: String = (0..1 + next(3)).map(|_| alphabet[next(3)]).collect();
                let new: String = (0..next(4)).map(|_| alphabet[next(3)]).collect();
                let starts: Vec<usize> = slow.text.match_indices(&old).map(|(s, _)| s).collect();
                if starts.is_empty() {
                    continue;
                }
                replace_all(&mut fast, number, &starts, old.len(), &new);
                reference_replace(&mut slow, number, &starts, old.len(), &new);
                assert_eq!(fast.text, slow.text);
                assert_eq!(
                    sorted(&fast.places),
                    sorted(&slow.places),
                    "text {:?} old {old:?} new {new:?}",
                    slow.text
                );
                assert!(
                    fast.places
                        .windows(2)
                        .all(|pair| pair[0].1.start <= pair[1].1.start),
                    "places in text order"
                );
            }
        }
    }
}
