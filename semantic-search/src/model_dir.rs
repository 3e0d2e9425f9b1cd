//! Where the model lives on disk, and whether it is all there.
//!
//! The server finds the model in this order: an explicit `--model-dir`, the `WIKI_MCP_MODEL_DIR`
//! environment variable, then `<data dir>/models/all-MiniLM-L6-v2`. A directory counts as a model
//! only when every pinned file is present with its pinned size; anything less is
//! [`Error::ModelNotInstalled`] listing each problem and the install command, so an operator
//! reading the log knows what to run. The cheap check (sizes) runs at every load; the installer
//! runs the full one (digests) before deciding an existing install can stay.

use std::fs;
use std::path::{Path, PathBuf};

use crate::digest;
use crate::error::{Error, Result};
use crate::package::ModelPackage;

/// The environment variable that names the model directory when no explicit one is given.
pub const MODEL_DIR_ENV: &str = "WIKI_MCP_MODEL_DIR";

/// A directory that holds every file of a model package with its pinned size.
#[derive(Debug, Clone)]
pub struct ModelDir {
    path: PathBuf,
    package: ModelPackage,
}

impl ModelDir {
    /// The directory the model is looked for in, without touching the disk: `explicit` if given,
    /// else [`MODEL_DIR_ENV`] if set and not blank, else `<data_dir>/models/<model name>`.
    pub fn resolve(explicit: Option<&Path>, data_dir: &Path, package: &ModelPackage) -> PathBuf {
        if let Some(dir) = explicit {
            return dir.to_path_buf();
        }
        match std::env::var_os(MODEL_DIR_ENV) {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => data_dir.join("models").join(&package.model),
        }
    }

    /// [`ModelDir::resolve`] then [`ModelDir::verify`], for the pinned all-MiniLM-L6-v2.
    pub fn locate(explicit: Option<&Path>, data_dir: &Path) -> Result<ModelDir> {
        let package = ModelPackage::all_minilm_l6_v2();
        let dir = Self::resolve(explicit, data_dir, &package);
        Self::verify(&dir, package)
    }

    /// Checks that `dir` holds every file of `package` with its pinned size. The error lists
    /// every problem at once (not just the first) and says how to install.
    pub fn verify(dir: &Path, package: ModelPackage) -> Result<ModelDir> {
        let problems = if dir.is_dir() {
            package
                .files
                .iter()
                .filter_map(|file| match fs::metadata(dir.join(&file.path)) {
                    Ok(meta) if meta.is_file() && meta.len() == file.size => None,
                    Ok(meta) if meta.is_file() => Some(format!(
                        "{} has {} bytes, expected {}",
                        file.path,
                        meta.len(),
                        file.size
                    )),
                    Ok(_) => Some(format!("{} is not a file", file.path)),
                    Err(_) => Some(format!("{} is missing", file.path)),
                })
                .collect()
        } else {
            vec!["the directory does not exist".to_owned()]
        };
        if problems.is_empty() {
            Ok(ModelDir {
                path: dir.to_path_buf(),
                package,
            })
        } else {
            Err(Error::ModelNotInstalled {
                dir: dir.to_path_buf(),
                problems,
            })
        }
    }

    /// Hashes every file and compares it with its pin: the check the installer trusts before it
    /// leaves an existing install in place. Reads the whole model (about 90 MB).
    pub fn verify_digests(&self) -> Result<()> {
        for file in &self.package.files {
            let path = self.path.join(&file.path);
            let mut reader = fs::File::open(&path).map_err(|e| Error::io("open", &path, e))?;
            let (actual, _) =
                digest::of_reader(&mut reader).map_err(|e| Error::io("read", &path, e))?;
            if actual != file.sha256 {
                return Err(Error::DigestMismatch {
                    what: format!("{} in {}", file.path, self.path.display()),
                    expected: file.sha256.clone(),
                    actual,
                });
            }
        }
        Ok(())
    }

    /// The model directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The package this directory was verified against.
    pub fn package(&self) -> &ModelPackage {
        &self.package
    }

    /// The path of one of the model's files (`name` relative to the directory).
    pub(crate) fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::PinnedFile;

    fn package() -> ModelPackage {
        ModelPackage {
            model: "tiny".into(),
            project: "tiny".into(),
            version: "1".into(),
            wheel: PinnedFile::new("tiny-1-py3-none-any.whl", "00", 1),
            prefix: "tiny/model/".into(),
            files: vec![
                PinnedFile::new("a.json", digest::of_bytes(b"{}"), 2),
                PinnedFile::new("sub/b.bin", digest::of_bytes(b"bbb"), 3),
            ],
        }
    }

    /// A directory with both files, `a.json` holding `a_json`.
    fn model_with(a_json: &[u8]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::write(dir.path().join("a.json"), a_json).expect("write");
        fs::create_dir(dir.path().join("sub")).expect("mkdir");
        fs::write(dir.path().join("sub/b.bin"), b"bbb").expect("write");
        dir
    }

    #[test]
    fn a_complete_directory_verifies_and_its_digests_match() {
        let dir = model_with(b"{}");
        let model = ModelDir::verify(dir.path(), package()).expect("complete");
        model.verify_digests().expect("digests match");
    }

    #[test]
    fn every_problem_is_listed_with_the_install_command() {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::write(dir.path().join("a.json"), b"{ }").expect("write");
        let err = ModelDir::verify(dir.path(), package()).expect_err("incomplete");
        let message = err.to_string();
        assert!(
            message.contains("a.json has 3 bytes, expected 2"),
            "{message}"
        );
        assert!(message.contains("sub/b.bin is missing"), "{message}");
        assert!(
            message.contains(&format!(
                "run `wiki-mcp models install --model-dir {}`",
                dir.path().display()
            )),
            "{message}"
        );
    }

    #[test]
    fn a_missing_directory_says_so() {
        let dir = tempfile::tempdir().expect("temp dir");
        let absent = dir.path().join("nope");
        let err = ModelDir::verify(&absent, package()).expect_err("absent");
        assert!(
            err.to_string().contains("the directory does not exist"),
            "{err}"
        );
    }

    #[test]
    fn a_same_size_file_with_other_bytes_fails_the_digest_check() {
        let dir = model_with(b"[]");
        let model = ModelDir::verify(dir.path(), package()).expect("sizes match");
        let err = model.verify_digests().expect_err("bytes differ");
        assert!(matches!(err, Error::DigestMismatch { .. }), "{err}");
    }

    #[test]
    fn an_explicit_directory_wins_and_the_default_is_under_the_data_directory() {
        let explicit = Path::new("/srv/model");
        let data = Path::new("/var/lib/wiki-mcp");
        let pinned = ModelPackage::all_minilm_l6_v2();
        assert_eq!(
            ModelDir::resolve(Some(explicit), data, &pinned),
            explicit.to_path_buf()
        );
        if std::env::var_os(MODEL_DIR_ENV).is_none() {
            assert_eq!(
                ModelDir::resolve(None, data, &pinned),
                data.join("models/all-MiniLM-L6-v2")
            );
        }
    }
}
