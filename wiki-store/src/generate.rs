//! A generator of large synthetic wikis, for benchmarks and load tests.
//!
//! Deterministic for a given [`SyntheticWiki`]: pages spread over top-level spaces and one level
//! of nested spaces, each space with a home page, bodies of words drawn with a skewed frequency
//! (a few very common words, a long tail of rare ones) plus headings, lists and wiki links to other
//! generated pages. Saved in batches, one transaction per batch.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use std::collections::BTreeMap;

use crate::Result;
use crate::api::{DocumentStore, ObjectStore};
use crate::model::class::{FieldType, NumberKind};
use crate::model::document::{DocumentSave, Expected};
use crate::model::object::{ClassChange, FieldChange, ObjectWrite};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, HOME_PAGE, ReferenceError, SpacePath};

/// The shape of a synthetic wiki.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntheticWiki {
    /// The wiki to fill (it must exist).
    pub wiki: WikiId,
    /// Content pages, not counting the space home pages.
    pub pages: usize,
    /// Top-level spaces.
    pub top_spaces: usize,
    /// Nested spaces per top-level space.
    pub nested_spaces: usize,
    /// Words per page body.
    pub words_per_page: usize,
    /// Wiki links per page body.
    pub links_per_page: usize,
    /// The random seed.
    pub seed: u64,
    /// Saves per transaction.
    pub batch: usize,
}

impl Default for SyntheticWiki {
    fn default() -> Self {
        SyntheticWiki {
            wiki: WikiId::main(),
            pages: 1_000,
            top_spaces: 20,
            nested_spaces: 4,
            words_per_page: 120,
            links_per_page: 3,
            seed: 42,
            batch: 1_000,
        }
    }
}

/// Syllables the vocabulary is built from (words are pairs and triples of them).
const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ren", "tas", "vor", "qui", "bel", "dan", "fer", "gil", "hum", "jor", "kel",
    "mun", "nor", "pra", "sil", "tor", "ul", "vex", "wen", "yar", "zum",
];

/// Common English words mixed into bodies, so queries for real words have many hits.
const COMMON: &[&str] = &[
    "the", "report", "meeting", "project", "budget", "release", "customer", "design", "review",
    "plan", "team", "quarter", "sales", "support", "notes", "policy", "incident", "roadmap",
    "training", "security",
];

impl SyntheticWiki {
    /// The space of content page `index`.
    pub fn space_of(&self, index: usize) -> Result<SpacePath, ReferenceError> {
        let top = index % self.top_spaces.max(1);
        let nested = (index / self.top_spaces.max(1)) % (self.nested_spaces + 1);
        let mut names = vec![format!("Space{top:02}")];
        if nested > 0 {
            names.push(format!("Area{nested}"));
        }
        SpacePath::new(names)
    }

    /// The reference of content page `index` (`0..pages`).
    pub fn page(&self, index: usize) -> Result<DocumentReference, ReferenceError> {
        DocumentReference::new(
            self.wiki.clone(),
            self.space_of(index)?,
            format!("Page{index:06}"),
        )
    }

    /// Every space home page.
    pub fn homes(&self) -> Result<Vec<DocumentReference>, ReferenceError> {
        let mut homes = Vec::new();
        for top in 0..self.top_spaces.max(1) {
            let space = SpacePath::new([format!("Space{top:02}")])?;
            for nested in 1..=self.nested_spaces {
                homes.push(space.child(&format!("Area{nested}"))?.home(&self.wiki));
            }
            homes.push(space.home(&self.wiki));
        }
        Ok(homes)
    }
}

/// A word of the vocabulary: index 0 is the most frequent.
fn word(index: usize) -> String {
    if index < COMMON.len() {
        return COMMON[index].to_owned();
    }
    let n = index - COMMON.len();
    let s = SYLLABLES.len();
    let mut word = String::new();
    word.push_str(SYLLABLES[n % s]);
    word.push_str(SYLLABLES[(n / s) % s]);
    if n >= s * s {
        word.push_str(SYLLABLES[(n / (s * s)) % s]);
    }
    word
}

