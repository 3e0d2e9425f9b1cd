use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError, mpsc};

use super::*;

/// A job that runs until the returned sender is used (or dropped), started for `share` on
/// `slots`; returns once the job runs.
async fn hold_a_slot(
    slots: &Arc<FairSlots>,
    share: &Share,
) -> (
    mpsc::Sender<()>,
    tokio::task::JoinHandle<Result<i32, NotRun>>,
) {
    let (release, hold) = mpsc::channel::<()>();
    let (started, is_running) = tokio::sync::oneshot::channel::<()>();
    let (busy, share) = (Arc::clone(slots), share.clone());
    let holder = tokio::spawn(async move {
        run(&busy, &share, &CancellationToken::new(), move || {
            let _ = started.send(());
            let _ = hold.recv();
            7
        })
        .await
    });
    let _ = is_running.await;
    (release, holder)
}

/// The background slot, taken on a blocking thread as the indexer's thread takes it: waits
/// until it can be had (`None` only if the slots are gone).
async fn take_background_slot(slots: &Arc<FairSlots>) -> Option<Permit> {
    let slots = Arc::clone(slots);
    tokio::task::spawn_blocking(move || slots.acquire_background(&|| false))
        .await
        .ok()
        .flatten()
}

fn user(name: &str) -> Share {
    Share::user(name)
}

