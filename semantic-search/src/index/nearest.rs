//! Exact nearest-neighbour search: a scan of a wiki's stored vectors by cosine similarity (the
//! vectors are normalized, so a dot product), keeping the best chunk of each row and the best
//! rows in a bounded heap. Each candidate is authorized (`accept`) before it can be counted.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

use wiki_tool_sdk::store::Store;
use wiki_tool_sdk::store::model::locale::Locale;
use wiki_tool_sdk::store::model::vector::ScannedVector;
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::DocumentReference;

use crate::Result;
use crate::index::SemanticIndex;

/// One row found by meaning: its best chunk and that chunk's similarity.
#[derive(Debug, Clone, PartialEq)]
pub struct Nearest {
    /// The document.
    pub reference: DocumentReference,
    /// The row: `None` for the default row.
    pub locale: Option<Locale>,
    /// The row's language.
    pub language: Locale,
    /// The best chunk's passage.
    pub text: String,
    /// Cosine similarity of the query and that chunk, in [-1, 1].
    pub score: f32,
}

/// The `limit` rows of `wiki` whose best chunk is nearest `query`, best first, among the
/// chunks `accept` lets through.
pub fn nearest(
    store: &dyn Store,
    wiki: &WikiId,
    query: &[f32],
    limit: usize,
    accept: &mut dyn FnMut(&ScannedVector) -> bool,
) -> Result<Vec<Nearest>> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    // Best chunk per row; rows are few next to chunks, so this map stays small.
    let mut best: HashMap<(DocumentReference, Option<Locale>), Nearest> = HashMap::new();
    store.scan_vectors(&SemanticIndex::store_index(wiki), &mut |scanned| {
        if scanned.entry.vector.len() != query.len() || !accept(&scanned) {
            return true;
        }
        let score = dot(query, &scanned.entry.vector);
        let key = (scanned.reference.clone(), scanned.locale.clone());
        match best.get_mut(&key) {
            Some(found) if found.score >= score => {}
            Some(found) => {
                found.score = score;
                found.text = scanned.entry.text;
            }
            None => {
                best.insert(
                    key,
                    Nearest {
                        reference: scanned.reference,
                        locale: scanned.locale,
                        language: scanned.language,
                        text: scanned.entry.text,
                        score,
                    },
                );
            }
        }
        true
    })?;
    let mut heap = BinaryHeap::with_capacity(limit + 1);
    for found in best.into_values() {
        heap.push(Ranked(found));
        if heap.len() > limit {
            heap.pop();
        }
    }
    let mut ranked: Vec<Nearest> = heap.into_iter().map(|ranked| ranked.0).collect();
    ranked.sort_by(|a, b| order(b, a));
    Ok(ranked)
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Higher score is better; ties go to the smaller reference, so results are deterministic.
fn order(a: &Nearest, b: &Nearest) -> Ordering {
    a.score
        .total_cmp(&b.score)
        .then_with(|| b.reference.to_string().cmp(&a.reference.to_string()))
        .then_with(|| b.locale.cmp(&a.locale))
}

/// A min-heap entry: the worst kept row is on top, to be dropped first.
struct Ranked(Nearest);

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        order(&self.0, &other.0) == Ordering::Equal
    }
}
impl Eq for Ranked {}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        order(&other.0, &self.0)
    }
}
