//! The rule every authorized listing follows, for every backend: a row is authorized before it
//! is counted or paged, so a total, a page and its offset only ever reflect rows the caller may
//! see. A backend reads candidates in result order, asks the caller's `authorize` about each,
//! and hands each authorized one to a `Pager`.
//!
//! A listing that counts at most N rows counts N *authorized* rows ([`AuthorizedScan`]): a
//! window of N candidates filled before authorization would let rows the caller cannot see
//! crowd out the ones it can, and its "at least" would tell that they exist.

use std::time::{Duration, Instant};

/// Candidates one authorized scan examines at most, denied ones included; past it (or past
/// [`SCAN_TIME_BUDGET`]) the scan stops and its total is a lower bound. Large enough that
/// only a wiki with tens of thousands of rows the caller cannot see, all matching, reaches it.
pub const MAX_EXAMINED: usize = 50_000;

/// Wall-clock time one authorized scan may spend examining candidates.
pub const SCAN_TIME_BUDGET: Duration = Duration::from_secs(2);

/// Counts authorized rows and says which fall on the requested page.
#[derive(Debug, Clone)]
pub(crate) struct Pager {
    offset: usize,
    limit: usize,
    total: usize,
    paged: usize,
}

impl Pager {
    /// A pager for the page of `limit` rows after the first `offset` authorized ones.
    pub(crate) fn new(offset: usize, limit: usize) -> Self {
        Pager {
            offset,
            limit,
            total: 0,
            paged: 0,
        }
    }

    /// Counts one authorized row; true when it belongs on the page.
    pub(crate) fn count(&mut self) -> bool {
        let on_page = self.total >= self.offset && self.paged < self.limit;
        self.total += 1;
        if on_page {
            self.paged += 1;
        }
        on_page
    }

    /// The authorized rows counted so far.
    pub(crate) fn total(&self) -> usize {
        self.total
    }

    /// Keeps the authorized rows of `rows` that fall on the page, counting every authorized one.
    pub(crate) fn page<T>(
        &mut self,
        rows: impl IntoIterator<Item = T>,
        mut authorize: impl FnMut(&T) -> bool,
    ) -> Vec<T> {
        rows.into_iter()
            .filter(|row| authorize(row))
            .filter(|_| self.count())
            .collect()
    }
}

/// What [`AuthorizedScan::offer`] decided about one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offered {
    /// Authorized and on the requested page.
    OnPage,
    /// Denied, or authorized and counted but off the page.
    Passed,
    /// The scan is over (the ceiling of authorized rows was passed, or the budget ran out):
    /// read no more candidates.
    Stop,
}

/// A scan that counts up to `ceiling` authorized rows, however many denied ones lie between
/// them, within [`MAX_EXAMINED`] candidates and [`SCAN_TIME_BUDGET`]. Its total and its
/// [`AuthorizedScan::cut`] flag derive from authorized rows only: the flag is set when an
/// authorized row beyond the ceiling was seen, or when the budget ended the scan first.
#[derive(Debug, Clone)]
pub struct AuthorizedScan {
    pager: Pager,
    ceiling: usize,
    examined: usize,
    deadline: Instant,
    cut: bool,
    stopped: bool,
}

impl AuthorizedScan {
    /// A scan for the page of `limit` rows after `offset` authorized ones, counting at most
    /// `ceiling` authorized rows.
    pub fn new(offset: usize, limit: usize, ceiling: usize) -> Self {
        AuthorizedScan {
            pager: Pager::new(offset, limit),
            ceiling,
            examined: 0,
            deadline: Instant::now() + SCAN_TIME_BUDGET,
            cut: false,
            stopped: false,
        }
    }

    /// Offers the next candidate in result order; `authorize` is asked only while the scan
    /// goes on.
    pub fn offer(&mut self, authorize: impl FnOnce() -> bool) -> Offered {
        if self.stopped {
            return Offered::Stop;
        }
        if self.examined >= MAX_EXAMINED || Instant::now() >= self.deadline {
            return self.stop();
        }
        self.examined += 1;
        if !authorize() {
            return Offered::Passed;
        }
        if self.pager.total() >= self.ceiling {
            return self.stop();
        }
        if self.pager.count() {
            Offered::OnPage
        } else {
            Offered::Passed
        }
    }

    fn stop(&mut self) -> Offered {
        self.cut = true;
        self.stopped = true;
        Offered::Stop
    }

    /// Whether the scan is over before its candidates ran out.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Candidates examined so far (denied ones included): where the next batch starts.
    pub fn examined(&self) -> usize {
        self.examined
    }

    /// The authorized rows counted (at most the ceiling).
    pub fn total(&self) -> usize {
        self.pager.total()
    }

    /// Whether more authorized rows may exist than were counted: the total is a lower bound.
    pub fn cut(&self) -> bool {
        self.cut
    }
}

/// How many rows to read for a listing of at most `limit`: one more, which tells whether the
/// listing was cut ([`cut`]).
pub(crate) fn probe_limit(limit: usize) -> usize {
    limit.saturating_add(1)
}

/// Keeps the first `limit` of rows read with [`probe_limit`]; whether there were more.
pub(crate) fn cut<T>(mut rows: Vec<T>, limit: usize) -> (Vec<T>, bool) {
    let truncated = rows.len() > limit;
    rows.truncate(limit);
    (rows, truncated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denied_rows_are_neither_counted_nor_paged() {
        let mut pager = Pager::new(1, 2);
        let page = pager.page(0..10, |n| n % 2 == 0);
        assert_eq!(page, [2, 4]);
        assert_eq!(pager.total(), 5);
    }

    #[test]
    fn a_listing_read_one_past_its_limit_knows_it_was_cut() {
        assert_eq!(cut((0..probe_limit(3)).collect(), 3), (vec![0, 1, 2], true));
        assert_eq!(cut(vec![0, 1], 3), (vec![0, 1], false));
    }

    #[test]
    fn denied_candidates_do_not_fill_the_window() {
        let mut scan = AuthorizedScan::new(0, 3, 4);
        let mut on_page = Vec::new();
        for n in 0..100 {
            match scan.offer(|| n >= 90) {
                Offered::OnPage => on_page.push(n),
                Offered::Passed => {}
                Offered::Stop => break,
            }
        }
        assert_eq!(on_page, [90, 91, 92]);
        assert_eq!(scan.total(), 4);
        assert!(
            scan.cut(),
            "a fifth authorized row was seen past the ceiling"
        );
        assert_eq!(scan.examined(), 95);

        let mut exact = AuthorizedScan::new(0, 3, 4);
        for n in 0..100 {
            exact.offer(|| n % 50 == 0);
        }
        assert_eq!(
            (exact.total(), exact.cut(), exact.stopped()),
            (2, false, false)
        );
    }

    #[test]
    fn the_examination_budget_ends_a_scan_as_a_lower_bound() {
        let mut scan = AuthorizedScan::new(0, 10, 10);
        let mut asked = 0;
        for _ in 0..MAX_EXAMINED + 5 {
            if scan.offer(|| {
                asked += 1;
                false
            }) == Offered::Stop
            {
                break;
            }
        }
        assert_eq!(asked, MAX_EXAMINED);
        assert!(scan.cut() && scan.stopped());
        assert_eq!(scan.total(), 0);
    }

    #[test]
    fn an_offset_past_the_end_pages_nothing_but_counts_everything() {
        let mut pager = Pager::new(10, 5);
        assert!(pager.page(0..3, |_| true).is_empty());
        assert_eq!(pager.total(), 3);
        let mut none = Pager::new(0, 0);
        assert!(!none.count());
        assert_eq!(none.total(), 1);
    }
}
