//! The embedding model, run locally: tokenize, BERT, mean pooling, L2 normalization.
//!
//! This is sentence-transformers' pipeline for all-MiniLM-L6-v2, reproduced in Rust on candle's
//! CPU backend with the model's own `tokenizer.json`: no Python, no network, no GPU. The
//! fidelity test (`tests/fidelity.rs`) holds it to the reference implementation's vectors.

mod config;
mod pooling;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::BertModel;
use tokenizers::{Encoding, Tokenizer, TruncationDirection, TruncationParams, TruncationStrategy};

use crate::error::{Error, Result};
use crate::model_dir::ModelDir;
use crate::package::names;
use config::PipelineConfig;

/// Texts run through BERT together unless [`Embedder::with_batch_size`] says otherwise.
pub const DEFAULT_BATCH_SIZE: usize = 32;

/// The largest batch accepted: attention costs `batch × 12 heads × 256² × 4 bytes`, about
/// 200 MB at 64, which bounds the memory one call can take.
pub const MAX_BATCH_SIZE: usize = 64;

/// Characters of one text handed to the tokenizer. The model reads at most 254 word pieces of
/// a text and a word piece covers at most 100 characters of a word, so only a text made almost
/// entirely of whitespace could have a word piece the model reads past this point; the cap
/// bounds the tokenizer's work on a huge input without changing any real text's embedding.
pub const MAX_INPUT_CHARS: usize = 32 * 1024;

/// A sentence embedding model, loaded once and shared.
///
/// `embed` is CPU-heavy (tens of milliseconds per text on two cores, much of it in parallel
/// matrix products): never call it on an async worker thread. Run it in
/// `tokio::task::spawn_blocking` or a thread of its own. The type is `Send + Sync`, and calls
/// from several threads are safe; they compete for the same cores.
pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
    device: Device,
    dimension: usize,
    max_tokens: usize,
    batch_size: usize,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("dimension", &self.dimension)
            .field("max_tokens", &self.max_tokens)
            .field("batch_size", &self.batch_size)
            .finish_non_exhaustive()
    }
}

impl Embedder {
    /// Loads the model from a verified directory: reads the pipeline's configuration (refusing
    /// what is not Transformer + mean Pooling + Normalize), the tokenizer and the weights
    /// (about 90 MB, read into memory). Takes a few hundred milliseconds.
    pub fn load(model: &ModelDir) -> Result<Embedder> {
        let config = PipelineConfig::read(model)?;
        let mut tokenizer = Tokenizer::from_file(model.file(names::TOKENIZER))
            .map_err(|e| Error::Tokenizer(format!("loading {}: {e}", names::TOKENIZER)))?;
        // sentence-transformers truncates at the model's max_seq_length and pads per batch; the
        // tokenizer.json ships other settings (128, fixed padding), which it overrides, and so
        // do we. Padding is done here per sorted batch.
        tokenizer
            .with_truncation(Some(TruncationParams {
                direction: TruncationDirection::Right,
                max_length: config.max_seq_length,
                strategy: TruncationStrategy::LongestFirst,
                stride: 0,
            }))
            .map_err(|e| Error::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(None);

        let device = Device::Cpu;
        let weights_path = model.file(names::WEIGHTS);
        // Read, not mapped: mapping needs `unsafe`, and a file changed under a live mapping is
        // undefined behaviour; 90 MB read once is cheap.
        let weights =
            std::fs::read(&weights_path).map_err(|e| Error::io("read", &weights_path, e))?;
        let vars = VarBuilder::from_buffered_safetensors(weights, DType::F32, &device)?;
        let bert = BertModel::load(vars, &config.bert)?;
        Ok(Embedder {
            model: bert,
            tokenizer,
            device,
            dimension: config.dimension,
            max_tokens: config.max_seq_length,
            batch_size: DEFAULT_BATCH_SIZE,
        })
    }

    /// Runs `size` texts through BERT at once (clamped to `1..=MAX_BATCH_SIZE`). Larger
    /// batches use the cores better; see `benches/embed.rs`.
    pub fn with_batch_size(mut self, size: usize) -> Embedder {
        self.batch_size = size.clamp(1, MAX_BATCH_SIZE);
        self
    }

    /// How many texts run through BERT at once.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// The width of every embedding (384).
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// The most word pieces of a text the model reads, `[CLS]` and `[SEP]` included (256);
    /// the rest of a longer text does not affect its embedding.
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// The number of word pieces the model reads of `text` (at most [`Embedder::max_tokens`]).
    pub fn token_count(&self, text: &str) -> Result<usize> {
        Ok(self.encode(&[text])?.first().map_or(0, Encoding::len))
    }

    /// One unit-length embedding per text, in order. Texts are sorted by length into batches so
    /// that each batch pads to little more than its longest text; the results come back in the
    /// caller's order. CPU-heavy: see the type's documentation.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let encodings = self.encode(texts)?;
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| encodings[i].len());
        let mut embeddings = vec![Vec::new(); encodings.len()];
        for batch in order.chunks(self.batch_size) {
            let rows = self.run_batch(batch.iter().map(|&i| &encodings[i]))?;
            for (&i, row) in batch.iter().zip(rows) {
                embeddings[i] = row;
            }
        }
        Ok(embeddings)
    }

    fn encode(&self, texts: &[&str]) -> Result<Vec<Encoding>> {
        let capped: Vec<&str> = texts
            .iter()
            .map(|t| cap_chars(t, MAX_INPUT_CHARS))
            .collect();
        self.tokenizer
            .encode_batch_fast(capped, true)
            .map_err(|e| Error::Tokenizer(e.to_string()))
    }

    /// BERT, pooling and normalization over one batch, padded to its longest member.
    fn run_batch<'a>(
        &self,
        batch: impl ExactSizeIterator<Item = &'a Encoding> + Clone,
    ) -> Result<Vec<Vec<f32>>> {
        let rows = batch.len();
        let width = batch.clone().map(Encoding::len).max().unwrap_or(0);
        let mut ids = Vec::with_capacity(rows * width);
        let mut mask = Vec::with_capacity(rows * width);
        for encoding in batch {
            let padding = width - encoding.len();
            ids.extend_from_slice(encoding.get_ids());
            ids.extend(std::iter::repeat_n(0u32, padding));
            mask.extend_from_slice(encoding.get_attention_mask());
            mask.extend(std::iter::repeat_n(0u32, padding));
        }
        let ids = Tensor::from_vec(ids, (rows, width), &self.device)?;
        let mask = Tensor::from_vec(mask, (rows, width), &self.device)?;
        let token_types = ids.zeros_like()?;
        let hidden = self.model.forward(&ids, &token_types, Some(&mask))?;
        let pooled = pooling::mean_pool(&hidden, &mask)?;
        Ok(pooling::l2_normalize(&pooled)?.to_vec2::<f32>()?)
    }
}

/// `text` cut to at most `max` characters, on a character boundary.
fn cap_chars(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedder_can_be_shared_across_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Embedder>();
    }

    #[test]
    fn inputs_are_capped_on_character_boundaries() {
        assert_eq!(cap_chars("héllo", 2), "hé");
        assert_eq!(cap_chars("héllo", 10), "héllo");
        assert_eq!(cap_chars("", 0), "");
    }
}
