//! "Refused, and nothing written": the shape of every write tool's refusal tests, folded into
//! [`Farm::refused_and_unchanged`] (any call) and its two common forms, [`Farm::refuses`] (one
//! tool call on `main`) and [`Farm::refuses_the_guest_and_a_reader`]. Each snapshots what a write
//! could have touched, runs the call, checks the refusal's text, and checks the snapshot is
//! identical after.

use serde_json::Value;
use wiki_tool_sdk::store::model::attachment::AttachmentInfo;
use wiki_tool_sdk::store::model::class::ClassDefinition;
use wiki_tool_sdk::store::model::document::{Document, DocumentLocales};
use wiki_tool_sdk::store::model::object::ObjectRecord;
use wiki_tool_sdk::store::model::trash::TrashEntry;
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::DocumentReference;

use super::{Farm, GUEST, ok, reference, wiki};

/// One thing a refusal's text must say.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Says<'a> {
    /// The whole text, to the letter.
    Exactly(&'a str),
    /// The text's beginning.
    StartsWith(&'a str),
    /// Anywhere in the text.
    Contains(&'a str),
    /// The text's end (most refusals end with "Nothing was saved.").
    EndsWith(&'a str),
}

impl Says<'_> {
    fn holds_for(self, text: &str) -> bool {
        match self {
            Says::Exactly(expected) => text == expected,
            Says::StartsWith(expected) => text.starts_with(expected),
            Says::Contains(expected) => text.contains(expected),
            Says::EndsWith(expected) => text.ends_with(expected),
        }
    }
}

/// Everything a write tool could change about one document, and the store's change sequence,
/// which any committed write advances (so a write elsewhere is caught too).
#[derive(Debug, PartialEq)]
struct Snapshot {
    change_seq: u64,
    locales: Option<DocumentLocales>,
    /// The default row, then each translation's.
    rows: Vec<Option<Document>>,
    /// Each attachment's current version with its bytes.
    attachments: Vec<(AttachmentInfo, Vec<u8>)>,
    objects: Vec<ObjectRecord>,
    class: Option<ClassDefinition>,
    /// The recycle bin of the document's wiki.
    trash: Vec<TrashEntry>,
}

impl Snapshot {
    fn take(farm: &Farm, document: &DocumentReference) -> Self {
        let store = &farm.store;
        let change_seq = ok(store.change_seq());
        let trash = ok(store.trash(document.wiki()));
        // A missing document has no rows, attachments, objects or class (and the store refuses
        // to list them): its snapshot is its absence, which `locales` records.
        let Some(locales) = ok(store.document_locales(document)) else {
            return Self {
                change_seq,
                locales: None,
                rows: Vec::new(),
                attachments: Vec::new(),
                objects: Vec::new(),
                class: None,
                trash,
            };
        };
        let rows = std::iter::once(None)
            .chain(locales.translations.iter().map(Some))
            .map(|locale| ok(store.document(document, locale)))
            .collect();
        let attachments = ok(store.attachments(document))
            .iter()
            .filter_map(|info| ok(store.attachment_content(document, &info.name, None)))
            .collect();
        Self {
            change_seq,
            locales: Some(locales),
            rows,
            attachments,
            objects: ok(store.objects(document)),
            class: ok(store.class(document)),
            trash,
        }
    }
}

impl Farm {
    /// Runs `call` (a tool call on this farm, not yet awaited) and asserts that it was refused
    /// (`isError`) with a text that says every one of `says`, and that it wrote nothing: the
    /// store's change sequence, and the rows, attachments (with their bytes), objects and class
    /// of the document `text` (a reference, resolved in `main` unless prefixed), and its wiki's
    /// recycle bin are all as they were. Returns the refusal's text.
    pub(crate) async fn refused_and_unchanged(
        &self,
        text: &str,
        call: impl Future<Output = Result<String, String>>,
        says: &[Says<'_>],
    ) -> String {
        self.refused_keeping(&reference(text), call, says).await
    }

    /// [`Farm::refused_and_unchanged`] for `tool` called with `arguments` as `user` on `main`'s
    /// endpoint, watching the document the arguments name (`reference`, in `wiki` if given).
    /// The caller's person accepts any confirmation, so a tool declared `confirm` is refused
    /// for its own reason, not for want of a yes.
    pub(crate) async fn refuses(
        &self,
        tool: &str,
        user: &str,
        arguments: Value,
        says: &[Says<'_>],
    ) -> String {
        let document = named_document(&arguments);
        let call = self.call_confirmed(tool, arguments, user, "main");
        self.refused_keeping(&document, call, says).await
    }

    /// The guest is not even offered `tool` (the write tools are for authenticated users: the
    /// refusal says so), and bob, who may view `main` but not edit it, is refused edit
    /// permission on the document `arguments` name; neither writes anything.
    pub(crate) async fn refuses_the_guest_and_a_reader(&self, tool: &str, arguments: Value) {
        let not_offered = format!("Tool '{tool}' changes content, which guests cannot do.");
        self.refuses(
            tool,
            GUEST,
            arguments.clone(),
            &[Says::StartsWith(&not_offered)],
        )
        .await;
        let document = named_document(&arguments);
        let denied = format!("You do not have permission to edit \"{document}\".");
        self.refuses(tool, "bob", arguments, &[Says::Exactly(&denied)])
            .await;
    }

    async fn refused_keeping(
        &self,
        document: &DocumentReference,
        call: impl Future<Output = Result<String, String>>,
        says: &[Says<'_>],
    ) -> String {
        let before = Snapshot::take(self, document);
        let refusal = match call.await {
            Ok(output) => panic!("expected a refusal, got:\n{output}"),
            Err(refusal) => refusal,
        };
        for expected in says {
            assert!(
                expected.holds_for(&refusal),
                "the refusal does not say {expected:?}:\n{refusal}"
            );
        }
        let after = Snapshot::take(self, document);
        assert!(
            after == before,
            "the refusal wrote to {document}:\n{refusal}\n--- before ---\n{before:#?}\n--- after \
             ---\n{after:#?}"
        );
        refusal
    }
}

/// The document a write tool's arguments name: `reference`, resolved in `wiki` (else `main`).
fn named_document(arguments: &Value) -> DocumentReference {
    let text = arguments["reference"]
        .as_str()
        .unwrap_or_else(|| panic!("no 'reference' to watch in {arguments}"));
    let home = arguments["wiki"].as_str().map_or_else(WikiId::main, wiki);
    ok(DocumentReference::parse(text, &home))
}
