//! The runner of `#[backend_test]`s: the `main` of every `harness = false` test target that
//! uses the attribute, one libtest-mimic trial per test and backend.

use std::future::Future;
use std::io::Write as _;
use std::pin::{Pin, pin};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Wake, Waker};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

use super::Backend;
use super::backend::NAMES;

/// One `#[backend_test]`, as the attribute registers it (not for direct use).
#[doc(hidden)]
pub struct Case {
    module: &'static str,
    name: &'static str,
    /// The one backend the test is for, or `None` for every backend.
    only: Option<&'static str>,
    body: Body,
}

/// What a test runs (not for direct use).
#[doc(hidden)]
pub enum Body {
    /// A sync test, given the trial's backend (the attribute builds the test's argument).
    Sync(fn(&Backend)),
    /// An async test, on a tokio runtime with `worker_threads` workers (one for a
    /// current-thread test).
    Async {
        /// The runtime's worker count (0 counts as 1).
        worker_threads: usize,
        /// The test's future.
        run: fn() -> Pin<Box<dyn Future<Output = ()>>>,
    },
}

impl Case {
    /// The case of the test `name` in `module` (its `module_path!()`).
    #[doc(hidden)]
    pub const fn new(
        module: &'static str,
        name: &'static str,
        only: Option<&'static str>,
        body: Body,
    ) -> Self {
        Self {
            module,
            name,
            only,
            body,
        }
    }

    /// `<backend>::<module>::<test>`, the module without the crate's name.
    fn trial_name(&self, backend: &str) -> String {
        match self.module.split_once("::") {
            Some((_crate, module)) => format!("{backend}::{module}::{}", self.name),
            None => format!("{backend}::{}", self.name),
        }
    }

    /// Runs the test on `backend`, which is [`Backend::current`] meanwhile on this thread and
    /// on the test's runtime threads.
    fn run(&self, backend: &Backend) -> Result<(), Failed> {
        let _entered = backend.enter();
        match self.body {
            Body::Sync(run) => run(backend),
            Body::Async {
                worker_threads,
                run,
            } => {
                // A runtime entered but not blocked on: the PostgreSQL client is synchronous
                // and refuses to run on a thread that drives a runtime, and a test calls the
                // store directly as well as through code spawned on the runtime's workers.
                let on_workers = backend.clone();
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(worker_threads.max(1))
                    .enable_all()
                    .on_thread_start(move || drop(on_workers.clone().make_current()))
                    .build()
                    .map_err(|error| format!("cannot start the test's runtime: {error}"))?;
                let _runtime = runtime.enter();
                park_on(run());
            }
        }
        Ok(())
    }
}

inventory::collect!(Case);

/// Runs every `#[backend_test]` linked into this binary, once per backend it applies to (with
/// libtest's arguments: filters, `--exact`, `--list`, `--test-threads`), then exits.
///
/// The trials of a backend this run cannot reach are listed as ignored, so neither `cargo test`
/// nor `cargo nextest` counts them as passed; the reason is printed once, and again by each
/// trial when ignored tests are run (`--include-ignored`).
///
/// Trials of different tests run in parallel, but the trials of one test take turns: a test
/// written for one process may rely on what is process-wide (captured logs, a test tool's
/// counters, the names it gives its users), which its trial on the other backend shares.
pub fn run_backend_tests() -> ! {
    let args = Arguments::from_args();
    let mut cases: Vec<&'static Case> = inventory::iter::<Case>.into_iter().collect();
    cases.sort_by_key(|case| (case.module, case.name));
    let turns: Vec<Arc<Mutex<()>>> = cases.iter().map(|_| Arc::default()).collect();
    let mut trials = Vec::new();
    for name in NAMES {
        let backend = Backend::reachable(name);
        let applicable = cases
            .iter()
            .zip(&turns)
            .filter(|(case, _)| case.only.is_none_or(|only| only == name));
        let mut skipped = false;
        for (&case, turn) in applicable {
            let trial_name = case.trial_name(name);
            trials.push(match &backend {
                Ok(backend) => {
                    let backend = backend.clone();
                    let turn = Arc::clone(turn);
                    Trial::test(trial_name, move || {
                        let _turn = turn.lock().unwrap_or_else(PoisonError::into_inner);
                        case.run(&backend)
                    })
                }
                Err(reason) => {
                    skipped = true;
                    let reason = reason.clone();
                    Trial::ignorable_test(trial_name, move || Ok(Completion::ignored_with(reason)))
                        .with_ignored_flag(true)
                }
            });
        }
        if let Err(reason) = &backend
            && skipped
            && !args.list
        {
            let _ = writeln!(std::io::stderr(), "{name}: every test is ignored, {reason}");
        }
    }
    libtest_mimic::run(&args, trials).exit()
}

/// Polls `future` to completion on this thread, parking between wake-ups: an executor that,
/// unlike a tokio runtime's `block_on`, leaves the thread free to block.
fn park_on<F: Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::park();
    }
}
