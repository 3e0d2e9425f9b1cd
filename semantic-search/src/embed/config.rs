//! Reading what the model directory says about the pipeline, and refusing what we do not run.
//!
//! sentence-transformers describes a model as modules (`modules.json`): here a Transformer, a
//! Pooling and a Normalize. The embedder implements exactly that pipeline, so it checks the
//! files say so rather than assuming: mean pooling only, a pooled width equal to BERT's hidden
//! size, and the sequence limit from `sentence_bert_config.json` (256 for this model; the
//! `tokenizer.json` beside it says 128, which sentence-transformers overrides).

use std::path::Path;

use candle_transformers::models::bert;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};
use crate::model_dir::ModelDir;
use crate::package::names;

/// What the embedder needs to know beyond the weights and the tokenizer.
#[derive(Debug)]
pub(crate) struct PipelineConfig {
    pub(crate) bert: bert::Config,
    /// Longest input in word pieces, `[CLS]` and `[SEP]` included.
    pub(crate) max_seq_length: usize,
    /// The embedding width.
    pub(crate) dimension: usize,
}

#[derive(Deserialize)]
struct Module {
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize)]
struct SentenceConfig {
    max_seq_length: usize,
}

#[derive(Deserialize)]
struct PoolingConfig {
    word_embedding_dimension: usize,
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
    #[serde(default)]
    pooling_mode_weightedmean_tokens: bool,
    #[serde(default)]
    pooling_mode_lasttoken: bool,
}

/// The pipeline sentence-transformers runs for this model, in order.
const EXPECTED_MODULES: [&str; 3] = [
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
];

impl PipelineConfig {
    pub(crate) fn read(model: &ModelDir) -> Result<PipelineConfig> {
        let unsupported = |reason: String| Error::UnsupportedModel {
            dir: model.path().to_path_buf(),
            reason,
        };
        let modules: Vec<Module> = read_json(&model.file(names::MODULES))?;
        let kinds: Vec<&str> = modules.iter().map(|m| m.kind.as_str()).collect();
        if kinds != EXPECTED_MODULES {
            return Err(unsupported(format!(
                "its pipeline is {kinds:?}; only Transformer, Pooling, Normalize is implemented"
            )));
        }
        let bert: bert::Config = read_json(&model.file(names::CONFIG))?;
        let sentence: SentenceConfig = read_json(&model.file(names::SENTENCE_CONFIG))?;
        let pooling: PoolingConfig = read_json(&model.file(names::POOLING))?;
        let other_modes = pooling.pooling_mode_cls_token
            || pooling.pooling_mode_max_tokens
            || pooling.pooling_mode_mean_sqrt_len_tokens
            || pooling.pooling_mode_weightedmean_tokens
            || pooling.pooling_mode_lasttoken;
        if !pooling.pooling_mode_mean_tokens || other_modes {
            return Err(unsupported(
                "its pooling is not plain mean pooling, the only one implemented".into(),
            ));
        }
        if pooling.word_embedding_dimension != bert.hidden_size {
            return Err(unsupported(format!(
                "pooling expects width {} but BERT's hidden size is {}",
                pooling.word_embedding_dimension, bert.hidden_size
            )));
        }
        if sentence.max_seq_length < 2 || sentence.max_seq_length > bert.max_position_embeddings {
            return Err(unsupported(format!(
                "max_seq_length {} is outside 2..={} (the position embeddings)",
                sentence.max_seq_length, bert.max_position_embeddings
            )));
        }
        Ok(PipelineConfig {
            max_seq_length: sentence.max_seq_length,
            dimension: bert.hidden_size,
            bert,
        })
    }
}

fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))?;
    serde_json::from_str(&text).map_err(|e| {
        Error::io(
            "parse",
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, e),
        )
    })
}
