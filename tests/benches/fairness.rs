//! Heavy work shared fairly, on a real server over loopback: while one user keeps ten renders of
//! large in-bounds pages in flight, how soon is another user's small render answered?
//!
//! The server is `serve`'s stack on the demo farm with the default budgets (half the cores as
//! heavy slots, 5 s wait). alice is the attacker: ten clients, each sending
//! `get_document rendered=true format=html` of a page of about 450,000 characters again the
//! moment its answer arrives. The admin is the victim: every second it saves a small page
//! anew (so nothing kept can answer) and renders it, `FAIRNESS_TRIES` times (5 by default).
//! Reported per attack: how many of the victim's renders were answered within 3 s, and their
//! p50 and slowest, beside the same renders with no attacker.
//!
//! - `same page`: one user keeps ten renders of one page version in flight: they are
//!   rendered once and then answered from what was kept.
//! - `fresh versions`: each attacker saves its own large page anew before every render, so
//!   nothing can be coalesced or kept and every render takes a heavy slot.
//!
//! Then the memory a 13 MB body of 700,000 keys costs: the process's peak is reset, the body is
//! sent, and the growth of the peak is reported (the server refuses the body before parsing it).
//!
//! `cargo bench -p wiki-mcp-tests --bench fairness`; without `--bench` (a test build) it runs one
//! try per attack so it cannot rot.

#[path = "../support/many_keys.rs"]
mod many_keys;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

// Linked for its tools, as in the stock binary `serve` runs.
use bundled_tools as _;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use wiki_mcp_cli::demo::DEMO_USER;

use many_keys::many_keys;
use wiki_mcp_cli::farm::{self, ADMIN_USER, Content};
use wiki_server::http::{Directory, HttpOptions, HttpServer};
use wiki_server::testing::PeakMemory;
use wiki_server::{Manager, ServerSettings};
use wiki_store::model::document::DocumentSave;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{DocumentStore, SqliteStore, Store, TokenStore};

/// The renders the attacker keeps in flight.
const ATTACKERS: usize = 10;
/// How soon the victim's render should be answered.
const WITHIN: Duration = Duration::from_secs(3);

/// The server under test and what the clients need.
struct Served {
    endpoint: String,
    store: SqliteStore,
    attacker_token: String,
    victim_token: String,
    shutdown: CancellationToken,
    _dir: tempfile::TempDir,
}

async fn serve() -> Served {
    let dir = tempfile::tempdir().expect("a temp dir");
    let store = farm::create(dir.path(), Content::Demo).expect("the demo farm");
    let token = |user: &str| {
        store
            .create_token(user, "bench")
            .expect("a token")
            .token
            .expose()
            .to_owned()
    };
    let attacker_token = token(DEMO_USER);
    let victim_token = token(ADMIN_USER);
    let server = HttpServer::bind(
        "127.0.0.1:0",
        HttpOptions {
            rate_limit: None,
            page_rate_limit: None,
            ..HttpOptions::default()
        },
    )
    .await
    .expect("bind 127.0.0.1:0");
    let local = server.local_url().expect("the bound address");
    let endpoint = format!("{local}/rest/wikis/main/aiLLM/mcp");
    let shared: Arc<dyn Store> = Arc::new(store.clone());
    let manager = Arc::new(
        Manager::new(shared, ServerSettings::default().with_public_url(local))
            .expect("the server manager"),
    );
    let shutdown = CancellationToken::new();
    tokio::spawn(server.serve(
        Arc::new(Directory::new(Arc::clone(&manager))),
        shutdown.clone(),
    ));
    Served {
        endpoint,
        store,
        attacker_token,
        victim_token,
        shutdown,
        _dir: dir,
    }
}

/// A page of paragraphs, lists and emphasis of about 450,000 characters (the default render
/// bound is 500,000), different for each `seed`.
fn large_page(seed: &str) -> String {
    let mut page = format!("# {seed}\n\n");
    for n in 0..2_000 {
        page.push_str(&format!(
            "## Part {n}\n\nA paragraph with *emphasis*, `code` and a [link](Sandbox.WebHome) \
             about part {n} of {seed}, long enough to be a real paragraph of a real page.\n\n\
             - one item\n- another item\n  - nested item {n}\n\n"
        ));
    }
    page
}

fn save(store: &SqliteStore, page: &str, content: String, author: &str) {
    let reference = DocumentReference::parse(page, &WikiId::main()).expect("a reference");
    store
        .save_document(&DocumentSave::new(reference, content, author))
        .expect("a save");
}

/// Renders `page` as the token's user: whether it was rendered (not refused as busy), and how
/// long the answer took.
async fn render(
    client: &reqwest::Client,
    served: &Served,
    token: &str,
    page: &str,
) -> (bool, Duration) {
    let body = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "get_document",
            "arguments": {"reference": page, "rendered": true, "format": "html"}
        }
    });
    let started = Instant::now();
    let answer = client
        .post(&served.endpoint)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .bearer_auth(token)
        .body(body.to_string())
        .send()
        .await;
    let text = match answer {
        Ok(response) => response.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    };
    let elapsed = started.elapsed();
    let json = text
        .lines()
        .rev()
        .find_map(|line| {
            serde_json::from_str::<Value>(line.trim_start_matches("data:").trim()).ok()
        })
        .unwrap_or(Value::Null);
    let rendered = json["result"].is_object() && json["result"]["isError"] != json!(true);
    (rendered, elapsed)
}