/// A skewed draw: small indexes are much more likely.
fn skewed(rng: &mut StdRng, vocabulary: usize) -> usize {
    let x: f64 = rng.random_range(0.0..1.0);
    ((x * x * x) * vocabulary as f64) as usize
}

const VOCABULARY: usize = 5_000;

fn body(spec: &SyntheticWiki, rng: &mut StdRng, index: usize) -> Result<String, ReferenceError> {
    let mut text = format!("# {}\n\n", word(skewed(rng, VOCABULARY)));
    for n in 0..spec.words_per_page {
        if n > 0 && n % 40 == 0 {
            text.push_str("\n\n## ");
            text.push_str(&word(skewed(rng, VOCABULARY)));
            text.push_str("\n\n");
        } else if n > 0 && n % 15 == 0 {
            text.push_str(".\n- ");
        } else if n > 0 {
            text.push(' ');
        }
        text.push_str(&word(skewed(rng, VOCABULARY)));
    }
    text.push_str(&format!(" page{index}.\n\n"));
    for _ in 0..spec.links_per_page {
        let target = spec.page(rng.random_range(0..spec.pages.max(1)))?;
        text.push_str(&format!(
            "See [{}]({}).\n",
            target.name(),
            target.local().replace('\\', "\\\\")
        ));
    }
    Ok(text)
}

fn title(rng: &mut StdRng, index: usize) -> String {
    let mut title = String::new();
    for _ in 0..rng.random_range(2..5) {
        let mut w = word(skewed(rng, VOCABULARY));
        if let Some(first) = w.get(..1) {
            w = first.to_uppercase() + &w[1..];
        }
        title.push_str(&w);
        title.push(' ');
    }
    title.push_str(&index.to_string());
    title
}

/// Fills `spec.wiki` with the synthetic wiki; returns how many pages were saved (homes included).
pub fn generate(
    store: &(impl DocumentStore + ?Sized),
    spec: &SyntheticWiki,
    author: &str,
) -> Result<usize> {
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let mut batch = Vec::with_capacity(spec.batch.max(1));
    let mut saved = 0;
    let mut flush = |batch: &mut Vec<DocumentSave>| -> Result<()> {
        if !batch.is_empty() {
            saved += store.save_documents(batch)?.len();
            batch.clear();
        }
        Ok(())
    };
    for home in spec.homes()? {
        let title = format!("{} home", home.space().names().join(" "));
        let text = format!("Welcome to {}.\n", home.space().last());
        batch.push(DocumentSave::new(home, text, author).title(title));
    }
    flush(&mut batch)?;
    for index in 0..spec.pages {
        let reference = spec.page(index)?;
        debug_assert_ne!(reference.name(), HOME_PAGE);
        let save = DocumentSave::new(reference, body(spec, &mut rng, index)?, author)
            .title(title(&mut rng, index));
        batch.push(save);
        if batch.len() >= spec.batch.max(1) {
            flush(&mut batch)?;
        }
    }
    flush(&mut batch)?;
    Ok(saved)
}

/// The classes [`generate_objects`] defines, as `(class document, fields)`.
fn classes() -> Vec<(&'static str, Vec<(&'static str, FieldType)>)> {
    let statuses = ["open", "doing", "done"].map(str::to_owned).to_vec();
    vec![
        (
            "Classes.TaskClass",
            vec![
                ("summary", FieldType::String),
                (
                    "status",
                    FieldType::StaticList {
                        values: statuses,
                        multiselect: false,
                    },
                ),
                ("priority", FieldType::Number(NumberKind::Integer)),
                ("estimate", FieldType::Number(NumberKind::Float)),
                ("due", FieldType::Date { date_only: true }),
                ("blocked", FieldType::Boolean),
                ("related", FieldType::Page),
            ],
        ),
        (
            "Classes.ContactClass",
            vec![
                ("name", FieldType::String),
                ("email", FieldType::Email),
                ("notes", FieldType::TextArea),
            ],
        ),
    ]
}

