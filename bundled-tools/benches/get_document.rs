//! get_document on a 5,000-line page, end to end through the server's one call path (`Manager::call`,
//! then the middleware: argument parsing, the door, existence and locale checks, the header's
//! attachment read, output and audit) versus the store's read of the same row alone, in the same
//! run. The ratio is what the tool layer costs on top of the read it cannot avoid.
//!
//! Run: `cargo bench -p bundled-tools --bench get_document`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

#[path = "../tests/harness/mod.rs"]
mod harness;

use harness::{Farm, reference};

/// 5,000 lines of ~60 characters with a heading every 100 lines (~300 KB).
fn big_page() -> String {
    (1..=5_000)
        .map(|n| {
            if n % 100 == 1 {
                format!("## Part {}\n", n / 100 + 1)
            } else {
                format!("line {n} of the big page, with some words to make it longer\n")
            }
        })
        .collect()
}

fn get_document(c: &mut Criterion) {
    let farm = Farm::new();
    farm.save("Big.Page", &big_page(), "bench");
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => panic!("tokio runtime: {error}"),
    };
    let page = reference("Big.Page");
    let mut group = c.benchmark_group("get_document_5000_lines");
    group.bench_function("store_read_alone", |b| {
        b.iter(|| black_box(farm.store.document(black_box(&page), None)))
    });
    // The floor of any call on this path (server lookup, context, parsing, audit): `man` for one
    // tool reads no store.
    group.bench_function("middleware_floor_man", |b| {
        b.iter(|| {
            let call = farm.call("man", json!({"tool": "get_document"}), "alice", "main");
            black_box(runtime.block_on(call))
        })
    });
    group.bench_function("tool_outline", |b| {
        b.iter(|| {
            let call = farm.call(
                "get_document",
                json!({"reference": "Big.Page"}),
                "alice",
                "main",
            );
            black_box(runtime.block_on(call))
        })
    });
    group.bench_function("tool_window_at_line_2000", |b| {
        b.iter(|| {
            let arguments = json!({"reference": "Big.Page", "offset": 2000});
            let call = farm.call("get_document", arguments, "alice", "main");
            black_box(runtime.block_on(call))
        })
    });
    group.finish();
}

criterion_group!(benches, get_document);
criterion_main!(benches);
