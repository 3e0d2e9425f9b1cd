//! Indexing a step's stale rows together: every row is read and chunked first, then the chunks
//! none of them has a stored vector for are embedded in one call, then each row is stored.
//!
//! Why together: a page makes two or three chunks, so embedding row by row ran BERT on batches
//! of two or three, padded to the longer one, and paid the per-batch overhead of the model for
//! every page. Handed all of a step's chunks at once, the embedder sorts them by length into
//! full batches ([`crate::Embedder::embed`]), each padded only to its own longest member, which
//! is what makes a rebuild's throughput the model's batch throughput.

use std::collections::HashMap;

use wiki_tool_sdk::store::Store;
use wiki_tool_sdk::store::model::document::Document;
use wiki_tool_sdk::store::model::vector::{StaleRow, VectorEntry, VectorIndex, VectorRow};

use super::matrix::Matrices;
use crate::{Chunker, Embedder, Error, Result};

/// One stale row read and chunked: its entries, those in `missing` still without a vector.
struct Pending {
    document: Document,
    entries: Vec<VectorEntry>,
    missing: Vec<usize>,
}

/// What [`index_rows`] did.
pub(super) struct Indexed {
    /// Chunks embedded.
    pub(super) embedded: usize,
    /// Chunks whose stored vector was reused.
    pub(super) reused: usize,
}

/// Indexes `rows` of `index`: re-embeds only chunks whose digest has no stored vector, embeds
/// all of them in one call, stores each row (a row deleted meanwhile is skipped) and records
/// what was stored in `matrices`.
pub(super) fn index_rows(
    store: &dyn Store,
    embedder: &Embedder,
    chunker: &Chunker,
    matrices: &Matrices,
    index: &VectorIndex,
    rows: &[StaleRow],
) -> Result<Indexed> {
    let mut pending = Vec::with_capacity(rows.len());
    for stale in rows {
        if let Some(row) = prepare(store, chunker, index, stale)? {
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
    Ok(Indexed { embedded, reused })
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
    for chunk in chunker.chunk(&document.title, &document.content) {
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
