//! The vectors a query scans, in memory: per wiki, one contiguous `f32` matrix of the stored
//! (normalized) chunk vectors, grouped by row, so a query is dot products in a tight loop and
//! nothing is decoded from the store. Reading every vector from the store per query (the exact
//! scan of [`super::nearest`]) costs a blob decode and a passage copy per chunk: at 10,000 pages
//! (30,000 to 50,000 chunks) that is most of a second; the scan here is a few milliseconds.
//!
//! Kept current without a reload: this process's indexing replaces a row's vectors as it stores
//! them ([`Matrices::store_row`]); a save or delete this process's change feed reports marks
//! the document dirty, and the next query of its wiki reloads just those rows from the store.
//! Vectors another process stored (the farm's one indexer is maybe elsewhere) are followed
//! through the store's vector sequence: each matrix keeps the sequence value it is current
//! with and the commit marker it last checked; while the marker stays put (in memory on
//! PostgreSQL, shared memory on SQLite: no query) nothing was written anywhere, and once it
//! moves, one `vector_changes` read names the rows written since, which are reloaded
//! ([`Matrices::follow`], on a query and on the indexer's tick, so within about a second).
//! What the sequence cannot name (rows another process removed: a delete there, a clear) is
//! dropped by a full reload once a matrix is older than [`RELOAD_AFTER`], done by the indexer
//! off the query path; until then such a row is harmless: its passage is read from the store
//! for each result, and a row with none is skipped.
//!
//! Memory: 384 × 4 bytes per chunk (about 1.5 KiB), plus the row table.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use wiki_tool_sdk::store::Store;
use wiki_tool_sdk::store::model::document::Document;
use wiki_tool_sdk::store::model::locale::Locale;
use wiki_tool_sdk::store::model::vector::{ScannedVector, VectorEntry};
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::DocumentReference;

use crate::Result;
use crate::index::SemanticIndex;

/// How old a matrix may get before the indexer reloads it whole (for rows another process
/// removed, which neither an event nor the vector sequence names).
pub(crate) const RELOAD_AFTER: Duration = Duration::from_secs(300);

/// The most rows one [`Matrices::follow`] reloads one by one; more written since the last look
/// (a rebuild elsewhere) and the matrix is reloaded whole, which is cheaper by then.
const FOLLOW_ROWS: usize = 256;

/// Dead chunks tolerated before a matrix is compacted (and at least as many as live ones).
const COMPACT_AFTER: usize = 1024;

/// A row of a wiki, as a query's filter sees it before counting it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowInfo {
    /// The document.
    pub reference: DocumentReference,
    /// The row: `None` for the default row.
    pub locale: Option<Locale>,
    /// The row's language.
    pub language: Locale,
    /// Whether the document is hidden.
    pub hidden: bool,
}

impl RowInfo {
    /// A stored row's description (its language: its locale, else the document's default).
    fn of(document: &Document) -> Self {
        RowInfo {
            reference: document.reference.clone(),
            locale: document.locale.clone(),
            language: document
                .locale
                .clone()
                .unwrap_or_else(|| document.default_locale.clone()),
            hidden: document.hidden,
        }
    }
}

type RowKey = (DocumentReference, Option<Locale>);

struct Row {
    info: RowInfo,
    /// Its chunks in the matrix; empty once the row is dead.
    chunks: Range<usize>,
    /// False once removed or replaced (a newer copy is further on).
    live: bool,
}

/// One wiki's vectors.
pub(crate) struct WikiMatrix {
    dims: usize,
    /// `dims` values per chunk, chunk after chunk, each row's chunks together.
    vectors: Vec<f32>,
    /// The entry key of each chunk (to read its passage back).
    keys: Vec<Box<str>>,
    rows: Vec<Row>,
    by_row: HashMap<RowKey, usize>,
    dead_chunks: usize,
    loaded: Instant,
    /// The vector sequence this matrix is current with: every row written up to it is here.
    seq: u64,
    /// The commit marker read before `seq` was: while it stays, `seq` is still current.
    checked: Option<u64>,
}

/// One ranked row: its best chunk's similarity, the row, and that chunk.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ranked {
    pub(crate) score: f32,
    pub(crate) row: usize,
    pub(crate) chunk: usize,
}

