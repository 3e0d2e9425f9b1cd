//! The demo farm a first run creates, so a new user has something real to point an agent at.
//!
//! - Users `admin` (farm admin, created by [`crate::farm`]) and `alice` (a plain user).
//! - The main wiki: spaces `Main`, `Guides`, `Library`, `Internal` and `Sandbox`; pages linking to
//!   each other; a French translation of `Guides.Install`; a text attachment on it; a hidden page
//!   (`Guides.Drafts`); a class `Library.BookClass` with two book objects.
//! - Two skills in the main wiki's `Skills` space, served to agents as MCP Skills: how to edit a
//!   large page safely, and how to find and cite a page.
//! - A sub-wiki `dev` whose pages link back into the main wiki.
//! - Rights: everyone (the guest included) may view both wikis, registered users may edit, and
//!   the `Internal` space is for registered users only: the guest cannot read it. Both wikis'
//!   endpoints are opened to the guest explicitly (a new wiki is closed to callers without a
//!   credential), so an agent can try the demo before anyone creates a token.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use wiki_store::Store;
use wiki_store::model::attachment::AttachmentWrite;
use wiki_store::model::class::{FieldType, NumberKind};
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::model::locale::Locale;
use wiki_store::model::object::{ClassChange, FieldChange, ObjectWrite};
use wiki_store::model::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::model::user::{ALL_USERS_GROUP, GUEST_USER};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::{DocumentReference, SpacePath};

/// The demo's plain user.
pub const DEMO_USER: &str = "alice";
/// The demo's sub-wiki.
pub const DEMO_SUBWIKI: &str = "dev";
/// The demo space the guest cannot read.
pub const PRIVATE_SPACE: &str = "Internal";

const AUTHOR: &str = crate::farm::ADMIN_USER;

/// Pages of the main wiki: reference, title, content.
const MAIN_PAGES: &[(&str, &str, &str)] = &[
    (
        "Main.WebHome",
        "Welcome",
        "# Welcome to the demo wiki\n\nThis farm was created by `wiki-mcp` on its first run.\n\n\
         - [Guides](Guides.WebHome): how to install and configure\n\
         - [Library](Library.WebHome): structured data (books)\n\
         - [Sandbox](Sandbox.WebHome): try edits here\n",
    ),
    (
        "Guides.WebHome",
        "Guides",
        "# Guides\n\n1. [Install](Guides.Install)\n2. [Configure](Guides.Configure)\n\n\
         Back to the [home page](Main.WebHome).\n",
    ),
    (
        "Guides.Install",
        "Installing",
        "# Installing\n\nBuild with `cargo build --release`, then run `wiki-mcp serve`.\n\n\
         See the notes in the attachment `install-notes.txt`, then [configure](Guides.Configure).\n",
    ),
    (
        "Guides.Configure",
        "Configuring",
        "# Configuring\n\nEach wiki has its own MCP configuration: `wiki-mcp config show --wiki main`.\n\n\
         Write tools are off until enabled. Previous step: [Install](Guides.Install).\n",
    ),
    (
        "Library.WebHome",
        "Library",
        "# Library\n\nEach book is a page with a `Library.BookClass` object: \
         [The Rust Book](Library.RustBook), [Programming Pearls](Library.Pearls).\n",
    ),
    (
        "Library.RustBook",
        "The Rust Programming Language",
        "A book about Rust. Shelved in the [Library](Library.WebHome).\n",
    ),
    (
        "Library.Pearls",
        "Programming Pearls",
        "Essays on programming. Shelved in the [Library](Library.WebHome).\n",
    ),
    (
        "Internal.WebHome",
        "Internal",
        "# Internal\n\nFor registered users only: the guest cannot read this space.\n\n\
         - [Roadmap](Internal.Roadmap)\n",
    ),
    (
        "Internal.Roadmap",
        "Roadmap",
        "# Roadmap\n\n- Ship the [guides](Guides.WebHome)\n- Grow the [library](Library.WebHome)\n",
    ),
    (
        "Sandbox.WebHome",
        "Sandbox",
        "# Sandbox\n\nA place to try edits. The [developer wiki](dev:Main.WebHome) is next door.\n",
    ),
    (
        "Skills.WebHome",
        "Skills",
        "# Skills\n\nEach page of this space is served to agents as a skill (its attachments are \
         the skill's files): the name of the page is the skill's name, its title the skill's \
         description.\n",
    ),
    (
        "Skills.edit-large-page",
        "Edit a large wiki page safely: read it in windows, then change it with exact \
         replacements locked to the version you read",
        "# Editing a large page\n\n\
         1. `get_document reference=\"Space.Page\" outline=true`: the heading outline with line \
         numbers, and the page's version in the header.\n\
         2. Read only the part you change: `get_document reference=\"Space.Page\" offset=<line> \
         limit=<lines>`. Follow the footer's `continue with offset=...` to read on.\n\
         3. `edit_document reference=\"Space.Page\" base_version=\"<version>\" \
         edits=[{\"old_string\": ..., \"new_string\": ...}]`: copy each old_string exactly, \
         without the line number and the TAB, long enough to occur once.\n\
         4. If the edit is refused because the page changed since your version, read the part \
         again and redo the edit on the new text; never rewrite the whole page with \
         write_document to get around it.\n\n\
         All edits of one call apply in order and save once: if one fails, nothing is saved.\n",
    ),
    (
        "Skills.find-and-cite",
        "Find the wiki page that answers a question and cite it by reference and version",
        "# Finding and citing a page\n\n\
         1. `query_documents query=\"<words of the question>\"`; narrow with `space=` when you \
         know where it lives, or browse with `get_tree`.\n\
         2. Open the best hit with `get_document`; for a large page read the outline, then the \
         section.\n\
         3. Check the page is current: `get_history` shows who changed it and when.\n\
         4. Cite the page by its reference and the version you read, e.g. \
         `Guides.Install` (version 1.1), as a wiki link `[Installing](Guides.Install)` in \
         what you write to the wiki. Quote only lines you read, without their line numbers.\n",
    ),
];

