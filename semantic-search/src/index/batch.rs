//! Indexing a step's stale rows together: rows are read and chunked, the chunks none of them
//! has a stored vector for are embedded a model batch of rows at a time, and each group's rows
//! are stored before the next group is embedded.
//!
//! Why together: a page makes two or three chunks, so embedding row by row ran BERT on batches
//! of two or three, padded to the longer one, and paid the per-batch overhead of the model for
//! every page. Handed a batch's worth of chunks at once, the embedder sorts them by length
//! ([`crate::Embedder::embed`]), so each batch is full and padded only to its own longest
//! member, which is what makes a rebuild's throughput the model's batch throughput. Why no more
//! than a batch at once: between batches the background indexer can stop for a waiting call.
//!
//! Bounded twice, so a step's time is: a page gives at most [`MAX_CHUNKS_PER_PAGE`] chunks (the
//! rest of a longer page is found by keywords only), and a step takes rows only until it has
//! `max_chunks` chunks to embed (at least one row).

use std::collections::HashMap;

use wiki_tool_sdk::store::Store;
use wiki_tool_sdk::store::model::document::Document;
use wiki_tool_sdk::store::model::vector::{StaleRow, VectorEntry, VectorIndex, VectorRow};

use super::matrix::Matrices;
use crate::{Chunker, Embedder, Error, Result};

/// The most chunks one page gives the index: its first ones, about 25,000 characters of text
/// at the default chunk size. Embedding a chunk takes tens of milliseconds, so this bounds what
/// one page costs the indexer (a 990,000-character page would otherwise be 1,200 chunks, and
/// minutes of CPU, re-embedded after every edit that shifts its sections).
pub const MAX_CHUNKS_PER_PAGE: usize = 32;

/// One stale row read and chunked: its entries, those in `missing` still without a vector.
struct Pending {
    document: Document,
    entries: Vec<VectorEntry>,
    missing: Vec<usize>,
}

/// Where [`index_rows`] reads rows and puts their vectors, and what it embeds them with.
pub(super) struct Indexing<'a> {
    pub(super) store: &'a dyn Store,
    pub(super) embedder: &'a Embedder,
    pub(super) chunker: &'a Chunker,
    pub(super) matrices: &'a Matrices,
    pub(super) index: &'a VectorIndex,
}

/// What [`index_rows`] did.
#[derive(Default)]
pub(super) struct Indexed {
    /// Rows handled (stored, or found deleted), from the first of those given.
    pub(super) rows: usize,
    /// Chunks embedded.
    pub(super) embedded: usize,
    /// Chunks whose stored vector was reused.
    pub(super) reused: usize,
}

/// Rows read and chunked whose new chunks are embedded in one call: at most one of the model's
/// batches, unless a single row has more.
#[derive(Default)]
struct Group {
    /// Rows handled, those found deleted included.
    handled: usize,
    pending: Vec<Pending>,
    /// Chunks of `pending` still without a vector.
    missing: usize,
}

/// Indexes the first of `rows` of `index`, as many as make `max_chunks` chunks to embed (at
/// least one row): re-embeds only chunks whose digest has no stored vector, and embeds them one
/// model batch of rows at a time, storing each group's rows before the next (a row deleted
/// meanwhile is skipped) and recording what was stored in `matrices`. Between groups it asks
/// `yield_now`, and stops when it says true: the rows stored so far are handled, the rest stay
/// stale for the next step. That is what lets a call waiting for the indexer's heavy slot wait
/// one batch, not a whole step.
pub(super) fn index_rows(
    indexing: &Indexing<'_>,
    rows: &[StaleRow],
    max_chunks: usize,
    yield_now: &dyn Fn() -> bool,
) -> Result<Indexed> {
    let batch = indexing.embedder.batch_size();
    let mut done = Indexed::default();
    let mut group = Group::default();
    for stale in rows {
        if done.rows + group.handled > 0 && done.embedded + group.missing >= max_chunks {
            break;
        }
        let row = prepare(indexing.store, indexing.chunker, indexing.index, stale)?;
        let missing = row.as_ref().map_or(0, |row| row.missing.len());
        if !group.pending.is_empty() && group.missing + missing > batch {
            store_group(indexing, std::mem::take(&mut group), &mut done)?;
            if yield_now() {
                return Ok(done);
            }
        }
        group.handled += 1;
        if let Some(row) = row {
            group.missing += missing;
            group.pending.push(row);
        }
    }
    store_group(indexing, group, &mut done)?;
    Ok(done)
}

/// Embeds the missing chunks of `group` in one call and stores its rows, counting them in
/// `done`.
fn store_group(indexing: &Indexing<'_>, group: Group, done: &mut Indexed) -> Result<()> {
    let texts: Vec<&str> = group
        .pending
        .iter()
        .flat_map(|row| row.missing.iter().map(|&i| row.entries[i].text.as_str()))
        .collect();
    let embedded = texts.len();
    let mut fresh = indexing.embedder.embed(&texts)?.into_iter();
    for mut row in group.pending {
        for &i in &row.missing {
            row.entries[i].vector = fresh
                .next()
                .ok_or_else(|| Error::Tokenizer("the model returned fewer vectors".into()))?;
        }
        done.reused += row.entries.len() - row.missing.len();
        let stored = VectorRow {
            reference: row.document.reference.clone(),
            locale: row.document.locale.clone(),
            version: row.document.version,
            entries: row.entries,
        };
        if indexing.store.put_vector_row(indexing.index, &stored)? {
            indexing.matrices.store_row(&row.document, &stored.entries);
        }
    }
    done.rows += group.handled;
    done.embedded += embedded;
    Ok(())
}

/// Reads and chunks one row; the stored vectors of unchanged chunks (same digest) are reused.
/// `None` when the row was deleted meanwhile (its vectors went with it).
fn prepare(
    store: &dyn Store,
    chunker: &Chunker,
    index: &VectorIndex,
    stale: &StaleRow,
) -> Result<Option<Pending>> {
    let Some(document) = store.document(&stale.reference, stale.locale.as_ref())? else {
        return Ok(None);
    };
    // A translation read falls back to the default row; only the exact row is this one.
    if document.locale != stale.locale {
        return Ok(None);
    }
    let stored: HashMap<String, Vec<f32>> = store
        .vector_row(index, &stale.reference, stale.locale.as_ref())?
        .map(|row| {
            row.entries
                .into_iter()
                .map(|entry| (entry.digest, entry.vector))
                .collect()
        })
        .unwrap_or_default();
    let mut entries = Vec::new();
    let mut missing = Vec::new();
    let chunks = chunker.chunk(&document.title, &document.content);
    for chunk in chunks.into_iter().take(MAX_CHUNKS_PER_PAGE) {
        let vector = match stored.get(&chunk.digest) {
            Some(vector) => vector.clone(),
            None => {
                missing.push(entries.len());
                Vec::new()
            }
        };
        entries.push(VectorEntry {
            text: chunk.embedding_input(),
            key: chunk.id,
            digest: chunk.digest,
            vector,
        });
    }
    Ok(Some(Pending {
        document,
        entries,
        missing,
    }))
}