impl WikiMatrix {
    fn empty(dims: usize) -> Self {
        WikiMatrix {
            dims,
            vectors: Vec::new(),
            keys: Vec::new(),
            rows: Vec::new(),
            by_row: HashMap::new(),
            dead_chunks: 0,
            loaded: Instant::now(),
            seq: 0,
            checked: None,
        }
    }

    /// Every stored vector of `wiki` of `dims` values (others are another model's, skipped).
    fn load(store: &dyn Store, wiki: &WikiId, dims: usize) -> Result<Self> {
        // Read before the scan: whatever is written meanwhile is after them, so followed later.
        let checked = store.commit_marker().ok();
        let seq = store.vector_seq()?;
        let mut grouped: HashMap<RowKey, (RowInfo, Vec<VectorEntry>)> = HashMap::new();
        store.scan_vectors(
            &SemanticIndex::store_index(wiki),
            &mut |scanned: ScannedVector| {
                if scanned.entry.vector.len() == dims {
                    let key = (scanned.reference.clone(), scanned.locale.clone());
                    grouped
                        .entry(key)
                        .or_insert_with(|| {
                            let info = RowInfo {
                                reference: scanned.reference,
                                locale: scanned.locale,
                                language: scanned.language,
                                hidden: scanned.hidden,
                            };
                            (info, Vec::new())
                        })
                        .1
                        .push(scanned.entry);
                }
                true
            },
        )?;
        let mut matrix = WikiMatrix::empty(dims);
        let chunks: usize = grouped.values().map(|(_, entries)| entries.len()).sum();
        matrix.vectors.reserve_exact(chunks * dims);
        matrix.keys.reserve_exact(chunks);
        for (info, entries) in grouped.into_values() {
            matrix.push(info, &entries);
        }
        matrix.seq = seq;
        matrix.checked = checked;
        Ok(matrix)
    }

    /// Appends a row (the caller has removed any older copy of it).
    fn push(&mut self, info: RowInfo, entries: &[VectorEntry]) {
        let start = self.keys.len();
        for entry in entries.iter().filter(|e| e.vector.len() == self.dims) {
            self.vectors.extend_from_slice(&entry.vector);
            self.keys.push(entry.key.as_str().into());
        }
        let key = (info.reference.clone(), info.locale.clone());
        self.by_row.insert(key, self.rows.len());
        self.rows.push(Row {
            info,
            chunks: start..self.keys.len(),
            live: true,
        });
    }

    /// Removes a row, if present.
    fn remove(&mut self, reference: &DocumentReference, locale: Option<&Locale>) {
        if let Some(at) = self.by_row.remove(&(reference.clone(), locale.cloned())) {
            let row = &mut self.rows[at];
            row.live = false;
            self.dead_chunks += std::mem::take(&mut row.chunks).len();
        }
    }

    /// Replaces a row's vectors (or adds the row).
    fn replace(&mut self, info: RowInfo, entries: &[VectorEntry]) {
        self.remove(&info.reference, info.locale.as_ref());
        self.push(info, entries);
        self.compact_if_worth_it();
    }

    /// The rows of `reference` held now (every locale).
    fn rows_of(&self, reference: &DocumentReference) -> Vec<Option<Locale>> {
        self.by_row
            .keys()
            .filter(|(held, _)| held == reference)
            .map(|(_, locale)| locale.clone())
            .collect()
    }

    /// Drops dead chunks once they outnumber the live ones (and [`COMPACT_AFTER`]).
    fn compact_if_worth_it(&mut self) {
        let live = self.keys.len() - self.dead_chunks;
        if self.dead_chunks < COMPACT_AFTER || self.dead_chunks < live {
            return;
        }
        let mut vectors = Vec::with_capacity(live * self.dims);
        let mut keys = Vec::with_capacity(live);
        let mut rows = Vec::with_capacity(self.by_row.len());
        let mut by_row = HashMap::with_capacity(self.by_row.len());
        for row in std::mem::take(&mut self.rows) {
            if !row.live {
                continue;
            }
            let start = keys.len();
            let values = row.chunks.start * self.dims..row.chunks.end * self.dims;
            vectors.extend_from_slice(&self.vectors[values]);
            keys.extend(self.keys[row.chunks.clone()].iter().cloned());
            by_row.insert(key_of(&row.info), rows.len());
            rows.push(Row {
                info: row.info,
                chunks: start..keys.len(),
                live: true,
            });
        }
        self.vectors = vectors;
        self.keys = keys;
        self.rows = rows;
        self.by_row = by_row;
        self.dead_chunks = 0;
    }

