//! What structured output costs a read call: a tool declared with `output = Page` against its
//! text-only twin, measured in the same run. Both build the same 50-item listing (references,
//! titles, counts, as a tree or search tool does) and write the same text; the structured one
//! also returns the value, which the call path validates against the registered `outputSchema`
//! and serializes into `structuredContent`. Each iteration is a whole `call::call` (parse,
//! run, validate, audit) plus the JSON the transport writes, so the ratio is what a client
//! sees structured output cost per call.
//!
//! Run: `cargo bench -p mcp-runtime --bench structured`.

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_runtime::ToolSet;
use mcp_runtime::call::{CallSettings, ToolCall, call};
use mcp_runtime::param::JsonObject;
use mcp_runtime::prelude::*;

/// Items per listing: a page of a tree or of search hits.
const ITEMS: usize = 50;

/// One listed page.
#[mcp_output]
struct Item {
    /// Its reference.
    reference: String,
    /// Its title.
    title: Option<String>,
    /// Its depth below the root.
    level: u64,
    /// Its attachments.
    attachments: u64,
}

/// A page of items.
#[mcp_output]
struct Page {
    /// The items shown.
    items: Vec<Item>,
    /// Items in all.
    total: u64,
    /// The next page's offset.
    next_offset: Option<u64>,
}

fn page() -> Page {
    Page {
        items: (0..ITEMS as u64)
            .map(|n| Item {
                reference: format!("main:Space{}.Page{n}", n % 7),
                title: (n % 3 != 0).then(|| format!("Page number {n}")),
                level: n % 4,
                attachments: n % 5,
            })
            .collect(),
        total: 500,
        next_offset: Some(ITEMS as u64),
    }
}

fn text(page: &Page) -> String {
    let mut out = String::new();
    for item in &page.items {
        let _ = writeln!(
            out,
            "{}{}  [{}]  \"{}\" {{att:{}}}",
            "  ".repeat(item.level as usize),
            item.reference.rsplit('.').next().unwrap_or_default(),
            item.reference,
            item.title.as_deref().unwrap_or_default(),
            item.attachments
        );
    }
    out
}

/// The listing, text only.
#[mcp_tool(id = "listing_text", category = "Bench")]
struct ListingText {}

impl Execute for ListingText {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(text(&page())))
    }
}

/// The same listing, with its structured value.
#[mcp_tool(id = "listing_structured", category = "Bench", output = Page)]
struct ListingStructured {}

impl Execute<Structured<Page>> for ListingStructured {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult<Structured<Page>> {
        let page = page();
        let text = text(&page);
        Ok(Structured::new(page, text))
    }
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|error| panic!("a runtime: {error}"));
    let registry = mcp_runtime::registry().unwrap_or_else(|error| panic!("{error}"));
    let tools = ToolSet::from_registry(registry, mcp_runtime::SchemaVariant::Standard)
        .unwrap_or_else(|error| panic!("{error}"));
    let settings = CallSettings::default();
    let one_call = |id: &'static str| {
        let result = runtime
            .block_on(call(
                &tools,
                ToolCall::new(id, JsonObject::new()),
                ToolContext::new(Some("alice".to_owned())),
                &settings,
            ))
            .unwrap_or_else(|error| panic!("{id}: {}", error.message));
        serde_json::to_vec(&result).unwrap_or_else(|error| panic!("{error}"))
    };
    // The two answer the same text; only one carries structuredContent.
    assert!(one_call("listing_structured").len() > one_call("listing_text").len());
    let mut group = c.benchmark_group("structured_output");
    group.bench_function("text_only", |b| {
        b.iter(|| black_box(one_call("listing_text")))
    });
    group.bench_function("structured", |b| {
        b.iter(|| black_box(one_call("listing_structured")))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
