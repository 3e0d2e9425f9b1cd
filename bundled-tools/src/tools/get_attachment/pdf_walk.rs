//! How much work pdf-extract would do on each page, measured before it runs, so the pages
//! handed to it are known to be bounded. pdf-extract interprets a page's content stream, and for
//! every `Do` decodes and interprets the named XObject again (a form drawn 10,000 times is
//! decoded 10,000 times, a form drawing itself recurses until the stack overflows, which no
//! `catch_unwind` survives), and builds every font a page selects (`Tf`) from its streams; a
//! page's `/Parent` chain is followed without a cycle check. This walk mirrors those steps on
//! lopdf's document, parsing each distinct stream once, and charges:
//! - every content byte interpreted, repeats included, and each font's streams once per page,
//!   to a budget for the whole file ([`MAX_WORK_BYTES`]);
//! - the content bytes alive at once along a chain of `Do`s ([`MAX_LIVE_CONTENT`]: lopdf's
//!   parsed form of a content stream is ~30 times its size);
//! - `Do`s per page ([`MAX_DRAWS_PER_PAGE`]) and their nesting ([`MAX_FORM_DEPTH`]).
//!
//! A page past a per-page bound, or whose forms or parents form a cycle, is skipped; when the
//! whole-file budget runs out, the pages after it are not extracted.
//!
//! Written against pdf-extract 0.12.1 (`output_doc_inner`, `Processor::process_stream`,
//! `get_inherited`, `make_font`): when it is upgraded, re-read those and adjust the mirror.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};

use super::pdf_budget::Refusal;
use super::pdf_decode::{Budget, Chain, Filter, charge_decoding};

/// The most bytes of content interpreted (repeats included) and font streams built, per file.
pub(super) const MAX_WORK_BYTES: usize = 128 * 1024 * 1024;

/// The most content bytes interpreted at once along one chain of `Do`s.
pub(super) const MAX_LIVE_CONTENT: usize = 2 * 1024 * 1024;

/// The most `Do` operators one page may execute, nested ones included.
pub(super) const MAX_DRAWS_PER_PAGE: usize = 10_000;

/// The deepest nesting of forms.
pub(super) const MAX_FORM_DEPTH: usize = 16;

/// The most pages considered.
pub(super) const MAX_PAGES: usize = 2_000;

/// The bytes charged for building one font, besides its streams (widths, encodings).
const FONT_OVERHEAD: usize = 4 * 1024;

/// Which pages can be extracted within the budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Plan {
    /// The page numbers to extract, in order.
    pub(super) pages: Vec<u32>,
    /// How many pages the file has.
    pub(super) total: usize,
    /// Pages left out because they alone pass a per-page bound or hold a cycle.
    pub(super) skipped: Vec<u32>,
    /// The first page not reached because the whole-file budget ran out.
    pub(super) stopped_at: Option<u32>,
}

/// The plan for `document`, or the refusal when not even one page fits.
pub(super) fn plan(document: &Document) -> Result<Plan, Refusal> {
    let pages = document.get_pages();
    let mut walk = Walk {
        document,
        work: Budget::new(MAX_WORK_BYTES),
        parsed: HashMap::new(),
        sizes: HashMap::new(),
    };
    let mut plan = Plan {
        pages: Vec::new(),
        total: pages.len(),
        skipped: Vec::new(),
        stopped_at: None,
    };
    let mut recursive = false;
    for (&number, &id) in pages.iter().take(MAX_PAGES) {
        match walk.page(id) {
            Ok(()) => plan.pages.push(number),
            Err(Skip::Page { cycle }) => {
                recursive |= cycle;
                plan.skipped.push(number);
            }
            Err(Skip::Budget) => {
                plan.stopped_at = Some(number);
                break;
            }
        }
    }
    if plan.stopped_at.is_none() && pages.len() > MAX_PAGES {
        plan.stopped_at = u32::try_from(MAX_PAGES + 1).ok();
    }
    if plan.pages.is_empty() && plan.total > 0 {
        return Err(if recursive {
            Refusal::Recursive
        } else {
            Refusal::Work
        });
    }
    Ok(plan)
}

/// Why a page is not extracted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// This page alone passes a per-page bound (or holds a cycle): skip it, try the next.
    Page { cycle: bool },
    /// The whole-file budget ran out: stop.
    Budget,
}

/// What a content stream does, parsed once: its size, the XObjects it draws and the fonts it
/// selects, in order.
struct Parsed {
    size: usize,
    draws: Vec<Vec<u8>>,
    fonts: Vec<Vec<u8>>,
}

struct Walk<'d> {
    document: &'d Document,
    work: Budget,
    /// Parsed forms by object id.
    parsed: HashMap<ObjectId, Rc<Parsed>>,
    /// Decoded sizes of streams by object id.
    sizes: HashMap<ObjectId, usize>,
}

