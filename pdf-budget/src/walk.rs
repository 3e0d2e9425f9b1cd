//! How much work pdf-extract would do on each page, measured before it runs, so the pages
//! handed to it are known to be bounded. pdf-extract interprets a page's content stream, and for
//! every `Do` decodes and interprets the named XObject again (a form drawn 10,000 times is
//! decoded 10,000 times, a form drawing itself recurses until the stack overflows, which no
//! `catch_unwind` survives), and builds every font a page selects (`Tf`) from its streams; a
//! page's `/Parent` chain is followed without a cycle check. This walk mirrors those steps on
//! lopdf's document, parsing each distinct stream once, and charges:
//! - every operation interpreted, repeats included (its operands, and for `Tj` and `TJ` every
//!   string and glyph shown), and each font's streams once per page, to a work budget for the
//!   whole file ([`crate::Limits::max_work`]); its own parsing of each distinct stream too;
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

use crate::Refusal;
use crate::decode::{Budget, Chain, Filter, charge_decoding};

/// The most content bytes interpreted at once along one chain of `Do`s.
pub(crate) const MAX_LIVE_CONTENT: usize = 2 * 1024 * 1024;

/// The most `Do` operators one page may execute, nested ones included.
pub(crate) const MAX_DRAWS_PER_PAGE: usize = 10_000;

/// The deepest nesting of forms.
pub(crate) const MAX_FORM_DEPTH: usize = 16;

/// The most pages considered.
pub(crate) const MAX_PAGES: usize = 2_000;

/// The work of building one font, besides its streams (widths, encodings).
const FONT_OVERHEAD: usize = 4 * 1024;

// The work of what pdf-extract does, in units of about 100 ns of one core of the machine the
// benchmarks ran on (release build), measured on pages of one repeated operation: `q Q` pairs,
// `cm` with six operands, `Tf`, `TJ` with long arrays of numbers, short and long `Tj` strings.
// Each measured page took within a factor of two of what these constants charge it.

/// The work of one operation (lopdf's parse of it and pdf-extract's dispatch), besides its
/// operands and bytes. A font selection (`Tf`) is one operation with two operands.
pub(crate) const OPERATION_WORK: usize = 15;

/// The work of one operand object (array elements each count).
pub(crate) const OPERAND_WORK: usize = 7;

/// Content bytes per unit of work, besides the operations they hold.
const BYTES_PER_WORK: usize = 8;

/// The work of showing one string (`Tj`, or a string of `TJ`): the start and the end of a word,
/// the text state's transforms. Half of it is metered at each end.
pub(crate) const SHOWN_STRING_WORK: usize = 70;

/// The work of one glyph shown: a font lookup, a width, three transforms and a write. A string
/// shows at most one glyph per byte.
pub(crate) const GLYPH_WORK: usize = 4;

/// Parsing a content stream takes at most this much work per byte (a stream of `q Q` pairs, the
/// densest in operations), so a stream is parsed only when the budget left could pay for that.
const MAX_WORK_PER_BYTE: usize = 8;

/// Which pages can be extracted within the budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The page numbers to extract, in order.
    pub(crate) pages: Vec<u32>,
    /// How many pages the file has.
    pub(crate) total: usize,
    /// Pages left out because they alone pass a per-page bound or hold a cycle.
    pub(crate) skipped: Vec<u32>,
    /// The first page not reached because the whole-file budget ran out (or the walk was
    /// halted there).
    pub(crate) stopped_at: Option<u32>,
    /// Whether `halt` ended the walk (then `stopped_at` is where).
    pub(crate) halted: bool,
    /// The work the planned pages take, all together, the walk's own parsing included.
    pub(crate) work: usize,
    /// The part of `work` that is output calls (strings and glyphs shown): what the metered
    /// output will see at most.
    pub(crate) output_work: usize,
}

