//! Import of a directory of Markdown files into a wiki.
//!
//! Folders become nested spaces, `index.md` becomes the folder's `WebHome`, any other `name.md`
//! (or `.markdown`) becomes the page `name`, and a YAML front matter `title:` becomes the title
//! (the front matter itself is not imported). Top-level files become space homes (`guide.md` is
//! `guide.WebHome`, the top-level `index.md` is `Main.WebHome`) unless a root space is given.
//! Re-running an import saves nothing for unchanged files (the store's no-op detection), so it is
//! idempotent. Hidden entries (`.name`) and symbolic links are skipped; other files are ignored.

use std::fs;
use std::path::{Path, PathBuf};

use crate::api::DocumentStore;
use crate::model::document::{DocumentSave, SaveOutcome};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, HOME_PAGE, SpacePath};
use crate::{Result, StoreError};

/// The space of a top-level `index.md` when no root space is given.
pub const DEFAULT_ROOT_SPACE: &str = "Main";

/// How to import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportOptions {
    /// The wiki to import into.
    pub wiki: WikiId,
    /// Import everything under this space; `None` maps top-level folders to top-level spaces.
    pub root: Option<SpacePath>,
    /// The author of the saved versions.
    pub author: String,
    /// The version comment.
    pub comment: String,
}

/// What an import did, file by file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Pages created.
    pub created: usize,
    /// Pages updated (their content or title changed).
    pub updated: usize,
    /// Pages already identical: nothing saved.
    pub unchanged: usize,
    /// Files not imported, with the reason (a name that is not a valid page name, a refused save).
    pub skipped: Vec<(PathBuf, String)>,
}

/// Imports the Markdown files under `dir`. Unreadable directories fail the import; a file that
/// cannot be imported is reported in [`ImportReport::skipped`] and the import goes on.
pub fn import_directory(
    store: &(impl DocumentStore + ?Sized),
    dir: &Path,
    options: &ImportOptions,
) -> Result<ImportReport> {
    import_directory_with_progress(store, dir, options, |_, _| {})
}

/// [`import_directory`], calling `progress(done, total)` before each file and once at the end
/// (`done == total`), so a command line can show a progress bar.
pub fn import_directory_with_progress(
    store: &(impl DocumentStore + ?Sized),
    dir: &Path,
    options: &ImportOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<ImportReport> {
    let mut files = Vec::new();
    collect(dir, &mut Vec::new(), &mut files)?;
    let total = files.len();
    let mut report = ImportReport::default();
    for (done, (folders, path)) in files.into_iter().enumerate() {
        progress(done, total);
        let reference = match page_reference(options, &folders, &path) {
            Ok(reference) => reference,
            Err(reason) => {
                report.skipped.push((path, reason));
                continue;
            }
        };
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) => {
                report.skipped.push((path, format!("cannot read: {error}")));
                continue;
            }
        };
        let (title, body) = split_front_matter(&normalize_line_endings(&text));
        let mut save = DocumentSave::new(reference, body, options.author.clone())
            .comment(options.comment.clone());
        save.title = title;
        match store.save_document(&save) {
            Ok(SaveOutcome::Created { .. }) => report.created += 1,
            Ok(SaveOutcome::Updated { .. }) => report.updated += 1,
            Ok(SaveOutcome::Unchanged { .. }) => report.unchanged += 1,
            Err(error @ (StoreError::Backend(_) | StoreError::NotFound { .. })) => {
                return Err(error);
            }
            Err(error) => report.skipped.push((path, error.to_string())),
        }
    }
    progress(total, total);
    Ok(report)
}

/// Markdown files under `dir` with their folder names, in a stable (sorted) order.
fn collect(
    dir: &Path,
    folders: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, PathBuf)>,
) -> Result<()> {
    let mut entries = fs::read_dir(dir)
        .and_then(|entries| entries.collect::<std::io::Result<Vec<_>>>())
        .map_err(|source| StoreError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let kind = entry.file_type().map_err(|source| StoreError::Io {
            path: entry.path(),
            source,
        })?;
        if kind.is_dir() {
            folders.push(name);
            collect(&entry.path(), folders, out)?;
            folders.pop();
        } else if kind.is_file() && markdown_stem(&name).is_some() {
            out.push((folders.clone(), entry.path()));
        }
    }
    Ok(())
}