/// One page's state while it is walked.
struct PageWalk {
    draws: usize,
    fonts: HashSet<Vec<u8>>,
    /// The forms being drawn, outermost first (a form inside itself is a cycle).
    stack: Vec<ObjectId>,
    live: usize,
}

impl<'d> Walk<'d> {
    /// Walks one page; on a per-page failure the whole-file budget is left as it was.
    fn page(&mut self, id: ObjectId) -> Result<(), Skip> {
        let before = self.work;
        let result = self.page_inner(id);
        if matches!(result, Err(Skip::Page { .. })) {
            self.work = before;
        }
        result
    }

    fn page_inner(&mut self, id: ObjectId) -> Result<(), Skip> {
        let page = self
            .document
            .get_dictionary(id)
            .map_err(|_| Skip::Page { cycle: false })?;
        // pdf-extract looks both up through /Parent without a cycle check.
        let resources = self.inherited(page, b"Resources")?;
        self.inherited(page, b"MediaBox")?;
        let resources = resources.and_then(|object| object.as_dict().ok());
        let content = self
            .document
            .get_page_content(id)
            .map_err(|_| Skip::Page { cycle: false })?;
        if content.len() > MAX_LIVE_CONTENT {
            return Err(Skip::Page { cycle: false });
        }
        let parsed = parse(&content);
        let mut state = PageWalk {
            draws: 0,
            fonts: HashSet::new(),
            stack: Vec::new(),
            live: 0,
        };
        self.interpret(&parsed, resources, &mut state)
    }

