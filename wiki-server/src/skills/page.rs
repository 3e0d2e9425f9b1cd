//! One wiki page as one skill: its `SKILL.md` and its files, with their digests.
//!
//! The `SKILL.md` is made from the page's stored revision: a frontmatter whose `name` is the
//! page's name and whose `description` is the page's title, then the page's content (Markdown).
//! Each attachment (its current version) is a file of the skill beside it. The same revision
//! always gives the same bytes, so the digests `skills/list` reports change exactly when the
//! page or one of its attachments is saved again.

use base64::Engine as _;
use base64::prelude::BASE64_STANDARD;
use rmcp::model::{
    ReadResourceResult, Resource, ResourceContents, SKILL_MD, Skill, SkillFrontmatter,
    SkillResource, SkillResources,
};
use wiki_store::model::document::Document;
use wiki_store::reference::{DocumentReference, SpacePath};

/// The scheme of every skill URI: `skill://<name>/SKILL.md`, `skill://<name>/<attachment>`.
pub(crate) const SCHEME: &str = "skill://";

/// Files per skill above which the skill is not served (hosts need not load larger ones).
pub(crate) const MAX_FILES: usize = 512;

/// Bytes per skill above which the skill is not served.
pub(crate) const MAX_BYTES: u64 = 16 * 1024 * 1024;

const MARKDOWN: &str = "text/markdown";

/// One file of a skill: its URI, media type and bytes.
#[derive(Debug)]
pub(crate) struct SkillFile {
    pub(crate) uri: String,
    pub(crate) mime_type: String,
    pub(crate) bytes: Vec<u8>,
}

/// A skill read from its page: the manifest `skills/list` shows, the `SKILL.md` listing
/// `resources/list` shows, and every file's bytes for `resources/read`.
#[derive(Debug)]
pub(crate) struct PageSkill {
    pub(crate) skill: Skill,
    pub(crate) listing: Resource,
    pub(crate) files: Vec<SkillFile>,
}

/// The skill name of a direct child of the skills space: `Skills.name` (a page) or
/// `Skills.name.WebHome` (a nested space's home page). `None` for the space's own home page,
/// pages further down, and names a skill may not have: 1 to 64 lowercase ASCII letters and
/// digits, in words joined by single hyphens (the spec's rule, kept to ASCII so a name is its
/// own URI segment).
pub(crate) fn skill_name<'a>(
    reference: &'a DocumentReference,
    space: &SpacePath,
) -> Option<&'a str> {
    let name = if reference.space() == space && !reference.is_home() {
        reference.name()
    } else if reference.is_home() && reference.space().parent().as_ref() == Some(space) {
        reference.space().last()
    } else {
        return None;
    };
    is_skill_name(name).then_some(name)
}

fn is_skill_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name.split('-').all(|word| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The URI of `file` in the skill `name`: the file name percent-encoded as one segment.
pub(crate) fn file_uri(name: &str, file: &str) -> String {
    let mut uri = format!("{SCHEME}{name}/");
    for byte in file.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

/// The `SKILL.md` of a page: the frontmatter from its name and title, then its content. The
/// description is written as a double-quoted scalar (JSON's quoting, which YAML reads), so a
/// title with a colon or a quote stays one value.
pub(crate) fn skill_md(name: &str, document: &Document) -> Vec<u8> {
    let description = serde_json::Value::String(description(document)).to_string();
    format!(
        "---\nname: {name}\ndescription: {description}\n---\n\n{}",
        document.content
    )
    .into_bytes()
}

/// The page's title, or its name when it has none (a description may not be empty).
fn description(document: &Document) -> String {
    let title = document.title.trim();
    if title.is_empty() {
        document.reference.name().to_owned()
    } else {
        title.to_owned()
    }
}

/// The skill `name` made of `document` and its `attachments` (name, media type, bytes), or
/// why it is not served (too many files or bytes).
pub(crate) fn page_skill(
    name: &str,
    document: &Document,
    attachments: Vec<(String, String, Vec<u8>)>,
) -> Result<PageSkill, String> {
    let manifest = skill_md(name, document);
    let uri = file_uri(name, SKILL_MD);
    let listing = Resource::new(&uri, name)
        .with_description(description(document))
        .with_mime_type(MARKDOWN)
        .with_size(manifest.len() as u64);
    let mut files = vec![SkillFile {
        uri: uri.clone(),
        mime_type: MARKDOWN.to_owned(),
        bytes: manifest,
    }];
    // An attachment named SKILL.md would stand for the page itself: the page wins.
    files.extend(
        attachments
            .into_iter()
            .filter(|(file, _, _)| file != SKILL_MD)
            .map(|(file, mime_type, bytes)| SkillFile {
                uri: file_uri(name, &file),
                mime_type,
                bytes,
            }),
    );
    if files.len() > MAX_FILES {
        return Err(format!("more than {MAX_FILES} files"));
    }
    let total: u64 = files.iter().map(|file| file.bytes.len() as u64).sum();
    if total > MAX_BYTES {
        return Err(format!("more than {MAX_BYTES} bytes"));
    }
    let manifest = files
        .iter()
        .map(|file| SkillResource::from_bytes(&file.uri, &file.bytes))
        .collect();
    let skill = Skill::new(
        uri,
        SkillFrontmatter::new(name, description(document)),
        SkillResources::Files(manifest),
    );
    skill.validate().map_err(|error| error.to_string())?;
    Ok(PageSkill {
        skill,
        listing,
        files,
    })
}

impl SkillFile {
    /// The answer to `resources/read` for this file: text when its type is textual and its
    /// bytes are UTF-8, else base64.
    pub(crate) fn read_result(&self) -> ReadResourceResult {
        let textual = self.mime_type.starts_with("text/")
            || matches!(
                self.mime_type.as_str(),
                "application/json" | "application/xml" | "application/yaml" | "application/toml"
            );
        let text = textual
            .then(|| std::str::from_utf8(&self.bytes).ok())
            .flatten();
        let contents = match text {
            Some(text) => ResourceContents::text(text, &self.uri),
            None => ResourceContents::blob(BASE64_STANDARD.encode(&self.bytes), &self.uri),
        };
        ReadResourceResult::new(vec![contents.with_mime_type(&self.mime_type)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_names_follow_the_spec_in_ascii() {
        for (name, valid) in [
            ("edit-large-page", true),
            ("a", true),
            ("find-and-cite-2", true),
            ("", false),
            ("Edit", false),
            ("-edit", false),
            ("edit-", false),
            ("edit--page", false),
            ("edit_page", false),
            ("résumé", false),
        ] {
            assert_eq!(is_skill_name(name), valid, "{name}");
        }
        assert!(!is_skill_name(&"a".repeat(65)));
    }

    #[test]
    fn file_names_are_one_uri_segment() {
        assert_eq!(file_uri("x", "notes 1/2.md"), "skill://x/notes%201%2F2.md");
    }
}
