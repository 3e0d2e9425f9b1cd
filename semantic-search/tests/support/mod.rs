//! Finding the model the test command installed, for the tests that need it.

use std::io::Write;
use std::path::PathBuf;

use semantic_search::{MODEL_DIR_ENV, ModelDir, ModelPackage};

/// Where `scripts/install-test-model.sh` puts the model: `WIKI_MCP_MODEL_DIR`, else
/// `${CARGO_TARGET_DIR:-<workspace>/target}/models/all-MiniLM-L6-v2`.
pub(crate) fn model_dir_path() -> PathBuf {
    if let Some(dir) = std::env::var_os(MODEL_DIR_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target
        .join("models")
        .join(ModelPackage::all_minilm_l6_v2().model)
}

/// The installed model, or `None` after saying on stderr that the test is skipped. Under CI
/// (`CI` set) a missing model fails instead: the test command installs it, so its absence there
/// is a broken pipeline, not a reason to skip.
pub(crate) fn installed_model(test: &str) -> Option<ModelDir> {
    let dir = model_dir_path();
    match ModelDir::verify(&dir, ModelPackage::all_minilm_l6_v2()) {
        Ok(model) => Some(model),
        Err(e) if std::env::var_os("CI").is_some() => {
            panic!("{test}: the model must be installed under CI: {e}")
        }
        Err(e) => {
            // Straight to stderr, not through the test harness's capture: a skip is never silent.
            let _ = writeln!(
                std::io::stderr(),
                "{test}: skipped: model not installed (run semantic-search/scripts/install-test-model.sh): {e}"
            );
            None
        }
    }
}
