//! An interrupt scope that fired stops a statement STARTED after it within the same checkout:
//! `sqlite3_interrupt` reaches only the statements running when it is called, so without the
//! pool's progress handler the next statement of a multi-statement read would run to its end.
//!
//! The farm export is such a read (one snapshot, a count per table, then a statement per
//! table) with a callback between its statements: its sink's `plan` is called after every count
//! has finished and before any table is read, so an interrupt fired there finds no statement
//! running, deterministically.

use wiki_store::StoreError;
use wiki_store::interrupt::Interrupter;
use wiki_store::transfer::{BatchLimits, FarmExport, FarmSink, Row, Table, TransferError};

use crate::harness::{put, store};

/// A sink that counts what it receives and fires `interrupt` (when given) once the export has
/// planned, between two statements.
struct Counting {
    interrupt: Option<Interrupter>,
    planned: u64,
    received: u64,
}

impl FarmSink for Counting {
    fn plan(&mut self, tables: &[(&'static Table, u64)]) -> Result<(), TransferError> {
        self.planned = tables.iter().map(|(_, rows)| rows).sum();
        if let Some(interrupter) = &self.interrupt {
            interrupter.interrupt();
        }
        Ok(())
    }

    fn begin_table(
        &mut self,
        _table: &'static Table,
        _columns: &[String],
    ) -> Result<(), TransferError> {
        Ok(())
    }

    fn write_rows(&mut self, rows: &[Row]) -> Result<(), TransferError> {
        self.received += rows.len() as u64;
        Ok(())
    }

    fn end_table(&mut self) -> Result<u64, TransferError> {
        Ok(self.received)
    }
}

#[test]
fn a_statement_started_after_the_interrupt_in_the_same_checkout_is_stopped() {
    let (_dir, store) = store();
    // Enough rows that reading the documents takes many thousands of VM instructions.
    for index in 0..300 {
        put(&store, &format!("Bulk.Page{index}"), "a page of the export");
    }
    let export = |interrupt: Option<Interrupter>| {
        let scope = interrupt.clone().unwrap_or_default();
        let _scope = scope.enter();
        let mut sink = Counting {
            interrupt,
            planned: 0,
            received: 0,
        };
        let outcome = store.export_farm(BatchLimits::default(), &mut sink);
        (outcome, sink)
    };

    // The scope's own export, not fired: every planned row arrives (the case is not vacuous).
    let (outcome, whole) = export(None);
    assert!(outcome.is_ok(), "{outcome:?}");
    assert!(whole.planned >= 300);
    assert_eq!(whole.received, whole.planned);

    let (outcome, stopped) = export(Some(Interrupter::new()));
    assert!(
        matches!(outcome, Err(TransferError::Store(StoreError::Interrupted))),
        "the statements after the interrupt ran: {outcome:?}, {} of {} rows read",
        stopped.received,
        stopped.planned
    );
    assert!(stopped.received < stopped.planned);

    // The reader serves the next caller normally.
    let (outcome, after) = export(None);
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(after.received, after.planned);
}
