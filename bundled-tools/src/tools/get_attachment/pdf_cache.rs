//! Extracted PDF text, kept per attachment version: paging through a PDF's windows (each a call
//! with a new `offset`) extracts it once, not once per window. Least recently used entries go
//! first once the cache holds [`MAX_CACHE_BYTES`]; refusals are kept too (they are as costly to
//! reach as text), and so is the progress of an extraction that was stopped, which the next
//! call resumes.
//!
//! The key is the attachment's identity as the store lists it: wiki, document, file name, its
//! version, upload time and size. The version alone is not enough: an attachment deleted and
//! uploaded again restarts at 1.1 with other bytes.

use std::sync::{Arc, LazyLock, Mutex};

use hashlink::LruCache;
use wiki_tool_sdk::store::model::attachment::AttachmentInfo;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::time::OffsetDateTime;

use pdf_budget::Outcome;

/// The most bytes of extracted text kept, all entries together.
pub(super) const MAX_CACHE_BYTES: usize = 32 * 1024 * 1024;

/// The bytes an entry costs besides its text (key, bookkeeping).
const ENTRY_OVERHEAD: usize = 256;

/// One attachment version.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Key {
    reference: String,
    name: String,
    version: String,
    date: OffsetDateTime,
    size: u64,
}

impl Key {
    /// The key of `info` on `reference` (wiki-qualified).
    pub(super) fn of(reference: &DocumentReference, info: &AttachmentInfo) -> Self {
        Self {
            reference: reference.to_string(),
            name: info.name.clone(),
            version: info.version.to_string(),
            date: info.date,
            size: info.size,
        }
    }

    fn weight(&self, value: &Outcome) -> usize {
        let value = match value {
            Outcome::Done(extracted) => extracted.weight(),
            Outcome::Stopped(progress) => progress.weight(),
        };
        ENTRY_OVERHEAD + self.reference.len() + self.name.len() + value
    }
}

/// A least-recently-used map weighed in bytes.
pub(super) struct TextCache {
    inner: Mutex<Inner>,
    capacity: usize,
}

struct Inner {
    entries: LruCache<Key, Arc<Outcome>>,
    bytes: usize,
}

/// The process's cache of extracted PDF text.
pub(super) static PDF_TEXTS: LazyLock<TextCache> =
    LazyLock::new(|| TextCache::new(MAX_CACHE_BYTES));

impl TextCache {
    fn new(capacity: usize) -> Self {
        Self {
            inner: Mutex::new(Inner {
                entries: LruCache::new_unbounded(),
                bytes: 0,
            }),
            capacity,
        }
    }

    /// The entry for `key`, now the most recently used.
    pub(super) fn get(&self, key: &Key) -> Option<Arc<Outcome>> {
        let mut inner = self
            .inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        inner.entries.get(key).map(Arc::clone)
    }

    /// Keeps `outcome` for `key` unless what is kept there already went further (an ended
    /// extraction, or one stopped after more pages: two calls may run one file at once), and
    /// returns what is kept.
    pub(super) fn advance(&self, key: Key, outcome: Outcome) -> Arc<Outcome> {
        let further = |kept: &Outcome| match (kept, &outcome) {
            (Outcome::Done(_), _) => true,
            (Outcome::Stopped(kept), Outcome::Stopped(new)) => kept.pages_read() > new.pages_read(),
            (Outcome::Stopped(_), Outcome::Done(_)) => false,
        };
        if let Some(kept) = self.get(&key).filter(|kept| further(kept)) {
            return kept;
        }
        let outcome = Arc::new(outcome);
        self.insert(key, Arc::clone(&outcome));
        outcome
    }

    /// Keeps `value` for `key`, dropping the least recently used entries past the capacity. An
    /// entry larger than the whole capacity is not kept.
    fn insert(&self, key: Key, value: Arc<Outcome>) {
        let weight = key.weight(&value);
        if weight > self.capacity {
            return;
        }
        let mut inner = self
            .inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(old) = inner.entries.remove(&key) {
            inner.bytes -= key.weight(&old);
        }
        while inner.bytes + weight > self.capacity {
            match inner.entries.remove_lru() {
                Some((old_key, old)) => inner.bytes -= old_key.weight(&old),
                None => break,
            }
        }
        inner.bytes += weight;
        inner.entries.insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use wiki_tool_sdk::store::attachments::MediaTypes;
    use wiki_tool_sdk::store::model::version::Version;
    use wiki_tool_sdk::store::model::wiki::WikiId;

    use super::*;

    fn key(name: &str) -> Key {
        let reference = DocumentReference::parse("Sandbox.WebHome", &WikiId::main());
        let info = AttachmentInfo {
            name: name.to_owned(),
            version: Version::FIRST,
            size: 10,
            media: MediaTypes {
                declared: "application/pdf".to_owned(),
                sniffed: None,
            },
            author: "alice".to_owned(),
            comment: String::new(),
            date: OffsetDateTime::UNIX_EPOCH,
        };
        reference
            .map(|r| Key::of(&r, &info))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn text(chars: usize) -> Arc<Outcome> {
        Arc::new(Outcome::Done(pdf_budget::Extracted::Text {
            text: "x".repeat(chars),
            capped: false,
            note: None,
        }))
    }

    #[test]
    fn least_recently_used_entries_go_first_by_weight() {
        let weight = key("a.pdf").weight(&text(1_000));
        let cache = TextCache::new(weight * 2);
        cache.insert(key("a.pdf"), text(1_000));
        cache.insert(key("b.pdf"), text(1_000));
        // Reading a makes b the least recently used.
        assert!(cache.get(&key("a.pdf")).is_some());
        cache.insert(key("c.pdf"), text(1_000));
        assert!(cache.get(&key("a.pdf")).is_some());
        assert!(cache.get(&key("b.pdf")).is_none());
        assert!(cache.get(&key("c.pdf")).is_some());
        // Too large for the whole cache: not kept, nothing evicted.
        cache.insert(key("d.pdf"), text(weight * 3));
        assert!(cache.get(&key("d.pdf")).is_none());
        assert!(cache.get(&key("c.pdf")).is_some());
    }

    #[test]
    fn a_new_upload_is_a_new_key() {
        let mut later = key("a.pdf");
        later.date = OffsetDateTime::UNIX_EPOCH + time::Duration::seconds(1);
        assert_ne!(later, key("a.pdf"));
    }
}