    /// `key` in `dictionary` or up its `/Parent` chain, as pdf-extract's `get_inherited` finds
    /// it; a cycle reached before the key is found skips the page.
    fn inherited(
        &self,
        mut dictionary: &'d Dictionary,
        key: &[u8],
    ) -> Result<Option<&'d Object>, Skip> {
        let mut seen = HashSet::new();
        loop {
            if let Ok(value) = dictionary.get(key) {
                return Ok(self.document.dereference(value).ok().map(|(_, o)| o));
            }
            let Ok(parent) = dictionary.get(b"Parent").and_then(Object::as_reference) else {
                return Ok(None);
            };
            if !seen.insert(parent) {
                return Err(Skip::Page { cycle: true });
            }
            let Ok(next) = self.document.get_dictionary(parent) else {
                return Ok(None);
            };
            dictionary = next;
        }
    }

    /// Charges one interpretation of `parsed` with `resources`: its bytes, its fonts (once per
    /// page), and every XObject it draws, recursively.
    fn interpret(
        &mut self,
        parsed: &Parsed,
        resources: Option<&'d Dictionary>,
        state: &mut PageWalk,
    ) -> Result<(), Skip> {
        state.live += parsed.size;
        if state.live > MAX_LIVE_CONTENT {
            return Err(Skip::Page { cycle: false });
        }
        self.work.charge(parsed.size).map_err(|_| Skip::Budget)?;
        for font in &parsed.fonts {
            if state.fonts.insert(font.clone()) {
                self.charge_font(resources, font)?;
            }
        }
        for name in &parsed.draws {
            state.draws += 1;
            if state.draws > MAX_DRAWS_PER_PAGE || state.stack.len() >= MAX_FORM_DEPTH {
                return Err(Skip::Page { cycle: false });
            }
            let Some((id, stream)) = self.xobject(resources, name) else {
                // pdf-extract fails this page on a missing XObject; nothing more to charge.
                continue;
            };
            if let Some(id) = id {
                if state.stack.contains(&id) {
                    return Err(Skip::Page { cycle: true });
                }
                state.stack.push(id);
            }
            let form = self.parsed_form(id, stream)?;
            let inner = self
                .document
                .dereference(stream.dict.get(b"Resources").unwrap_or(&Object::Null))
                .ok()
                .and_then(|(_, object)| object.as_dict().ok())
                .or(resources);
            self.interpret(&form, inner, state)?;
            if id.is_some() {
                state.stack.pop();
            }
        }
        state.live -= parsed.size;
        Ok(())
    }

    /// The XObject `name` of `resources` (through references), with its object id.
    fn xobject(
        &self,
        resources: Option<&'d Dictionary>,
        name: &[u8],
    ) -> Option<(Option<ObjectId>, &'d lopdf::Stream)> {
        let (_, xobjects) = self
            .document
            .dereference(resources?.get(b"XObject").ok()?)
            .ok()?;
        let (id, object) = self
            .document
            .dereference(xobjects.as_dict().ok()?.get(name).ok()?)
            .ok()?;
        Some((id, object.as_stream().ok()?))
    }

    /// The parsed content of an XObject, decoded and parsed once per object.
    fn parsed_form(
        &mut self,
        id: Option<ObjectId>,
        stream: &lopdf::Stream,
    ) -> Result<Rc<Parsed>, Skip> {
        if let Some(parsed) = id.and_then(|id| self.parsed.get(&id)) {
            return Ok(Rc::clone(parsed));
        }
        let size = self.decoded_size(id, stream);
        if size > MAX_LIVE_CONTENT {
            return Err(Skip::Page { cycle: false });
        }
        let content = stream
            .decompressed_content()
            .unwrap_or_else(|_| stream.content.clone());
        let parsed = Rc::new(parse(&content));
        if let Some(id) = id {
            self.parsed.insert(id, Rc::clone(&parsed));
        }
        Ok(parsed)
    }

    /// Charges building font `name` of `resources`: its ToUnicode, Encoding and font-file
    /// streams (its descendant fonts' too) and a fixed overhead.
    fn charge_font(&mut self, resources: Option<&'d Dictionary>, name: &[u8]) -> Result<(), Skip> {
        let mut bytes = FONT_OVERHEAD;
        let font = resources
            .and_then(|resources| self.dictionary_at(resources, b"Font"))
            .and_then(|fonts| self.dictionary_at(fonts, name));
        if let Some(font) = font {
            let mut dictionaries = vec![font];
            if let Some(Object::Array(descendants)) = self.resolved(font, b"DescendantFonts") {
                dictionaries.extend(descendants.iter().filter_map(|descendant| {
                    self.document
                        .dereference(descendant)
                        .ok()
                        .and_then(|(_, object)| object.as_dict().ok())
                }));
            }
            for dictionary in dictionaries {
                for key in [&b"ToUnicode"[..], b"Encoding"] {
                    bytes = bytes.saturating_add(self.stream_size(dictionary, key));
                }
                if let Some(descriptor) = self.dictionary_at(dictionary, b"FontDescriptor") {
                    for key in [&b"FontFile"[..], b"FontFile2", b"FontFile3"] {
                        bytes = bytes.saturating_add(self.stream_size(descriptor, key));
                    }
                }
            }
        }
        self.work.charge(bytes).map_err(|_| Skip::Budget)
    }

    fn resolved(&self, dictionary: &'d Dictionary, key: &[u8]) -> Option<&'d Object> {
        self.document
            .dereference(dictionary.get(key).ok()?)
            .ok()
            .map(|(_, object)| object)
    }

    fn dictionary_at(&self, dictionary: &'d Dictionary, key: &[u8]) -> Option<&'d Dictionary> {
        self.resolved(dictionary, key)?.as_dict().ok()
    }

    /// The decoded size of the stream at `key`, 0 when there is none.
    fn stream_size(&mut self, dictionary: &'d Dictionary, key: &[u8]) -> usize {
        let Ok(value) = dictionary.get(key) else {
            return 0;
        };
        match self.document.dereference(value) {
            Ok((id, Object::Stream(stream))) => self.decoded_size(id, stream),
            _ => 0,
        }
    }

    /// The decoded size of `stream` (counted, not kept; the load already bounded it).
    fn decoded_size(&mut self, id: Option<ObjectId>, stream: &lopdf::Stream) -> usize {
        if let Some(size) = id.and_then(|id| self.sizes.get(&id)) {
            return *size;
        }
        let filters = stream
            .filters()
            .map(|names| names.into_iter().map(Filter::from_name).collect())
            .unwrap_or_default();
        let chain = Chain::new(filters, |_| None);
        let mut unbounded = Budget::new(usize::MAX);
        let size = charge_decoding(&stream.content, &chain, &mut unbounded).unwrap_or(usize::MAX);
        if let Some(id) = id {
            self.sizes.insert(id, size);
        }
        size
    }
}

/// The XObjects a content stream draws and the fonts it selects.
fn parse(content: &[u8]) -> Parsed {
    let mut parsed = Parsed {
        size: content.len(),
        draws: Vec::new(),
        fonts: Vec::new(),
    };
    let Ok(decoded) = Content::decode(content) else {
        // pdf-extract fails the page on a content stream lopdf cannot parse.
        return parsed;
    };
    for operation in decoded.operations {
        let name = operation
            .operands
            .first()
            .and_then(|operand| operand.as_name().ok());
        match (operation.operator.as_str(), name) {
            ("Do", Some(name)) => parsed.draws.push(name.to_vec()),
            ("Tf", Some(name)) if !parsed.fonts.iter().any(|font| font == name) => {
                parsed.fonts.push(name.to_vec());
            }
            _ => {}
        }
    }
    parsed
}
