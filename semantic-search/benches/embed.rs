//! Embedding throughput: chunks per second through the whole pipeline (tokenize, BERT, pooling,
//! normalization) for batch sizes 1, 16 and 32, on chunks as long as the chunker makes them, the
//! case an index rebuild is planned around.
//!
//! The chunks are what the chunker makes of generated English documentation, one section each,
//! each close to the default bound (the bench prints their length in word pieces). Needs the
//! model (`scripts/install-test-model.sh`); without it the bench says it is skipped. Run:
//! `cargo bench -p semantic-search --bench embed`.

#[path = "../tests/support/mod.rs"]
mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use semantic_search::{Chunker, Embedder};

/// Chunks embedded per measured iteration.
const CHUNKS: usize = 32;

/// Deterministic documentation-like prose, chunked as the index will chunk it.
fn chunk_inputs() -> Vec<String> {
    const SUBJECTS: [&str; 6] = [
        "The server",
        "An administrator",
        "Each wiki",
        "The search index",
        "A scheduled job",
        "The editor",
    ];
    const VERBS: [&str; 6] = [
        "keeps a history of",
        "refuses to overwrite",
        "periodically rebuilds",
        "sends a notification about",
        "restores an older version of",
        "checks the access rights on",
    ];
    const OBJECTS: [&str; 6] = [
        "every page that was edited since the last backup",
        "attachments larger than the configured limit",
        "the translations of the home page",
        "spaces that are hidden from guests",
        "the configuration stored in the farm database",
        "links that point to deleted documents",
    ];
    let mut page = String::new();
    for section in 0..CHUNKS {
        page.push_str(&format!("## Topic {section}\n\n"));
        for sentence in 0..7 {
            let k = section * 7 + sentence * 5;
            page.push_str(&format!(
                "{} {} {}, as described in section {k}. ",
                SUBJECTS[k % 6],
                VERBS[(k / 6) % 6],
                OBJECTS[(k / 36 + sentence) % 6]
            ));
        }
        page.push_str("\n\n");
    }
    Chunker::default()
        .chunk("Administration guide", &page)
        .iter()
        .map(|c| c.embedding_input())
        .take(CHUNKS)
        .collect()
}

fn embed(c: &mut Criterion) {
    let Some(model) = support::installed_model("embed bench") else {
        return;
    };
    let inputs = chunk_inputs();
    let texts: Vec<&str> = inputs.iter().map(String::as_str).collect();
    let mut group = c.benchmark_group("embed");
    group.throughput(Throughput::Elements(texts.len() as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for batch in [1, 16, 32] {
        let embedder = match Embedder::load(&model) {
            Ok(embedder) => embedder.with_batch_size(batch),
            Err(e) => panic!("the installed model does not load: {e}"),
        };
        if batch == 1 {
            let tokens: Vec<usize> = texts
                .iter()
                .filter_map(|t| embedder.token_count(t).ok())
                .collect();
            eprintln!(
                "{} chunks, {}..={} word pieces each",
                tokens.len(),
                tokens.iter().min().unwrap_or(&0),
                tokens.iter().max().unwrap_or(&0)
            );
        }
        group.bench_with_input(BenchmarkId::new("batch", batch), &texts, |b, texts| {
            b.iter(|| black_box(embedder.embed(texts)))
        });
    }
    group.finish();
}

criterion_group!(benches, embed);
criterion_main!(benches);
