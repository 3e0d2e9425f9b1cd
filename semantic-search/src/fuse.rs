//! Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each list gives an item
//! `1 / (k + rank)`, the sums rank the union. It needs no score calibration between a full-text
//! ranking and cosine similarities, which share no scale, and an item high in both lists beats
//! one high in a single list.

use std::collections::HashMap;
use std::hash::Hash;

/// The constant of the original paper: large enough that the top few ranks of one list do not
/// drown the other list.
pub const RRF_K: f64 = 60.0;

/// The weight `search_collections` gives its keyword list against the semantic list's 1.0. Its
/// rows alone then score as the semantic row about seven ranks lower (`0.9 / (60 + 1)` is
/// `1 / (60 + 7.8)`): an exact term the model does not know still reaches the fused top ten,
/// but a row that shares one word with a question no longer pushes the semantic list's top
/// rows out of the first five. Chosen on the labelled bench (`tests/benches/semantic`): at 1.0
/// the fused recall@5 was one question below the semantic list's, from 0.9 down equal to it.
pub const KEYWORD_WEIGHT: f64 = 0.9;

/// The union of `lists` (each best first) ranked by reciprocal rank fusion, best first, at most
/// `limit` items; ties keep the order of first appearance.
pub fn reciprocal_rank_fusion<T: Clone + Eq + Hash>(lists: &[Vec<T>], limit: usize) -> Vec<T> {
    let weighted: Vec<(f64, &[T])> = lists.iter().map(|list| (1.0, list.as_slice())).collect();
    weighted_reciprocal_rank_fusion(&weighted, limit)
}

/// [`reciprocal_rank_fusion`] with a weight per list: an item gets `weight / (k + rank)` from
/// each list it is in. A list known to be weaker evidence (keywords that share a single word
/// with a question) weighs less, so its items alone rank after the stronger list's first ones
/// while still lifting the items both lists hold.
pub fn weighted_reciprocal_rank_fusion<T: Clone + Eq + Hash>(
    lists: &[(f64, &[T])],
    limit: usize,
) -> Vec<T> {
    scored_fusion(lists, limit)
        .into_iter()
        .map(|fused| fused.item)
        .collect()
}

/// An item of a fused ranking with its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused<T> {
    /// The item.
    pub item: T,
    /// Its fused score over the most any item could get, in (0, 1]: 1 is first in every list
    /// that holds something. An item high in both lists scores near 1, one found by a single
    /// list at most that list's share of the weights.
    pub score: f64,
}

/// [`weighted_reciprocal_rank_fusion`] with each item's [`Fused::score`].
pub fn scored_fusion<T: Clone + Eq + Hash>(lists: &[(f64, &[T])], limit: usize) -> Vec<Fused<T>> {
    let mut scores: HashMap<T, (f64, usize)> = HashMap::new();
    let mut seen = 0;
    for (weight, list) in lists {
        for (rank, item) in list.iter().enumerate() {
            let entry = scores.entry(item.clone()).or_insert_with(|| {
                seen += 1;
                (0.0, seen)
            });
            entry.0 += weight / (RRF_K + rank as f64 + 1.0);
        }
    }
    let best: f64 = lists
        .iter()
        .filter(|(_, list)| !list.is_empty())
        .map(|(weight, _)| weight / (RRF_K + 1.0))
        .sum();
    let mut fused: Vec<(T, (f64, usize))> = scores.into_iter().collect();
    fused.sort_by(|a, b| b.1.0.total_cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)));
    fused
        .into_iter()
        .take(limit)
        .map(|(item, (score, _))| Fused {
            item,
            score: if best > 0.0 { score / best } else { 0.0 },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_in_both_lists_beats_items_in_one() {
        let keyword = vec!["a", "b", "c"];
        let semantic = vec!["d", "c", "e"];
        let fused = reciprocal_rank_fusion(&[keyword, semantic], 10);
        assert_eq!(fused[0], "c", "{fused:?}");
        assert_eq!(fused.len(), 5);
        assert_eq!(
            &fused[1..3],
            ["a", "d"],
            "equal ranks keep first appearance"
        );
        assert_eq!(reciprocal_rank_fusion(&[vec![1, 2, 3]], 2), [1, 2]);
        assert!(reciprocal_rank_fusion::<u8>(&[vec![], vec![]], 5).is_empty());
    }

    #[test]
    fn a_lighter_list_lifts_shared_items_but_its_own_rank_after_the_first_ones() {
        let semantic = ["s1", "s2", "s3", "s4", "s5", "both"];
        let keyword = ["k1", "both"];
        let fused = weighted_reciprocal_rank_fusion(
            &[
                (1.0, semantic.as_slice()),
                (KEYWORD_WEIGHT, keyword.as_slice()),
            ],
            10,
        );
        assert_eq!(fused[0], "both", "in both lists: {fused:?}");
        let at = |item| fused.iter().position(|f| *f == item);
        assert!(at("k1") > at("s5"), "{fused:?}");
        assert_eq!(fused.len(), 7);
    }

    #[test]
    fn scores_are_shares_of_first_in_every_list_that_holds_something() {
        let semantic = ["both", "s"];
        let keyword = ["k", "both"];
        let lists = [(1.0, semantic.as_slice()), (0.5, keyword.as_slice())];
        let fused = scored_fusion(&lists, 10);
        let near = |item, expected: f64| {
            let found = fused.iter().find(|f| f.item == item).map(|f| f.score);
            assert!(
                found.is_some_and(|score| (score - expected).abs() < 1e-12),
                "{item}: {found:?}, expected {expected}"
            );
        };
        let best = 1.5 / 61.0;
        near("both", (1.0 / 61.0 + 0.5 / 62.0) / best);
        near("k", 0.5 / 61.0 / best);
        near("s", 1.0 / 62.0 / best);
        // First in every list that holds something: 1; an empty list does not count.
        let alone = scored_fusion(&[(1.0, ["a", "b"].as_slice()), (0.5, [].as_slice())], 1);
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[0].item, "a");
        assert!((alone[0].score - 1.0).abs() < 1e-12, "{alone:?}");
        assert!(scored_fusion::<u8>(&[], 3).is_empty());
    }
}
