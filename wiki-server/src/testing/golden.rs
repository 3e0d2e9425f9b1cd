//! Golden snapshots: outputs committed as files, so any change to a schema, a description or a
//! manual page shows up as a reviewable diff.
//!
//! A test checks each output against its file under one directory and then calls
//! [`Golden::finish`], which also fails on a committed file no output matched any more (a
//! removed tool's page). After an intended change, regenerate the files with the same test run
//! under `BLESS=1` (e.g. `BLESS=1 cargo test -p bundled-tools --test tools golden`) and review
//! the diff before committing it.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The environment variable that makes a run write the snapshots instead of checking them.
pub const BLESS: &str = "BLESS";

/// The snapshots of one directory.
#[derive(Debug)]
pub struct Golden {
    dir: PathBuf,
    bless: bool,
    checked: BTreeSet<String>,
    drift: Vec<String>,
}

impl Golden {
    /// The snapshots in `dir` (created when blessing), blessed when the environment sets
    /// [`BLESS`] (to anything but `0`).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        let bless = std::env::var_os(BLESS).is_some_and(|value| value != "0" && !value.is_empty());
        Self::with_bless(dir, bless)
    }

    /// The snapshots in `dir`, written when `bless`, checked otherwise, whatever the environment.
    pub fn with_bless(dir: impl Into<PathBuf>, bless: bool) -> Self {
        Self {
            dir: dir.into(),
            bless,
            checked: BTreeSet::new(),
            drift: Vec::new(),
        }
    }

    /// Checks `actual` against the file `name` (a plain file name), or writes it when blessing.
    /// A mismatch is recorded with its diff and reported by [`Golden::finish`], so one run shows
    /// every drifted file.
    pub fn check(&mut self, name: &str, actual: &str) {
        assert!(
            !name.contains(['/', '\\']) && !name.starts_with('.'),
            "a snapshot name is a plain file name, got {name:?}"
        );
        assert!(
            self.checked.insert(name.to_owned()),
            "the snapshot {name} was checked twice"
        );
        let path = self.dir.join(name);
        if self.bless {
            if let Err(error) =
                std::fs::create_dir_all(&self.dir).and_then(|()| std::fs::write(&path, actual))
            {
                panic!("cannot write {}: {error}", path.display());
            }
            return;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => self.drift.push(format!(
                "{name} changed:\n{}",
                similar::TextDiff::from_lines(&expected, actual)
                    .unified_diff()
                    .header(&format!("{name} (committed)"), &format!("{name} (now)"))
            )),
            Err(error) => self.drift.push(format!(
                "{name} is missing ({error}); it would be:\n{actual}"
            )),
        }
    }

    /// Fails (panics) on every drifted or missing snapshot and on every file of the directory
    /// no check named; when blessing, deletes those files instead.
    #[track_caller]
    pub fn finish(mut self) {
        for stale in self.unchecked_files() {
            if self.bless {
                if let Err(error) = std::fs::remove_file(self.dir.join(&stale)) {
                    panic!("cannot remove the stale snapshot {stale}: {error}");
                }
            } else {
                self.drift
                    .push(format!("{stale} matches no output any more (stale)"));
            }
        }
        if self.drift.is_empty() {
            return;
        }
        let mut report = format!(
            "{} snapshot(s) in {} drifted:\n",
            self.drift.len(),
            self.dir.display()
        );
        for drift in &self.drift {
            let _ = writeln!(report, "\n{drift}");
        }
        let _ = write!(
            report,
            "\nIf the change is intended, re-run this test with {BLESS}=1 and review the diff."
        );
        panic!("{report}");
    }

    fn unchecked_files(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut stale: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
            .filter_map(|entry| entry.file_name().into_string().ok())
            .filter(|name| !self.checked.contains(name))
            .collect();
        stale.sort();
        stale
    }

    /// The directory of the snapshots.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}