/// Pages of the sub-wiki.
const SUBWIKI_PAGES: &[(&str, &str, &str)] = &[
    (
        "Main.WebHome",
        "Developer wiki",
        "# Developer wiki\n\nA second wiki of the farm. Read the [API notes](Docs.Api), \
         or the main wiki's [install guide](main:Guides.Install).\n",
    ),
    (
        "Docs.Api",
        "API notes",
        "# API notes\n\nEach wiki has its own endpoint: `/rest/wikis/dev/aiLLM/mcp`.\n\n\
         Back to the [developer wiki](Main.WebHome).\n",
    ),
];

/// Seeds the demo content into a farm that has its `admin` user.
pub fn seed(store: &dyn Store) -> Result<()> {
    store
        .create_user(DEMO_USER, Some("Alice Example"))
        .context("creating the demo user")?;
    let main = WikiId::main();
    let dev = WikiId::new(DEMO_SUBWIKI).context("the demo sub-wiki id")?;
    store
        .create_wiki(&dev, "Developer Wiki")
        .context("creating the demo sub-wiki")?;
    for wiki in [&main, &dev] {
        open_to_everyone(store, wiki)?;
        admit_the_guest(store, wiki)?;
    }
    registered_users_only(store, &main, PRIVATE_SPACE)?;

    save_pages(store, &main, MAIN_PAGES)?;
    save_pages(store, &dev, SUBWIKI_PAGES)?;

    let install = reference(&main, "Guides.Install")?;
    let mut french = DocumentSave::new(
        install.clone(),
        "# Installation\n\nCompilez avec `cargo build --release`, puis lancez `wiki-mcp serve`.\n",
        AUTHOR,
    )
    .title("Installation")
    .comment("French translation");
    french.locale = Some(Locale::parse("fr").context("the demo locale")?);
    store
        .save_document(&french)
        .context("saving the translation")?;

    store
        .write_attachment(&AttachmentWrite {
            reference: install,
            name: "install-notes.txt".to_owned(),
            content: b"1. Install Rust (rustup.rs).\n2. cargo build --release\n3. wiki-mcp serve\n"
                .to_vec(),
            author: AUTHOR.to_owned(),
            comment: "Install notes".to_owned(),
            expected: Expected::Any,
        })
        .context("saving the demo attachment")?;

    let drafts = DocumentSave::new(
        reference(&main, "Guides.Drafts")?,
        "Unfinished notes: hidden from listings unless asked for.\n",
        AUTHOR,
    )
    .title("Drafts")
    .hidden(true);
    store
        .save_document(&drafts)
        .context("saving the hidden page")?;

    seed_books(store, &main)
}

