//! The Rust embedder against the reference implementation: the vectors sentence-transformers
//! computed for the same inputs (tests/fixtures/fidelity.json, made by generate_fidelity.py)
//! must come out with cosine similarity >= 0.999, whether the inputs run in one padded batch or
//! one by one, and the tokenizer must read as many word pieces as the reference did.

mod support;

use semantic_search::{Embedder, ModelDir};
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixture {
    max_seq_length: usize,
    inputs: Vec<Input>,
}

#[derive(Deserialize)]
struct Input {
    name: String,
    text: String,
    tokens_read: usize,
    tokens_untruncated: usize,
    embedding: Vec<f32>,
}

const THRESHOLD: f32 = 0.999;

fn fixture() -> Fixture {
    serde_json::from_str(include_str!("fixtures/fidelity.json")).expect("the fixture parses")
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot / (norm(a) * norm(b))
}

fn load(model: &ModelDir) -> Embedder {
    Embedder::load(model).expect("the installed model loads")
}

#[test]
fn the_fixture_covers_what_it_claims() {
    let fixture = fixture();
    assert!(fixture.inputs.len() >= 8);
    assert!(
        fixture
            .inputs
            .iter()
            .any(|i| i.tokens_untruncated > fixture.max_seq_length),
        "one input must be longer than the model's window"
    );
    assert!(fixture.inputs.iter().any(|i| i.text.trim().is_empty()));
    assert!(fixture.inputs.iter().any(|i| !i.text.is_ascii()));
    assert!(fixture.inputs.iter().all(|i| i.embedding.len() == 384));
}

#[test]
fn embeddings_match_sentence_transformers_in_one_batch_and_one_by_one() {
    let Some(model) = support::installed_model("fidelity") else {
        return;
    };
    let fixture = fixture();
    let embedder = load(&model);
    assert_eq!(embedder.dimension(), 384);
    assert_eq!(embedder.max_tokens(), fixture.max_seq_length);

    let texts: Vec<&str> = fixture.inputs.iter().map(|i| i.text.as_str()).collect();
    let batched = embedder.embed(&texts).expect("embeds");
    assert_eq!(batched.len(), texts.len());
    let single = embedder.with_batch_size(1);
    let mut failures = Vec::new();
    for (input, from_batch) in fixture.inputs.iter().zip(&batched) {
        let alone = single.embed(&[input.text.as_str()]).expect("embeds");
        let norm = from_batch.iter().map(|x| x * x).sum::<f32>().sqrt();
        let tokens = single.token_count(&input.text).expect("tokenizes");
        let batch_cos = cosine(from_batch, &input.embedding);
        let alone_cos = cosine(&alone[0], &input.embedding);
        if batch_cos < THRESHOLD
            || alone_cos < THRESHOLD
            || (norm - 1.0).abs() > 1e-4
            || tokens != input.tokens_read
        {
            failures.push(format!(
                "{}: cosine {batch_cos:.6} in a batch, {alone_cos:.6} alone, norm {norm:.6}, \
                 {tokens} word pieces read (reference {})",
                input.name, input.tokens_read
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_embedder_is_shared_across_threads_with_identical_results() {
    let Some(model) = support::installed_model("threads") else {
        return;
    };
    let embedder = load(&model);
    let texts = [
        "How do I install it?",
        "Trash and restore",
        "Rechte und Gruppen",
    ];
    let expected = embedder.embed(&texts).expect("embeds");
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|_| scope.spawn(|| embedder.embed(&texts).expect("embeds")))
            .collect();
        for handle in handles {
            let got = handle.join().expect("the thread finishes");
            for (a, b) in got.iter().zip(&expected) {
                assert!(cosine(a, b) > 0.99999);
            }
        }
    });
}

#[test]
fn no_text_is_no_work_and_a_paraphrase_is_closer_than_an_unrelated_text() {
    let Some(model) = support::installed_model("paraphrase") else {
        return;
    };
    let embedder = load(&model);
    assert!(embedder.embed(&[]).expect("embeds nothing").is_empty());
    let v = embedder
        .embed(&[
            "How do I install the server?",
            "Setting up the server: download it and run the setup script.",
            "The cafeteria serves soup on Fridays.",
        ])
        .expect("embeds");
    assert!(cosine(&v[0], &v[1]) > cosine(&v[0], &v[2]) + 0.2);
}
