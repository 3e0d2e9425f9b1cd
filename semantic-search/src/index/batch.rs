//! Indexing a step's stale rows together: every row is read and chunked first, then the chunks
//! none of them has a stored vector for are embedded in one call, then each row is stored.
//!
//! Why together: a page makes two or three chunks, so embedding row by row ran BERT on batches
//! of two or three, padded to the longer one, and paid the per-batch overhead of the model for
//! every page. Handed all of a step's chunks at once, the embedder sorts them by length into
//! full batches ([`crate::Embedder::embed`]), each padded only to its own longest member, which
//! is what makes a rebuild's throughput the model's batch throughput.
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

/// What [`index_rows`] did.
pub(super) struct Indexed {
    /// Rows handled (stored, or found deleted), from the first of those given.
    pub(super) rows: usize,
    /// Chunks embedded.
    pub(super) embedded: usize,
    /// Chunks whose stored vector was reused.
    pub(super) reused: usize,
}

/// Indexes the first of `rows` of `index`, as many as make `max_chunks` chunks to embed (at
/// least one row): re-embeds only chunks whose digest has no stored vector, embeds all of them
/// in one call, stores each row (a row deleted meanwhile is skipped) and records what was stored
/// in `matrices`.
pub(super) fn index_rows(
    store: &dyn Store,
    embedder: &Embedder,
    chunker: &Chunker,
    matrices: &Matrices,
    index: &VectorIndex,
    rows: &[StaleRow],
    max_chunks: usize,
) -> Result<Indexed> {
    let mut pending = Vec::with_capacity(rows.len());
    let mut missing = 0;
    let mut handled = 0;
    for stale in rows {
        if handled > 0 && missing >= max_chunks {
            break;
        }
        handled += 1;
        if let Some(row) = prepare(store, chunker, index, stale)? {
            missing += row.missing.len();
            pending.push(row);
        }
    }
    let texts: Vec<&str> = pending
        .iter()
        .flat_map(|row| row.missing.iter().map(|&i| row.entries[i].text.as_str()))
        .collect();
    let embedded = texts.len();
    let mut fresh = embedder.embed(&texts)?.into_iter();
    let mut reused = 0;
    for mut row in pending {
        for &i in &row.missing {
            row.entries[i].vector = fresh
                .next()
                .ok_or_else(|| Error::Tokenizer("the model returned fewer vectors".into()))?;
        }
        reused += row.entries.len() - row.missing.len();
        let stored = VectorRow {
            reference: row.document.reference.clone(),
            locale: row.document.locale.clone(),
            version: row.document.version,
            entries: row.entries,
        };
        if store.put_vector_row(index, &stored)? {
            matrices.store_row(&row.document, &stored.entries);
        }
    }
    Ok(Indexed {
        rows: handled,
        embedded,
        reused,
    })
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