fn reference(wiki: &WikiId, local: &str) -> Result<DocumentReference> {
    DocumentReference::parse(local, wiki).with_context(|| format!("demo reference {local}"))
}

fn save_pages(store: &dyn Store, wiki: &WikiId, pages: &[(&str, &str, &str)]) -> Result<()> {
    let saves = pages
        .iter()
        .map(|(local, title, content)| {
            Ok(DocumentSave::new(reference(wiki, local)?, *content, AUTHOR)
                .title(*title)
                .comment("Demo content"))
        })
        .collect::<Result<Vec<_>>>()?;
    store
        .save_documents(&saves)
        .with_context(|| format!("saving the demo pages of {wiki}"))?;
    Ok(())
}

/// View for the guest and every registered user, edit for registered users.
fn open_to_everyone(store: &dyn Store, wiki: &WikiId) -> Result<()> {
    let rules = [
        (Subject::User(GUEST_USER.to_owned()), Right::View),
        (Subject::Group(ALL_USERS_GROUP.to_owned()), Right::View),
        (Subject::Group(ALL_USERS_GROUP.to_owned()), Right::Edit),
    ];
    for (subject, right) in rules {
        store
            .set_right(&RightRule {
                scope: RightScope::Wiki(wiki.clone()),
                subject,
                right,
                effect: Effect::Allow,
            })
            .with_context(|| format!("opening {wiki}"))?;
    }
    Ok(())
}

/// Serves requests without a credential on `wiki`'s endpoint, as the guest.
fn admit_the_guest(store: &dyn Store, wiki: &WikiId) -> Result<()> {
    let mut config = store.mcp_config(wiki);
    config.guest_access = true;
    store
        .set_mcp_config(wiki, &config, AUTHOR)
        .with_context(|| format!("opening the endpoint of {wiki} to the guest"))?;
    Ok(())
}

/// Allowing view to registered users at the space restricts it to them (the guest is not one).
fn registered_users_only(store: &dyn Store, wiki: &WikiId, space: &str) -> Result<()> {
    store
        .set_right(&RightRule {
            scope: RightScope::Space {
                wiki: wiki.clone(),
                space: SpacePath::parse(space).context("the private space")?,
            },
            subject: Subject::Group(ALL_USERS_GROUP.to_owned()),
            right: Right::View,
            effect: Effect::Allow,
        })
        .context("restricting the private space")?;
    Ok(())
}

fn seed_books(store: &dyn Store, wiki: &WikiId) -> Result<()> {
    let class_document = reference(wiki, "Library.BookClass")?;
    let fields = [
        ("title", "Title", FieldType::String),
        ("author", "Author", FieldType::String),
        ("pages", "Pages", FieldType::Number(NumberKind::Integer)),
        (
            "status",
            "Status",
            FieldType::StaticList {
                values: vec!["available".into(), "borrowed".into()],
                multiselect: false,
            },
        ),
    ];
    for (name, pretty, field_type) in fields {
        store
            .change_class(&ClassChange {
                class_document: class_document.clone(),
                change: FieldChange::Add {
                    rules: Default::default(),
                    name: name.to_owned(),
                    field_type,
                    pretty_name: Some(pretty.to_owned()),
                },
                author: AUTHOR.to_owned(),
                comment: "Demo class".to_owned(),
                major: false,
                expected: Expected::Any,
            })
            .with_context(|| format!("adding the demo class field {name}"))?;
    }
    let books = [
        (
            "Library.RustBook",
            "The Rust Programming Language",
            "Steve Klabnik, Carol Nichols",
            "560",
            "available",
        ),
        (
            "Library.Pearls",
            "Programming Pearls",
            "Jon Bentley",
            "256",
            "borrowed",
        ),
    ];
    for (page, title, author, pages, status) in books {
        let values = BTreeMap::from([
            ("title".to_owned(), title.to_owned()),
            ("author".to_owned(), author.to_owned()),
            ("pages".to_owned(), pages.to_owned()),
            ("status".to_owned(), status.to_owned()),
        ]);
        store
            .write_object(&ObjectWrite {
                reference: reference(wiki, page)?,
                class: "Library.BookClass".to_owned(),
                number: None,
                values,
                title: None,
                author: AUTHOR.to_owned(),
                comment: "Demo object".to_owned(),
                major: false,
                expected: Expected::Any,
            })
            .with_context(|| format!("saving the demo object on {page}"))?;
    }
    Ok(())
}
