//! The runner of `#[farm_test]` tests on PostgreSQL: the `main` of a `harness = false` test
//! target built from the same sources as the standard-harness one (which runs them on SQLite).

use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use libtest_mimic::{Arguments, Completion, Trial};

use super::{Backend, TEST_DATABASE_VAR};

/// One `#[farm_test]`, as the attribute registers it (not for direct use).
#[doc(hidden)]
pub struct FarmCase {
    module: &'static str,
    name: &'static str,
    worker_threads: usize,
    run: fn() -> Pin<Box<dyn Future<Output = ()>>>,
}

impl FarmCase {
    #[doc(hidden)]
    pub const fn new(
        module: &'static str,
        name: &'static str,
        worker_threads: usize,
        run: fn() -> Pin<Box<dyn Future<Output = ()>>>,
    ) -> Self {
        Self {
            module,
            name,
            worker_threads,
            run,
        }
    }

    /// `module::test` without the crate name, as the standard harness names the same test.
    fn trial_name(&self) -> String {
        match self.module.split_once("::") {
            Some((_crate, module)) => format!("{module}::{}", self.name),
            None => self.name.to_owned(),
        }
    }

    /// Runs the test with a tokio runtime (the worker count `#[tokio::test]` asked for, one
    /// for a current-thread test) entered but not blocked on: the PostgreSQL client is
    /// synchronous and refuses to run on a thread that drives a runtime, and a test calls the
    /// store directly, as the SQLite run does. The server's own code still runs on the
    /// runtime's workers ([`As::call`](super::As::call) spawns the call, as a transport does).
    fn run(&self) -> Result<(), libtest_mimic::Failed> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(self.worker_threads.max(1))
            .enable_all()
            .build()
            .map_err(|error| format!("cannot start the test's runtime: {error}"))?;
        let _entered = runtime.enter();
        park_on((self.run)());
        Ok(())
    }
}

inventory::collect!(FarmCase);

/// Runs every `#[farm_test]` linked into this binary on PostgreSQL, one trial each (with the
/// standard harness's arguments: filters, `--list`, `--test-threads`), then exits. Without
/// [`TEST_DATABASE_VAR`] every trial is reported as ignored with the reason, never as passed.
///
/// ```toml
/// [[test]]
/// name = "tools_postgres"
/// path = "tests/tools/on_postgres.rs"   # the suite's modules, and `fn main` calling this
/// harness = false
/// ```
pub fn run_farm_suite() -> ! {
    let args = Arguments::from_args();
    let backend = Backend::postgres_from_env();
    if let Some(backend) = &backend {
        Backend::set_current(backend.clone());
    }
    let mut cases: Vec<&'static FarmCase> = inventory::iter::<FarmCase>.into_iter().collect();
    cases.sort_by_key(|case| (case.module, case.name));
    let trials = cases
        .into_iter()
        .map(|case| {
            let configured = backend.is_some();
            Trial::ignorable_test(case.trial_name(), move || {
                if !configured {
                    return Ok(Completion::ignored_with(format!(
                        "{TEST_DATABASE_VAR} is not set (tests/postgres/with-cluster.sh sets it)"
                    )));
                }
                case.run().map(|()| Completion::Completed)
            })
        })
        .collect();
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

/// Asserts that two roots of one suite, the SQLite binary's and its `harness = false` twin's
/// (their source, by `include_str!`), declare the same `mod`s: a module left out of the twin
/// would never run on PostgreSQL, and nothing else would say so. Call it from a plain `#[test]`
/// in the SQLite binary.
pub fn assert_same_modules(sqlite_root: &str, postgres_root: &str) {
    fn modules(source: &str) -> std::collections::BTreeSet<&str> {
        source
            .lines()
            .filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'))
            .collect()
    }
    assert_eq!(
        modules(postgres_root),
        modules(sqlite_root),
        "the PostgreSQL twin's modules (left) differ from the SQLite binary's (right)"
    );
}

#[cfg(test)]
mod tests {
    use super::assert_same_modules;

    #[test]
    fn the_module_check_ignores_order_and_fails_on_a_module_left_out() {
        assert_same_modules("mod a;\nmod b;\n", "mod b;\nmod a;\n");
        let left_out =
            std::panic::catch_unwind(|| assert_same_modules("mod a;\nmod b;\n", "mod a;\n"));
        assert!(left_out.is_err(), "a module missing from the twin passed");
    }
}