/// How the attacker's pages change between its renders.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Attack {
    None,
    SamePage,
    FreshVersions,
}

impl Attack {
    fn name(self) -> &'static str {
        match self {
            Attack::None => "no attacker",
            Attack::SamePage => "same page, 10 in flight",
            Attack::FreshVersions => "fresh versions, 10 in flight",
        }
    }
}

/// What the victim saw under one attack.
struct Outcome {
    attack: Attack,
    served_in_time: usize,
    tries: usize,
    latencies: Vec<Duration>,
    attacker_renders: usize,
}

async fn measure(served: &Arc<Served>, attack: Attack, tries: usize) -> Outcome {
    let stop = Arc::new(AtomicBool::new(false));
    let attacker_renders = Arc::new(AtomicUsize::new(0));
    let mut attackers = Vec::new();
    if attack != Attack::None {
        save(
            &served.store,
            "Bench.Large",
            large_page("shared"),
            DEMO_USER,
        );
        for n in 0..ATTACKERS {
            let served = Arc::clone(served);
            let stop = Arc::clone(&stop);
            let renders = Arc::clone(&attacker_renders);
            attackers.push(tokio::spawn(async move {
                let client = reqwest::Client::new();
                let mut version = 0;
                while !stop.load(Ordering::Relaxed) {
                    let page = match attack {
                        Attack::FreshVersions => {
                            version += 1;
                            let page = format!("Bench.Large{n}");
                            let store = served.store.clone();
                            let content = large_page(&format!("{n} {version}"));
                            let target = page.clone();
                            tokio::task::spawn_blocking(move || {
                                save(&store, &target, content, DEMO_USER)
                            })
                            .await
                            .expect("the save");
                            page
                        }
                        Attack::SamePage | Attack::None => "Bench.Large".to_owned(),
                    };
                    let (rendered, _) =
                        render(&client, &served, &served.attacker_token, &page).await;
                    if rendered {
                        renders.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }));
        }
        // Let the attack take the slots first.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let client = reqwest::Client::new();
    let mut latencies = Vec::new();
    let mut served_in_time = 0;
    for n in 0..tries {
        tokio::time::sleep(Duration::from_secs(1)).await;
        save(
            &served.store,
            "Bench.Small",
            format!("# Small\n\nA *small* page, version {n}.\n"),
            ADMIN_USER,
        );
        let (rendered, took) = render(&client, served, &served.victim_token, "Bench.Small").await;
        if rendered && took <= WITHIN {
            served_in_time += 1;
        }
        latencies.push(took);
    }
    stop.store(true, Ordering::Relaxed);
    for attacker in attackers {
        let _ = attacker.await;
    }
    latencies.sort();
    Outcome {
        attack,
        served_in_time,
        tries,
        latencies,
        attacker_renders: attacker_renders.load(Ordering::Relaxed),
    }
}

/// The growth of the process's peak memory (kB) while the server is sent the body, and the
/// status it answered.
async fn body_peak(served: &Served) -> Option<(u64, u16)> {
    let body = many_keys(700_000);
    let client = reqwest::Client::new();
    let peak = PeakMemory::reset()?;
    let status = client
        .post(&served.endpoint)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .bearer_auth(&served.victim_token)
        .body(body)
        .send()
        .await
        .map_or(0, |response| response.status().as_u16());
    Some((peak.grown_kb(), status))
}

fn ms(duration: Duration) -> String {
    format!("{:.0} ms", duration.as_secs_f64() * 1000.0)
}

fn main() {
    let benching = std::env::args().any(|arg| arg == "--bench");
    let tries: usize = std::env::var("FAIRNESS_TRIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if benching { 5 } else { 1 });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let served = Arc::new(serve().await);
        let slots = wiki_tool_sdk::budgets::budgets().heavy_slots;
        println!(
            "heavy slots: {slots}; the victim renders a small page {tries} times, one a second"
        );
        println!(
            "| attack | victim served within 3 s | p50 | slowest | attacker renders answered |"
        );
        println!("|---|---|---|---|---|");
        for attack in [Attack::None, Attack::SamePage, Attack::FreshVersions] {
            let outcome = measure(&served, attack, tries).await;
            let p50 = outcome.latencies[outcome.latencies.len() / 2];
            let slowest = outcome.latencies.last().copied().unwrap_or_default();
            println!(
                "| {} | {} of {} | {} | {} | {} |",
                outcome.attack.name(),
                outcome.served_in_time,
                outcome.tries,
                ms(p50),
                ms(slowest),
                outcome.attacker_renders
            );
        }
        match body_peak(&served).await {
            Some((grew_kb, status)) => println!(
                "13 MB body of 700,000 keys: answered {status}, peak memory grew by {:.1} MB",
                grew_kb as f64 / 1024.0
            ),
            None => println!("13 MB body: peak memory not measured (Linux only)"),
        }
        served.shutdown.cancel();
    });
}
