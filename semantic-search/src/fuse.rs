//! Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each list gives an item
//! `1 / (k + rank)`, the sums rank the union. It needs no score calibration between a full-text
//! ranking and cosine similarities, which share no scale, and an item high in both lists beats
//! one high in a single list.

use std::collections::HashMap;
use std::hash::Hash;

/// The constant of the original paper: large enough that the top few ranks of one list do not
/// drown the other list.
pub const RRF_K: f64 = 60.0;

/// The union of `lists` (each best first) ranked by reciprocal rank fusion, best first, at most
/// `limit` items; ties keep the order of first appearance.
pub fn reciprocal_rank_fusion<T: Clone + Eq + Hash>(lists: &[Vec<T>], limit: usize) -> Vec<T> {
    let mut scores: HashMap<T, (f64, usize)> = HashMap::new();
    let mut seen = 0;
    for list in lists {
        for (rank, item) in list.iter().enumerate() {
            let entry = scores.entry(item.clone()).or_insert_with(|| {
                seen += 1;
                (0.0, seen)
            });
            entry.0 += 1.0 / (RRF_K + rank as f64 + 1.0);
        }
    }
    let mut fused: Vec<(T, (f64, usize))> = scores.into_iter().collect();
    fused.sort_by(|a, b| b.1.0.total_cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)));
    fused
        .into_iter()
        .take(limit)
        .map(|(item, _)| item)
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
}
