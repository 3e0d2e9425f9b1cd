//! The budget of one PDF extraction, enforced BEFORE the expensive part can run: pdf-extract
//! (over lopdf) cannot be interrupted, so what it would do is bounded by refusing the input.
//!
//! 1. [`check_structure`]: the cross-reference chain lopdf reads first (`startxref`, then each
//!    `/Prev` and `/XRefStm`), parsed as lopdf parses it ([`crate::syntax`]). A
//!    cross-reference stream is inflated inside lopdf's loader, so its decoded size is charged
//!    here, with a bounded decoder; an `/Encrypt` entry in any trailer means the file is
//!    encrypted (the tool does not decrypt; lopdf's encrypted path would skip step 2).
//! 2. [`load`]: lopdf loads the file with a filter that sees every object before lopdf
//!    decompresses any object stream, and charges each stream's decoded size (lopdf's own
//!    dictionary, so nothing is read differently) and the object count. The first object past
//!    a budget stops the load. Streams whose content lopdf fills in afterwards are charged
//!    right after the load.
//!
//! Written against lopdf 0.42 (`Reader::read`, `load_objects_raw`, `Stream::decompressed_content`,
//! `parser::xref_and_trailer`): when it is upgraded, re-read what its loader inflates.
//!
//! The decoded bytes are counted, never kept (a single-filter stream is counted through a 16 KB
//! buffer), so a bomb is refused after reading what the budget allows, not after allocating it.

use std::cell::RefCell;
use std::collections::HashSet;

use lopdf::{Document, LoadOptions, Object, ObjectId};

use crate::Refusal;
use crate::decode::{Budget, Chain, Filter, charge_decoding};
use crate::syntax::{Syntax, Value};

/// The most cross-reference sections followed.
const MAX_XREF_SECTIONS: usize = 64;

/// Step 1: the cross-reference chain, with every cross-reference stream's decoded size charged
/// to `budget` and every trailer checked for `/Encrypt`.
pub(crate) fn check_structure(file: &[u8], budget: &mut Budget) -> Result<(), Refusal> {
    // lopdf reads from the `%PDF-` header on; offsets count from there.
    let start = find(file, b"%PDF-", 0).unwrap_or(0);
    let buffer = &file[start..];
    let first = xref_start(buffer).ok_or(Refusal::Unreadable)?;
    let mut pending = vec![first];
    let mut seen = HashSet::new();
    while let Some(offset) = pending.pop() {
        if !seen.insert(offset) {
            continue;
        }
        if seen.len() > MAX_XREF_SECTIONS {
            return Err(Refusal::Unreadable);
        }
        let dictionary = xref_section(buffer, offset, budget)?;
        if dictionary.get(b"Encrypt").is_some() {
            return Err(Refusal::Encrypted);
        }
        for key in [&b"Prev"[..], b"XRefStm"] {
            if let Some(next) = dictionary.get(key).and_then(Value::integer) {
                pending.push(usize::try_from(next).map_err(|_| Refusal::Unreadable)?);
            }
        }
    }
    Ok(())
}

/// `startxref` as lopdf finds it: the last `%%EOF` in the last 512 bytes, the last
/// `startxref` in the 25 bytes before it, then the offset on the next line.
fn xref_start(buffer: &[u8]) -> Option<usize> {
    let tail = buffer.len().saturating_sub(512);
    let eof = rfind(buffer, b"%%EOF", tail).filter(|&at| at > 25)?;
    let keyword = rfind(buffer.get(..eof)?, b"startxref", eof - 25)?;
    let mut syntax = Syntax::at(buffer, keyword + b"startxref".len());
    syntax.keyword(b" ");
    syntax.eol().then_some(())?;
    syntax.blanks();
    let offset = syntax.unsigned()?;
    usize::try_from(offset)
        .ok()
        .filter(|&offset| offset <= buffer.len())
}

/// The dictionary of the section at `offset`: a classic table's trailer, or a cross-reference
/// stream's dictionary (its data charged to `budget`).
fn xref_section(buffer: &[u8], offset: usize, budget: &mut Budget) -> Result<Value, Refusal> {
    let section = buffer.get(offset..).ok_or(Refusal::Unreadable)?;
    if section.starts_with(b"xref") {
        let trailer = find(section, b"trailer", 0).ok_or(Refusal::Unreadable)?;
        let mut syntax = Syntax::at(section, trailer + b"trailer".len());
        syntax.space();
        return syntax.value().ok_or(Refusal::Unreadable);
    }
    let mut syntax = Syntax::at(section, 0);
    syntax.object_header().ok_or(Refusal::Unreadable)?;
    let dictionary = syntax.value().ok_or(Refusal::Unreadable)?;
    syntax.space();
    if syntax.keyword(b"stream") {
        syntax.blanks();
        if !syntax.eol() {
            return Err(Refusal::Unreadable);
        }
        // lopdf takes a direct /Length of bytes; with an indirect one it reads nothing here.
        if let Some(length) = dictionary.get(b"Length").and_then(Value::integer) {
            let length = usize::try_from(length).map_err(|_| Refusal::Unreadable)?;
            let data = section
                .get(syntax.position()..)
                .and_then(|rest| rest.get(..length))
                .ok_or(Refusal::Unreadable)?;
            charge_decoding(data, &chain_of_value(&dictionary), budget)?;
        }
    }
    Ok(dictionary)
}

