//! The value of `config set tools=…`: a wiki's tool set replaced or edited.
//!
//! A comma list of entries, read left to right:
//! - `default` alone: the default policy (every tool that does not write), saved as "no list",
//!   so it follows the tools the binary links;
//! - `id,id…`: exactly these tools (a plain list replaces the set);
//! - `default,+id,-id…`: the default policy's tools as of now, plus and minus some;
//! - `+id,-id…` (the first entry signed): the wiki's current set, plus and minus some.
//!
//! Every id must name a tool linked into the running binary; the refusal lists the known ones.
//! Ids already stored that this binary does not know (another binary's tools) are kept as they
//! are: editing names only what it changes. `man` is served everywhere and `list_wikis` exactly
//! where the wiki has cross-wiki reach, so a signed entry trying to change either is refused
//! with the way to do it.

use anyhow::{Result, bail};

use crate::commands::comma_list;

/// One tool the running binary links, as the edit needs it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Known<'a> {
    pub(crate) id: &'a str,
    pub(crate) write: bool,
}

/// The stored list for `value` (empty = the default policy), given the wiki's stored list
/// `current` and the tools the binary links.
pub(crate) fn edit(value: &str, current: &[String], known: &[Known<'_>]) -> Result<Vec<String>> {
    let entries = comma_list(value);
    let Some(first) = entries.first() else {
        bail!(
            "tools needs `default`, tool ids, or +ID/-ID edits (to turn every tool off, set \
             enabled=false)"
        );
    };
    if entries.len() == 1 && first == "default" {
        return Ok(Vec::new());
    }
    let edits = parse(&entries, known)?;
    let defaults = || -> Vec<String> {
        known
            .iter()
            .filter(|tool| !tool.write)
            .map(|tool| tool.id.to_owned())
            .collect()
    };
    let mut set: Vec<String> = match edits.first() {
        Some(Edit::Default) => defaults(),
        Some(Edit::Add { signed: true, .. } | Edit::Remove(_)) if current.is_empty() => defaults(),
        Some(Edit::Add { signed: true, .. } | Edit::Remove(_)) => current.to_vec(),
        _ => Vec::new(),
    };
    for edit in &edits {
        match edit {
            Edit::Default => {}
            Edit::Add { id, .. } => {
                if !set.iter().any(|present| present == id) {
                    set.push((*id).to_owned());
                }
            }
            Edit::Remove(id) => set.retain(|present| present != id),
        }
    }
    if set.is_empty() {
        bail!(
            "`tools={value}` leaves no tool (to turn every tool off, set enabled=false; for the \
             default policy, tools=default)"
        );
    }
    Ok(set)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit<'a> {
    /// `default`, first only.
    Default,
    /// `id` or `+id`.
    Add { id: &'a str, signed: bool },
    /// `-id`.
    Remove(&'a str),
}

/// Reads every entry, refusing unknown ids (all of them at once, with the known ones) and the
/// entries that cannot mean anything.
fn parse<'a>(entries: &'a [String], known: &[Known<'_>]) -> Result<Vec<Edit<'a>>> {
    let mut edits = Vec::with_capacity(entries.len());
    let mut unknown = Vec::new();
    for (position, entry) in entries.iter().enumerate() {
        let edit = match entry.as_str() {
            "default" if position == 0 => Edit::Default,
            "default" => bail!(
                "`default` can only come first in tools= (e.g. tools=default,+write_document)"
            ),
            signed if signed.starts_with('+') => Edit::Add {
                id: signed[1..].trim(),
                signed: true,
            },
            signed if signed.starts_with('-') => Edit::Remove(signed[1..].trim()),
            id => Edit::Add { id, signed: false },
        };
        let (id, signed) = match edit {
            Edit::Default => {
                edits.push(edit);
                continue;
            }
            Edit::Add { id, signed } => (id, signed),
            Edit::Remove(id) => (id, true),
        };
        if id.is_empty() {
            bail!("`{entry}` in tools= names no tool: write +ID or -ID");
        }
        if !known.iter().any(|tool| tool.id == id) {
            unknown.push(id);
        } else if signed {
            refuse_fixed(id, &edit)?;
        }
        edits.push(edit);
    }
    if !unknown.is_empty() {
        let ids: Vec<&str> = known.iter().map(|tool| tool.id).collect();
        bail!(
            "unknown tool id(s): {} (known tools: {})",
            unknown.join(", "),
            ids.join(", ")
        );
    }
    Ok(edits)
}

/// `man` and `list_wikis` are not the list's to decide.
fn refuse_fixed(id: &str, edit: &Edit<'_>) -> Result<()> {
    use wiki_server::policy::{LIST_WIKIS, MAN};
    match (id, edit) {
        (MAN, Edit::Remove(_)) => bail!("`man` is served on every wiki and cannot be removed"),
        (LIST_WIKIS, _) => bail!(
            "`list_wikis` is served exactly where the wiki has cross-wiki reach: use \
             `wiki-mcp farm reach grant|revoke WIKI`"
        ),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[Known<'static>] = &[
        Known {
            id: "get_document",
            write: false,
        },
        Known {
            id: "get_links",
            write: false,
        },
        Known {
            id: "list_wikis",
            write: false,
        },
        Known {
            id: "man",
            write: false,
        },
        Known {
            id: "write_document",
            write: true,
        },
        Known {
            id: "append_note",
            write: true,
        },
    ];

    fn stored(list: &[&str]) -> Vec<String> {
        list.iter().map(|id| (*id).to_owned()).collect()
    }

    #[track_caller]
    fn edits_to(value: &str, current: &[&str], expected: &[&str]) {
        match edit(value, &stored(current), KNOWN) {
            Ok(set) => assert_eq!(set, expected, "tools={value} from {current:?}"),
            Err(error) => panic!("tools={value} from {current:?} was refused: {error:#}"),
        }
    }

    #[track_caller]
    fn refused(value: &str, current: &[&str], says: &str) {
        match edit(value, &stored(current), KNOWN) {
            Ok(set) => panic!("tools={value} from {current:?} gave {set:?}"),
            Err(error) => {
                let message = format!("{error:#}");
                assert!(message.contains(says), "tools={value}: {message}");
            }
        }
    }

    #[test]
    fn default_alone_is_the_policy_saved_as_no_list() {
        edits_to("default", &["get_links"], &[]);
        edits_to(" default ", &[], &[]);
    }

    #[test]
    fn a_plain_list_replaces_whatever_was_stored() {
        edits_to(
            "get_links,write_document",
            &["get_document"],
            &["get_links", "write_document"],
        );
        edits_to("append_note", &[], &["append_note"]);
        // Repeats collapse; spaces around ids are trimmed.
        edits_to("get_links, get_links ,man", &[], &["get_links", "man"]);
    }

    #[test]
    fn default_with_edits_starts_from_the_policy_as_of_now() {
        edits_to(
            "default,+write_document,-get_links",
            &["append_note"],
            &["get_document", "list_wikis", "man", "write_document"],
        );
    }

    #[test]
    fn a_signed_first_entry_starts_from_the_current_set() {
        // No stored list: the current set is the default policy.
        edits_to(
            "+append_note",
            &[],
            &[
                "get_document",
                "get_links",
                "list_wikis",
                "man",
                "append_note",
            ],
        );
        edits_to(
            "-get_links,+write_document",
            &["get_links", "man"],
            &["man", "write_document"],
        );
        // Adding what is there, or removing what is not, changes nothing.
        edits_to("+get_links,-write_document", &["get_links"], &["get_links"]);
        // A later plain id adds too.
        edits_to(
            "-get_links,get_document",
            &["get_links", "man"],
            &["man", "get_document"],
        );
    }

    #[test]
    fn stored_ids_this_binary_does_not_know_are_kept() {
        edits_to(
            "+get_links",
            &["their_tool", "man"],
            &["their_tool", "man", "get_links"],
        );
    }

    #[test]
    fn unknown_ids_are_refused_all_at_once_with_the_known_ones() {
        refused(
            "default,+nope,-gone",
            &[],
            "unknown tool id(s): nope, gone (known tools: get_document, get_links, list_wikis, \
             man, write_document, append_note)",
        );
        refused("get_links,typo", &[], "unknown tool id(s): typo");
    }

    #[test]
    fn entries_that_cannot_mean_anything_are_refused() {
        refused("", &[], "tools needs `default`, tool ids, or +ID/-ID");
        refused(" , ", &[], "tools needs `default`");
        refused("+get_links,default", &[], "`default` can only come first");
        refused("default,+", &[], "`+` in tools= names no tool");
        refused("-get_links", &["get_links"], "leaves no tool");
        refused("-man", &[], "`man` is served on every wiki");
        refused("+list_wikis", &[], "farm reach grant|revoke");
        refused("default,-list_wikis", &[], "farm reach grant|revoke");
    }
}