/// Adds structured data to a wiki made by [`generate`]: a task class and a contact class on
/// `Classes.*` pages, and one object (alternately a task and a contact) on every `every`-th
/// content page. Returns how many objects were written.
pub fn generate_objects(
    store: &(impl ObjectStore + ?Sized),
    spec: &SyntheticWiki,
    every: usize,
    author: &str,
) -> Result<usize> {
    let classes = classes();
    for (class, fields) in &classes {
        let class_document = DocumentReference::parse(class, &spec.wiki)?;
        for (name, field_type) in fields {
            store.change_class(&ClassChange {
                class_document: class_document.clone(),
                change: FieldChange::Add {
                    rules: Default::default(),
                    name: (*name).to_owned(),
                    field_type: field_type.clone(),
                    pretty_name: None,
                },
                author: author.to_owned(),
                comment: format!("Added field {name}"),
                major: false,
                expected: Expected::Any,
            })?;
        }
    }
    let mut rng = StdRng::seed_from_u64(spec.seed.wrapping_add(1));
    let mut written = 0;
    for index in (0..spec.pages).step_by(every.max(1)) {
        let reference = spec.page(index)?;
        let (class, values) = if written % 2 == 0 {
            let status = ["open", "doing", "done"][rng.random_range(0..3)];
            let related = spec.page(rng.random_range(0..spec.pages.max(1)))?.local();
            let values = [
                (
                    "summary",
                    format!("Task {index}: {}", word(skewed(&mut rng, VOCABULARY))),
                ),
                ("status", status.to_owned()),
                ("priority", rng.random_range(1..6).to_string()),
                ("estimate", format!("{:.1}", rng.random_range(0.5..40.0))),
                (
                    "due",
                    format!(
                        "2026-{:02}-{:02}",
                        rng.random_range(1..13),
                        rng.random_range(1..29)
                    ),
                ),
                ("blocked", (rng.random_range(0..4) == 0).to_string()),
                ("related", related),
            ];
            ("Classes.TaskClass", values.to_vec())
        } else {
            let name = word(skewed(&mut rng, VOCABULARY));
            let values = [
                ("name", format!("{name} {index}")),
                ("email", format!("{name}{index}@example.com")),
                (
                    "notes",
                    format!("Met at the {} review.", word(skewed(&mut rng, VOCABULARY))),
                ),
            ];
            ("Classes.ContactClass", values.to_vec())
        };
        store.write_object(&ObjectWrite {
            reference,
            class: class.to_owned(),
            number: None,
            values: values
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect::<BTreeMap<_, _>>(),
            title: None,
            author: author.to_owned(),
            comment: "Generated object".to_owned(),
            major: false,
            expected: Expected::Any,
        })?;
        written += 1;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabulary_words_are_distinct_and_skewed_draws_stay_in_range() {
        let words: std::collections::HashSet<String> = (0..VOCABULARY).map(word).collect();
        assert_eq!(words.len(), VOCABULARY);
        let mut rng = StdRng::seed_from_u64(1);
        assert!((0..1000).all(|_| skewed(&mut rng, VOCABULARY) < VOCABULARY));
    }

    #[test]
    fn pages_spread_over_spaces_deterministically() {
        let spec = SyntheticWiki {
            pages: 100,
            top_spaces: 4,
            nested_spaces: 2,
            ..SyntheticWiki::default()
        };
        assert_eq!(spec.page(0).unwrap().local(), "Space00.Page000000");
        assert_eq!(spec.page(5).unwrap().local(), "Space01.Area1.Page000005");
        assert_eq!(spec.homes().unwrap().len(), 12);
        let mut a = StdRng::seed_from_u64(7);
        let mut b = StdRng::seed_from_u64(7);
        assert_eq!(
            body(&spec, &mut a, 3).unwrap(),
            body(&spec, &mut b, 3).unwrap()
        );
    }
}
