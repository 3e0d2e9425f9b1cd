//! The rule every authorized listing follows, for every backend: a row is authorized before it
//! is counted or paged, so a total, a page and its offset only ever reflect rows the caller may
//! see. A backend reads candidates in result order, asks the caller's `authorize` about each,
//! and hands each authorized one to a [`Pager`].

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
    fn an_offset_past_the_end_pages_nothing_but_counts_everything() {
        let mut pager = Pager::new(10, 5);
        assert!(pager.page(0..3, |_| true).is_empty());
        assert_eq!(pager.total(), 3);
        let mut none = Pager::new(0, 0);
        assert!(!none.count());
        assert_eq!(none.total(), 1);
    }
}