/// The plan for `document` within `max_work`, or the refusal when not even one page fits.
/// `halt` is asked before each page: once it says true, the pages left are not planned.
pub(crate) fn plan(
    document: &Document,
    max_work: usize,
    halt: &dyn Fn() -> bool,
) -> Result<Plan, Refusal> {
    let pages = document.get_pages();
    let mut walk = Walk {
        document,
        work: Budget::new(max_work),
        output_work: 0,
        parsed: HashMap::new(),
        contents: HashMap::new(),
        sizes: HashMap::new(),
    };
    let mut plan = Plan {
        pages: Vec::new(),
        total: pages.len(),
        skipped: Vec::new(),
        stopped_at: None,
        halted: false,
        work: 0,
        output_work: 0,
    };
    let mut recursive = false;
    for (&number, &id) in pages.iter().take(MAX_PAGES) {
        if halt() {
            plan.stopped_at = Some(number);
            plan.halted = true;
            break;
        }
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
    plan.work = walk.work.spent();
    plan.output_work = walk.output_work;
    if plan.pages.is_empty() && plan.total > 0 && !plan.halted {
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

/// What a content stream does, parsed once: its size, the work of its own operations (nested
/// forms not included) and the part of it that is output calls, the XObjects it draws and the
/// fonts it selects, in order.
struct Parsed {
    size: usize,
    work: usize,
    output_work: usize,
    draws: Vec<Vec<u8>>,
    fonts: Vec<Vec<u8>>,
}

struct Walk<'d> {
    document: &'d Document,
    work: Budget,
    /// The output calls' part of the work charged so far.
    output_work: usize,
    /// Parsed forms by object id.
    parsed: HashMap<ObjectId, Rc<Parsed>>,
    /// Parsed page contents by their streams' ids (pages may share their content).
    contents: HashMap<Vec<ObjectId>, Rc<Parsed>>,
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
        let before = (self.work, self.output_work);
        let result = self.page_inner(id);
        if matches!(result, Err(Skip::Page { .. })) {
            (self.work, self.output_work) = before;
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
        let parsed = self.page_content(id)?;
        let mut state = PageWalk {
            draws: 0,
            fonts: HashSet::new(),
            stack: Vec::new(),
            live: 0,
        };
        self.interpret(&parsed, resources, &mut state)
    }

    /// Parses `content` if the budget left could pay for the densest stream of its size, and
    /// charges what parsing it took (its operations' work): the walk's own parsing is work too.
    fn parse_within_budget(&mut self, content: &[u8]) -> Result<Rc<Parsed>, Skip> {
        if content.len().saturating_mul(MAX_WORK_PER_BYTE) > self.work.left() {
            return Err(Skip::Budget);
        }
        let parsed = parse(content);
        self.work.charge(parsed.work).map_err(|_| Skip::Budget)?;
        Ok(Rc::new(parsed))
    }

    /// The parsed content of page `id`, parsed once for all the pages that share it.
    fn page_content(&mut self, id: ObjectId) -> Result<Rc<Parsed>, Skip> {
        let streams = self.document.get_page_contents(id);
        if let Some(parsed) = self.contents.get(&streams) {
            return Ok(Rc::clone(parsed));
        }
        let content = self
            .document
            .get_page_content(id)
            .map_err(|_| Skip::Page { cycle: false })?;
        if content.len() > MAX_LIVE_CONTENT {
            return Err(Skip::Page { cycle: false });
        }
        let parsed = self.parse_within_budget(&content)?;
        self.contents.insert(streams, Rc::clone(&parsed));
        Ok(parsed)
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

    /// Charges one interpretation of `parsed` with `resources`: its operations, its fonts (once
    /// per page), and every XObject it draws, recursively.
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
        self.work.charge(parsed.work).map_err(|_| Skip::Budget)?;
        self.output_work = self.output_work.saturating_add(parsed.output_work);
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
        let parsed = self.parse_within_budget(&content)?;
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

/// The XObjects a content stream draws, the fonts it selects and the work of its operations.
fn parse(content: &[u8]) -> Parsed {
    let mut parsed = Parsed {
        size: content.len(),
        work: content.len() / BYTES_PER_WORK,
        output_work: 0,
        draws: Vec::new(),
        fonts: Vec::new(),
    };
    let Ok(decoded) = Content::decode(content) else {
        // pdf-extract fails the page on a content stream lopdf cannot parse.
        return parsed;
    };
    for operation in decoded.operations {
        let output = output_work(&operation);
        parsed.output_work = parsed.output_work.saturating_add(output);
        parsed.work = parsed
            .work
            .saturating_add(OPERATION_WORK)
            .saturating_add(operands_work(&operation.operands))
            .saturating_add(output);
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

/// The output calls of an operation: for `Tj` and `TJ` (pdf-extract shows no other operator's
/// strings), the start and the end of each string shown and one glyph per byte at most.
fn output_work(operation: &lopdf::content::Operation) -> usize {
    let shown = |object: &Object| match object {
        Object::String(bytes, _) => bytes
            .len()
            .saturating_mul(GLYPH_WORK)
            .saturating_add(SHOWN_STRING_WORK),
        _ => 0,
    };
    match operation.operator.as_str() {
        "Tj" => operation.operands.first().map_or(0, shown),
        "TJ" => match operation.operands.first() {
            Some(Object::Array(items)) => items
                .iter()
                .fold(0, |work: usize, item| work.saturating_add(shown(item))),
            _ => 0,
        },
        _ => 0,
    }
}

/// The work of operands: one per object, each element of an array or dictionary counted.
fn operands_work(operands: &[Object]) -> usize {
    operands.iter().fold(0, |work: usize, operand| {
        let inner = match operand {
            Object::Array(items) => operands_work(items),
            Object::Dictionary(entries) => entries.iter().fold(0, |work: usize, (_, value)| {
                work.saturating_add(operands_work(std::slice::from_ref(value)))
            }),
            _ => 0,
        };
        work.saturating_add(OPERAND_WORK).saturating_add(inner)
    })
}