/// Lets spawned waiters reach their queue.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(50)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_past_the_wait_is_told_to_retry_and_a_free_slot_runs() {
    let slots = FairSlots::new(1, Duration::from_millis(50));
    let (release, first) = hold_a_slot(&slots, &user("alice")).await;
    let refused = run(&slots, &user("bob"), &CancellationToken::new(), || 1).await;
    assert_eq!(
        refused.map_err(|busy| busy.message("rendering pages")),
        Err(
            "Error: the server is busy rendering pages for other calls (at most 1 at a time) \
             and none finished within 0 seconds. Retry in a few seconds."
                .to_owned()
        )
    );
    let _ = release.send(());
    let value = first.await.map_err(|_| ()).and_then(|r| r.map_err(|_| ()));
    assert_eq!(value, Ok(7));
    let after = run(&slots, &user("bob"), &CancellationToken::new(), || 2).await;
    assert_eq!(after.map_err(|_| ()), Ok(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_never_starts_its_job_waiting_or_not() {
    let slots = FairSlots::new(1, Duration::from_secs(5));
    let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let job = |ran: &Arc<std::sync::atomic::AtomicBool>| {
        let ran = Arc::clone(ran);
        move || ran.store(true, Ordering::SeqCst)
    };
    let cancelled = CancellationToken::new();
    cancelled.cancel();
    assert_eq!(
        run(&slots, &user("alice"), &cancelled, job(&ran)).await,
        Err(NotRun::Cancelled),
        "a free slot does not start the job of a call already cancelled"
    );

    let (release, holder) = hold_a_slot(&slots, &user("alice")).await;
    let call = CancellationToken::new();
    let waiting = {
        let (slots, call, job) = (Arc::clone(&slots), call.clone(), job(&ran));
        tokio::spawn(async move { run(&slots, &user("bob"), &call, job).await })
    };
    settle().await;
    call.cancel();
    let _ = release.send(());
    let waited = waiting.await.map_err(|_| ());
    assert_eq!(waited, Ok(Err(NotRun::Cancelled)));
    assert!(holder.await.is_ok_and(|held| held.is_ok()));
    assert!(!ran.load(Ordering::SeqCst));
    // The cancelled waiter left its queue: the slot is free for the next call at once.
    let next = run(&slots, &user("carol"), &CancellationToken::new(), || 3).await;
    assert_eq!(next, Ok(3));
    assert_eq!(
        NotRun::Cancelled.message("rendering pages"),
        "Error: the call was cancelled while it waited to start rendering pages. Nothing \
         was done."
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_slots_go_round_the_callers_so_a_second_caller_runs_next() {
    let slots = FairSlots::new(1, Duration::from_secs(10));
    let order = Arc::new(Mutex::new(Vec::new()));
    let (release, holder) = hold_a_slot(&slots, &user("alice")).await;
    let mut waiting = Vec::new();
    let queue = |name: &'static str, number: usize| {
        let (slots, order) = (Arc::clone(&slots), Arc::clone(&order));
        tokio::spawn(async move {
            run(&slots, &user(name), &CancellationToken::new(), move || {
                order
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(format!("{name} {number}"));
            })
            .await
        })
    };
    // Alice queues four more jobs, then Bob queues one, then Alice one more.
    for number in 1..=4 {
        waiting.push(queue("alice", number));
        settle().await;
    }
    waiting.push(queue("bob", 1));
    settle().await;
    waiting.push(queue("alice", 5));
    settle().await;
    let _ = release.send(());
    for job in waiting {
        assert!(job.await.is_ok_and(|ran| ran.is_ok()));
    }
    assert!(holder.await.is_ok());
    let order = order.lock().unwrap_or_else(PoisonError::into_inner).clone();
    assert_eq!(
        order,
        [
            "alice 1", "bob 1", "alice 2", "alice 3", "alice 4", "alice 5"
        ],
        "Bob's job runs after at most one of Alice's"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_running_its_share_waits_and_leaves_the_free_slot_to_another() {
    // Two slots: one caller runs one job at a time.
    let slots = FairSlots::new(2, Duration::from_secs(10));
    let (release, holder) = hold_a_slot(&slots, &user("alice")).await;
    let ran = Arc::new(Mutex::new(Vec::new()));
    let second = {
        let (slots, ran) = (Arc::clone(&slots), Arc::clone(&ran));
        tokio::spawn(async move {
            run(
                &slots,
                &user("alice"),
                &CancellationToken::new(),
                move || {
                    ran.lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push("alice 2");
                },
            )
            .await
        })
    };
    settle().await;
    assert!(
        ran.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty(),
        "a slot is free, yet Alice's second job waits: she runs her share"
    );
    // Bob takes the free slot at once, though Alice's job waited before his.
    let bob = run(&slots, &user("bob"), &CancellationToken::new(), || "bob").await;
    assert_eq!(bob, Ok("bob"));
    assert!(
        ran.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    );
    let _ = release.send(());
    assert!(second.await.is_ok_and(|done| done.is_ok()));
    assert!(holder.await.is_ok());
    assert_eq!(
        *ran.lock().unwrap_or_else(PoisonError::into_inner),
        ["alice 2"]
    );
    // Background work starts while Alice's second job waits for her own turn beside a free slot.
    let (release, holder) = hold_a_slot(&slots, &user("alice")).await;
    let waiting = {
        let slots = Arc::clone(&slots);
        tokio::spawn(
            async move { run(&slots, &user("alice"), &CancellationToken::new(), || 0).await },
        )
    };
    settle().await;
    let background = {
        let slots = Arc::clone(&slots);
        std::thread::spawn(move || slots.acquire_background(&|| false).is_some())
    };
    assert!(background.join().is_ok_and(|took| took));
    let _ = release.send(());
    assert!(waiting.await.is_ok_and(|done| done.is_ok()));
    assert!(holder.await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_with_many_jobs_waiting_is_told_at_once_to_wait_for_them() {
    let slots = FairSlots::new(1, Duration::from_secs(10));
    let (release, holder) = hold_a_slot(&slots, &user("alice")).await;
    let mut waiting = Vec::new();
    for _ in 0..5 {
        let slots = Arc::clone(&slots);
        waiting.push(tokio::spawn(async move {
            run(&slots, &user("alice"), &CancellationToken::new(), || 0).await
        }));
    }
    settle().await;
    let crowded = run(&slots, &user("alice"), &CancellationToken::new(), || 0).await;
    assert_eq!(crowded, Err(NotRun::Crowded { waiting: 5 }));
    assert!(crowded.err().is_some_and(|refusal| {
        refusal
            .message("rendering pages")
            .starts_with("Error: 5 of your calls are already waiting for the server's heavy work")
    }));
    let _ = release.send(());
    for job in waiting {
        assert!(job.await.is_ok_and(|ran| ran.is_ok()));
    }
    assert!(holder.await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn background_work_waits_while_a_call_is_short_of_a_slot() {
    let slots = FairSlots::new(1, Duration::from_secs(10));
    let (release, holder) = hold_a_slot(&slots, &user("alice")).await;
    let call = {
        let slots = Arc::clone(&slots);
        tokio::spawn(
            async move { run(&slots, &user("bob"), &CancellationToken::new(), || 2).await },
        )
    };
    settle().await;
    let started = Arc::new(AtomicUsize::new(0));
    let background = {
        let (slots, started) = (Arc::clone(&slots), Arc::clone(&started));
        std::thread::spawn(move || {
            let permit = slots.acquire_background(&|| false);
            started.fetch_add(1, Ordering::SeqCst);
            permit.is_some()
        })
    };
    settle().await;
    assert_eq!(
        started.load(Ordering::SeqCst),
        0,
        "bob waits for the only slot: background work does not start"
    );
    let _ = release.send(());
    assert!(matches!(call.await, Ok(Ok(2))));
    assert!(background.join().is_ok_and(|took| took), "then it starts");
    assert!(holder.await.is_ok());
    // A background wait that is stopped gives up, and takes no slot.
    let (release, holder) = hold_a_slot(&slots, &user("alice")).await;
    let call = {
        let slots = Arc::clone(&slots);
        tokio::spawn(
            async move { run(&slots, &user("bob"), &CancellationToken::new(), || 4).await },
        )
    };
    settle().await;
    assert!(slots.acquire_background(&|| true).is_none());
    let _ = release.send(());
    assert!(matches!(call.await, Ok(Ok(4))));
    assert!(holder.await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_never_waits_for_background_work() {
    // A wait of 50 ms: a call that had to wait for the background job would be refused.
    let slots = FairSlots::new(1, Duration::from_millis(50));
    let background = take_background_slot(&slots).await;
    assert!(
        background.is_some(),
        "no call waits: background work starts"
    );
    assert_eq!(
        run(&slots, &user("bob"), &CancellationToken::new(), || 3).await,
        Ok(3),
        "the background job runs in a slot of its own"
    );
    drop(background);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_job_hears_when_a_call_is_short_of_a_slot() {
    let slots = FairSlots::new(1, Duration::from_secs(10));
    let (release, holder) = hold_a_slot(&slots, &user("alice")).await;
    let background = take_background_slot(&slots).await;
    let Some(background) = background else {
        panic!("no call waits: background work starts beside alice's job");
    };
    assert!(!background.calls_waiting(), "no call waits yet");
    let call = {
        let slots = Arc::clone(&slots);
        tokio::spawn(
            async move { run(&slots, &user("bob"), &CancellationToken::new(), || 7).await },
        )
    };
    settle().await;
    assert!(
        background.calls_waiting(),
        "bob's job waits for the one slot"
    );
    let _ = release.send(());
    assert!(
        matches!(call.await, Ok(Ok(7))),
        "bob runs once alice's job ends"
    );
    assert!(holder.await.is_ok());
    assert!(!background.calls_waiting(), "no call waits any more");
}

/// The test's own cache (statics live for the process, as the server's do).
static RENDERED: LazyLock<HeavyCache<String, String>> =
    LazyLock::new(|| HeavyCache::new(1024, |key, value| key.len() + value.len()));

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_calls_for_one_key_run_its_job_once() {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut calls = Vec::new();
    for _ in 0..10 {
        let runs = Arc::clone(&runs);
        calls.push(tokio::spawn(async move {
            RENDERED
                .get_or_run(
                    "page".to_owned(),
                    &user("alice"),
                    &CancellationToken::new(),
                    move || {
                        runs.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(100));
                        "<p>page</p>".to_owned()
                    },
                )
                .await
        }));
    }
    for call in calls {
        let value = call
            .await
            .map_err(|_| ())
            .and_then(|got| got.map_err(|_| ()));
        assert_eq!(value.as_deref().map(String::as_str), Ok("<p>page</p>"));
    }
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(RENDERED.bytes(), "page".len() + "<p>page</p>".len());
}

#[test]
fn least_recently_used_entries_go_first_by_weight() {
    let cache: WeightedLru<&str, String> = WeightedLru::new(20, |_, value| value.len());
    let ten = || Arc::new("x".repeat(10));
    cache.insert("a", ten());
    cache.insert("b", ten());
    // Reading a makes b the least recently used.
    assert!(cache.get(&"a").is_some());
    cache.insert("c", ten());
    assert!(cache.get(&"a").is_some());
    assert!(cache.get(&"b").is_none());
    assert!(cache.get(&"c").is_some());
    // Too large for the whole cache: not kept, nothing evicted.
    cache.insert("d", Arc::new("x".repeat(30)));
    assert!(cache.get(&"d").is_none());
    assert!(cache.get(&"c").is_some());
    assert_eq!(cache.bytes(), 20);
}