    /// Every live row with its best chunk for `query`, best first (ties: smaller reference),
    /// as an iterator that sorts only as far as it is read: a query reads the first few rows
    /// (those its filter accepts until it has enough), so ordering all 10,000 would be waste.
    pub(crate) fn rank(&self, query: &[f32]) -> Ranking<'_> {
        let mut scores = Vec::with_capacity(self.by_row.len());
        if query.len() == self.dims {
            for (row_at, row) in self.rows.iter().enumerate() {
                let mut best: Option<(f32, usize)> = None;
                for chunk in row.chunks.clone() {
                    let vector = &self.vectors[chunk * self.dims..(chunk + 1) * self.dims];
                    let score = dot(query, vector);
                    if best.is_none_or(|(top, _)| score > top) {
                        best = Some((score, chunk));
                    }
                }
                if let Some((score, chunk)) = best {
                    scores.push(Ranked {
                        score,
                        row: row_at,
                        chunk,
                    });
                }
            }
        }
        Ranking {
            matrix: self,
            scores,
            sorted: 0,
            next: 0,
        }
    }

    /// A row's description.
    pub(crate) fn info(&self, row: usize) -> &RowInfo {
        &self.rows[row].info
    }

    /// A chunk's entry key.
    pub(crate) fn key(&self, chunk: usize) -> &str {
        &self.keys[chunk]
    }

    /// Live chunks.
    pub(crate) fn chunks(&self) -> usize {
        self.keys.len() - self.dead_chunks
    }
}

/// Rows best first, sorted a window at a time (see [`WikiMatrix::rank`]).
pub(crate) struct Ranking<'a> {
    matrix: &'a WikiMatrix,
    scores: Vec<Ranked>,
    /// `scores[..sorted]` are the best, in order.
    sorted: usize,
    next: usize,
}

/// Rows put in order by the first window of a ranking; each further window is twice as large.
const FIRST_WINDOW: usize = 64;

impl Ranking<'_> {
    /// Better first: higher score, then the smaller (reference, locale).
    fn order(&self, a: &Ranked, b: &Ranked) -> std::cmp::Ordering {
        b.score.total_cmp(&a.score).then_with(|| {
            let (a, b) = (&self.matrix.rows[a.row].info, &self.matrix.rows[b.row].info);
            (&a.reference, &a.locale).cmp(&(&b.reference, &b.locale))
        })
    }

    /// Puts the next window of rows in order: the best of the rest selected, then sorted.
    fn sort_next_window(&mut self) {
        let window = FIRST_WINDOW
            .max(self.sorted)
            .min(self.scores.len() - self.sorted);
        let mut rest = std::mem::take(&mut self.scores);
        let tail = &mut rest[self.sorted..];
        if window < tail.len() {
            tail.select_nth_unstable_by(window - 1, |a, b| self.order(a, b));
        }
        tail[..window].sort_unstable_by(|a, b| self.order(a, b));
        self.scores = rest;
        self.sorted += window;
    }
}

impl Iterator for Ranking<'_> {
    type Item = Ranked;

    fn next(&mut self) -> Option<Ranked> {
        if self.next == self.scores.len() {
            return None;
        }
        if self.next == self.sorted {
            self.sort_next_window();
        }
        let ranked = self.scores[self.next];
        self.next += 1;
        Some(ranked)
    }
}

fn key_of(info: &RowInfo) -> RowKey {
    (info.reference.clone(), info.locale.clone())
}

/// The dot product, written so the compiler vectorizes it (eight independent sums).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0f32; 8];
    let (a_chunks, b_chunks) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a_chunks
        .remainder()
        .iter()
        .zip(b_chunks.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a_chunks.zip(b_chunks) {
        for lane in 0..8 {
            sums[lane] += x[lane] * y[lane];
        }
    }
    sums.iter().sum::<f32>() + tail
}