fn markdown_stem(file_name: &str) -> Option<&str> {
    file_name
        .strip_suffix(".md")
        .or_else(|| file_name.strip_suffix(".markdown"))
        .filter(|stem| !stem.is_empty())
}

/// The page a file becomes; the error is the reason to skip it.
fn page_reference(
    options: &ImportOptions,
    folders: &[String],
    path: &Path,
) -> Result<DocumentReference, String> {
    let file_name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = markdown_stem(&file_name).ok_or("not a Markdown file")?;
    let mut spaces: Vec<String> = options
        .root
        .iter()
        .flat_map(|root| root.names().iter().cloned())
        .collect();
    spaces.extend(folders.iter().cloned());
    let name = if stem == "index" {
        if spaces.is_empty() {
            spaces.push(DEFAULT_ROOT_SPACE.to_owned());
        }
        HOME_PAGE.to_owned()
    } else if spaces.is_empty() {
        spaces.push(stem.to_owned());
        HOME_PAGE.to_owned()
    } else {
        stem.to_owned()
    };
    let space =
        SpacePath::new(spaces).map_err(|error| format!("not a valid page name: {error}"))?;
    DocumentReference::new(options.wiki.clone(), space, name)
        .map_err(|error| format!("not a valid page name: {error}"))
}

fn normalize_line_endings(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Splits a leading YAML front matter (`---` lines) off the body and reads its `title:`.
fn split_front_matter(text: &str) -> (Option<String>, String) {
    let Some(rest) = text.strip_prefix("---\n") else {
        return (None, text.to_owned());
    };
    let Some(end) = rest.find("\n---\n").map(|i| (i, i + 5)).or_else(|| {
        rest.strip_suffix("\n---")
            .map(|front| (front.len(), rest.len()))
    }) else {
        return (None, text.to_owned());
    };
    let (front, body) = (&rest[..end.0], &rest[end.1..]);
    let title = front
        .lines()
        .find_map(|line| line.strip_prefix("title:"))
        .map(|value| unquote(value.trim()));
    (title, body.to_owned())
}

fn unquote(value: &str) -> String {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|v| v.strip_suffix(quote))
        {
            return inner.to_owned();
        }
    }
    value.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_title_is_read_and_removed() {
        let (title, body) = split_front_matter("---\ntitle: \"Q3 Plan\"\ntags: [a]\n---\n# Body\n");
        assert_eq!(title.as_deref(), Some("Q3 Plan"));
        assert_eq!(body, "# Body\n");
        assert_eq!(
            split_front_matter("---\ntitle: Only\n---").0.as_deref(),
            Some("Only")
        );
        assert_eq!(
            split_front_matter("no front matter\n---\n"),
            (None, "no front matter\n---\n".to_owned())
        );
        assert_eq!(
            split_front_matter("---\nunterminated\n"),
            (None, "---\nunterminated\n".to_owned())
        );
    }

    #[test]
    fn paths_map_to_pages() {
        let options = ImportOptions {
            wiki: WikiId::main(),
            root: None,
            author: "a".into(),
            comment: String::new(),
        };
        let at = |folders: &[&str], file: &str| {
            let folders: Vec<String> = folders.iter().map(|f| f.to_string()).collect();
            page_reference(&options, &folders, Path::new(file)).map(|r| r.local())
        };
        assert_eq!(at(&[], "index.md").unwrap(), "Main.WebHome");
        assert_eq!(at(&[], "guide.md").unwrap(), "guide.WebHome");
        assert_eq!(at(&["Sales"], "index.md").unwrap(), "Sales.WebHome");
        assert_eq!(
            at(&["Sales", "Europe"], "q1.markdown").unwrap(),
            "Sales.Europe.q1"
        );
        assert_eq!(at(&["v1.2"], "notes.md").unwrap(), r"v1\.2.notes");
        assert!(at(&["bad\u{7}"], "x.md").is_err());
    }
}