/// The decoding chain of a stream dictionary read by [`Syntax`].
fn chain_of_value(dictionary: &Value) -> Chain {
    let filters = match dictionary.get(b"Filter") {
        Some(Value::Name(name)) => vec![Filter::from_name(name)],
        Some(Value::Array(names)) => names
            .iter()
            .map(|name| match name {
                Value::Name(name) => Filter::from_name(name),
                _ => Filter::Unsupported,
            })
            .collect(),
        // No filter, or an indirect one lopdf does not follow.
        _ => Vec::new(),
    };
    let params = match dictionary.get(b"DecodeParms") {
        Some(params @ Value::Dictionary(_)) => Some(params),
        _ => None,
    };
    Chain::new(filters, |key| {
        params.and_then(|p| p.get(key)).and_then(Value::integer)
    })
}

/// The decoding chain of a stream dictionary read by lopdf, exactly as
/// `Stream::decompressed_content` reads it.
fn chain_of_stream(stream: &lopdf::Stream) -> Chain {
    let filters = match stream.filters() {
        Ok(names) => names.into_iter().map(Filter::from_name).collect(),
        Err(_) => Vec::new(),
    };
    let params = stream
        .dict
        .get(b"DecodeParms")
        .and_then(Object::as_dict)
        .ok();
    Chain::new(filters, |key| {
        params
            .and_then(|p| p.get(key).ok())
            .and_then(|value| value.as_i64().ok())
    })
}

/// What the load filter has charged so far (lopdf's filter is a plain `fn`, so its state lives
/// in a thread-local for the duration of one [`load`] on this thread).
struct LoadState {
    budget: Budget,
    max_objects: usize,
    objects: usize,
    charged: HashSet<ObjectId>,
    refused: Option<Refusal>,
}

thread_local! {
    static LOADING: RefCell<Option<LoadState>> = const { RefCell::new(None) };
}

/// Step 2: lopdf's load, charging every object and stream to `budget` before lopdf decodes
/// any object stream; then the streams lopdf completed after its filter ran.
pub(crate) fn load(
    file: &[u8],
    budget: &mut Budget,
    max_objects: usize,
) -> Result<Document, Refusal> {
    LOADING.with_borrow_mut(|state| {
        *state = Some(LoadState {
            budget: *budget,
            max_objects,
            objects: 0,
            charged: HashSet::new(),
            refused: None,
        });
    });
    let options = LoadOptions {
        filter: Some(charge_object),
        ..LoadOptions::default()
    };
    let loaded = Document::load_mem_with_options(file, options);
    let state = LOADING.with_borrow_mut(Option::take);
    let Some(mut state) = state else {
        return Err(Refusal::Unreadable);
    };
    if let Some(refusal) = state.refused {
        return Err(refusal);
    }
    let document = loaded.map_err(|_| Refusal::Unreadable)?;
    for (id, object) in &document.objects {
        if let Object::Stream(stream) = object
            && !state.charged.contains(id)
        {
            charge_decoding(&stream.content, &chain_of_stream(stream), &mut state.budget)?;
        }
    }
    *budget = state.budget;
    Ok(document)
}

/// lopdf's load filter: counts the object and charges a stream's decoded size; past a budget
/// it empties the stream (so an object stream is not inflated) and drops it.
fn charge_object(id: ObjectId, object: &mut Object) -> Option<(ObjectId, Object)> {
    LOADING.with_borrow_mut(|state| {
        let state = state.as_mut()?;
        let verdict = if state.refused.is_some() {
            Err(Refusal::Objects {
                max: state.max_objects,
            })
        } else {
            state.objects += 1;
            if state.objects > state.max_objects {
                Err(Refusal::Objects {
                    max: state.max_objects,
                })
            } else if let Object::Stream(stream) = object {
                state.charged.insert(id);
                charge_decoding(&stream.content, &chain_of_stream(stream), &mut state.budget)
                    .map(|_| ())
                    .map_err(Refusal::from)
            } else {
                Ok(())
            }
        };
        match verdict {
            // lopdf keeps its own object for top-level entries and ignores what is returned,
            // but stores what is returned for an object stream's members (never streams).
            Ok(()) if matches!(object, Object::Stream(_)) => Some((id, Object::Null)),
            Ok(()) => Some((id, object.clone())),
            Err(refusal) => {
                state.refused.get_or_insert(refusal);
                if let Object::Stream(stream) = object {
                    stream.content = Vec::new();
                }
                None
            }
        }
    })
}

/// The first `pattern` in `bytes` at or after `from`.
fn find(bytes: &[u8], pattern: &[u8], from: usize) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(pattern.len())
        .position(|window| window == pattern)
        .map(|at| from + at)
}

/// The last `pattern` in `bytes` at or after `from`.
fn rfind(bytes: &[u8], pattern: &[u8], from: usize) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(pattern.len())
        .rposition(|window| window == pattern)
        .map(|at| from + at)
}