/// The matrices of every wiki queried so far, and the documents to reload before the next
/// query of their wiki.
#[derive(Default)]
pub(crate) struct Matrices {
    wikis: Mutex<HashMap<WikiId, Arc<RwLock<WikiMatrix>>>>,
    dirty: Mutex<HashMap<WikiId, HashSet<DocumentReference>>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Matrices {
    /// Marks a document of `wiki` to be reloaded before the next query (a change event).
    pub(crate) fn mark_dirty(&self, wiki: &WikiId, reference: &DocumentReference) {
        if lock(&self.wikis).contains_key(wiki) {
            lock(&self.dirty)
                .entry(wiki.clone())
                .or_default()
                .insert(reference.clone());
        }
    }

    /// Live chunks held for `wiki`.
    pub(crate) fn chunks(&self, wiki: &WikiId) -> usize {
        lock(&self.wikis).get(wiki).map_or(0, |matrix| {
            matrix
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .chunks()
        })
    }

    /// Forgets a wiki (deleted).
    pub(crate) fn forget(&self, wiki: &WikiId) {
        lock(&self.wikis).remove(wiki);
        lock(&self.dirty).remove(wiki);
    }

    /// Records the vectors this process just stored for a row, if its wiki is loaded.
    pub(crate) fn store_row(&self, document: &Document, entries: &[VectorEntry]) {
        let wiki = document.reference.wiki();
        let Some(matrix) = lock(&self.wikis).get(wiki).cloned() else {
            return;
        };
        let info = RowInfo::of(document);
        matrix
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .replace(info, entries);
    }

    /// `wiki`'s matrix, current with every event seen: loaded on first use, its dirty
    /// documents reloaded from the store.
    pub(crate) fn current(
        &self,
        store: &dyn Store,
        wiki: &WikiId,
        dims: usize,
    ) -> Result<Arc<RwLock<WikiMatrix>>> {
        let held = lock(&self.wikis).get(wiki).cloned();
        let matrix = match held {
            Some(matrix) => matrix,
            None => {
                // Held write-locked while it loads: a concurrent query waits for it rather than
                // scanning an empty matrix. Events from the insertion on are kept as dirty; the
                // load sees every earlier write.
                let matrix = Arc::new(RwLock::new(WikiMatrix::empty(dims)));
                let mut loading = matrix
                    .write()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                lock(&self.wikis).insert(wiki.clone(), Arc::clone(&matrix));
                lock(&self.dirty).remove(wiki);
                match WikiMatrix::load(store, wiki, dims) {
                    Ok(loaded) => *loading = loaded,
                    Err(error) => {
                        lock(&self.wikis).remove(wiki);
                        return Err(error);
                    }
                }
                drop(loading);
                matrix
            }
        };
        let dirty = lock(&self.dirty).remove(wiki).unwrap_or_default();
        for reference in dirty {
            self.reload_document(store, &matrix, &reference)?;
        }
        self.follow_matrix(store, wiki, &matrix, dims)?;
        Ok(matrix)
    }

    /// Brings every loaded matrix up to the vectors any process stored (the indexer's tick).
    pub(crate) fn follow(&self, store: &dyn Store, dims: usize) -> Result<()> {
        let loaded: Vec<(WikiId, Arc<RwLock<WikiMatrix>>)> = lock(&self.wikis)
            .iter()
            .map(|(wiki, matrix)| (wiki.clone(), Arc::clone(matrix)))
            .collect();
        for (wiki, matrix) in loaded {
            self.follow_matrix(store, &wiki, &matrix, dims)?;
        }
        Ok(())
    }

    /// Reloads the rows of `wiki` written since its matrix's sequence value, unless the commit
    /// marker says nothing was committed since the last look (then no query at all).
    fn follow_matrix(
        &self,
        store: &dyn Store,
        wiki: &WikiId,
        matrix: &RwLock<WikiMatrix>,
        dims: usize,
    ) -> Result<()> {
        // Read first: whatever commits after it moves the marker again.
        let marker = store.commit_marker().ok();
        let (checked, since) = {
            let held = matrix
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            (held.checked, held.seq)
        };
        if marker.is_some() && checked == marker {
            return Ok(());
        }
        let changes =
            store.vector_changes(&SemanticIndex::store_index(wiki), since, FOLLOW_ROWS)?;
        if changes.more {
            let loaded = WikiMatrix::load(store, wiki, dims)?;
            *matrix
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = loaded;
            return Ok(());
        }
        let mut references: Vec<DocumentReference> =
            changes.rows.into_iter().map(|row| row.reference).collect();
        references.sort();
        references.dedup();
        for reference in references {
            self.reload_document(store, matrix, &reference)?;
        }
        let mut held = matrix
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Another follow may have gone further meanwhile: never step back.
        if changes.seq >= held.seq {
            held.seq = changes.seq;
            held.checked = marker;
        }
        Ok(())
    }

    /// Reloads every loaded matrix older than [`RELOAD_AFTER`] (the indexer calls this).
    pub(crate) fn reload_old(&self, store: &dyn Store, dims: usize) -> Result<()> {
        let old: Vec<(WikiId, Arc<RwLock<WikiMatrix>>)> = lock(&self.wikis)
            .iter()
            .filter(|(_, matrix)| {
                matrix
                    .read()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .loaded
                    .elapsed()
                    >= RELOAD_AFTER
            })
            .map(|(wiki, matrix)| (wiki.clone(), Arc::clone(matrix)))
            .collect();
        for (wiki, matrix) in old {
            let loaded = WikiMatrix::load(store, &wiki, dims)?;
            *matrix
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = loaded;
        }
        Ok(())
    }

    /// Reloads the rows of one document: those held, and whichever the store has now.
    fn reload_document(
        &self,
        store: &dyn Store,
        matrix: &RwLock<WikiMatrix>,
        reference: &DocumentReference,
    ) -> Result<()> {
        let index = SemanticIndex::store_index(reference.wiki());
        let mut locales = matrix
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .rows_of(reference);
        if let Some(document) = store.document(reference, None)? {
            locales.push(None);
            locales.extend(document.translations.iter().cloned().map(Some));
        }
        locales.sort();
        locales.dedup();
        for locale in locales {
            let document = store.document(reference, locale.as_ref())?;
            // A translation read falls back to the default row: only an exact row counts.
            let row = match document {
                Some(document) if document.locale == locale => store
                    .vector_row(&index, reference, locale.as_ref())?
                    .map(|row| (document, row)),
                _ => None,
            };
            let mut matrix = matrix
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match row {
                Some((document, row)) => matrix.replace(RowInfo::of(&document), &row.entries),
                None => matrix.remove(reference, locale.as_ref()),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A matrix of `rows` rows of two 2-d chunks each, with scores that tie in places.
    fn matrix(rows: usize) -> WikiMatrix {
        let mut matrix = WikiMatrix::empty(2);
        for i in 0..rows {
            let reference = DocumentReference::parse(&format!("Space.Page{i:04}"), &WikiId::main())
                .unwrap_or_else(|e| panic!("a page name: {e}"));
            let info = RowInfo {
                reference,
                locale: None,
                language: Locale::english(),
                hidden: false,
            };
            let angle = ((i * 37) % 101) as f32 / 17.0;
            let entry = |key: &str, a: f32| VectorEntry {
                key: key.into(),
                digest: key.into(),
                text: String::new(),
                vector: vec![a.cos(), a.sin()],
            };
            matrix.push(info, &[entry("a", angle), entry("b", angle * 0.5)]);
        }
        matrix
    }

    #[test]
    fn the_windowed_ranking_is_the_full_sort_of_every_row() {
        for rows in [0, 1, 63, 64, 65, 200, 1000] {
            let matrix = matrix(rows);
            let query = [0.6f32, 0.8];
            let ranked: Vec<(usize, usize)> =
                matrix.rank(&query).map(|r| (r.row, r.chunk)).collect();
            let mut expected: Vec<(f32, usize, usize)> = (0..rows)
                .map(|row| {
                    let chunks = matrix.rows[row].chunks.clone();
                    let (score, chunk) = chunks
                        .map(|c| (dot(&query, &matrix.vectors[c * 2..c * 2 + 2]), c))
                        .fold(
                            (f32::MIN, 0),
                            |best, next| if next.0 > best.0 { next } else { best },
                        );
                    (score, row, chunk)
                })
                .collect();
            expected.sort_by(|a, b| {
                b.0.total_cmp(&a.0).then_with(|| {
                    matrix.rows[a.1]
                        .info
                        .reference
                        .cmp(&matrix.rows[b.1].info.reference)
                })
            });
            let expected: Vec<(usize, usize)> = expected.iter().map(|e| (e.1, e.2)).collect();
            assert_eq!(ranked, expected, "{rows} rows");
        }
    }

    #[test]
    fn a_query_of_another_width_ranks_nothing() {
        assert_eq!(matrix(10).rank(&[1.0, 0.0, 0.0]).count(), 0);
    }
}
