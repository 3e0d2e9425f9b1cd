//! The admin page's shared state: sessions, pending sign-ins and the audit record, seen alike
//! by every process serving the farm (`reopen` is another process's connection).

use std::sync::{Arc, Barrier};

use wiki_store::model::admin::{
    AdminSession, AuditCall, AuditCursor, AuditFilter, AuditRetention, AuditRow,
};
use wiki_store::testing::backend_test;

use crate::harness::{Fixture, count_events};

const MINUTE: i64 = 60_000;
const T0: i64 = 1_800_000_000_000;

fn session(byte: u8, user: &str, at: i64) -> AdminSession {
    AdminSession {
        digest: [byte; 32],
        user: user.to_owned(),
        created_ms: at,
        last_used_ms: at,
        idle_ms: 30 * MINUTE,
        expires_ms: at + 8 * 60 * MINUTE,
    }
}

#[backend_test]
fn a_session_opened_by_one_process_is_live_in_another_until_closed(db: &Fixture) {
    let (a, b) = (db.store(), db.reopen());
    let (_subscription, seen) = count_events(&*a);
    let before = a.change_seq().unwrap();
    a.open_admin_session(&session(1, "admin", T0), 100).unwrap();

    let found = b
        .touch_admin_session(&[1; 32], T0 + MINUTE)
        .unwrap()
        .unwrap();
    assert_eq!(found.user, "admin");
    assert_eq!(found.created_ms, T0);
    assert_eq!(found.last_used_ms, T0 + MINUTE, "touching records the use");
    assert!(b.touch_admin_session(&[2; 32], T0).unwrap().is_none());

    assert!(b.close_admin_session(&[1; 32]).unwrap(), "signed out on B");
    assert!(
        a.touch_admin_session(&[1; 32], T0 + MINUTE)
            .unwrap()
            .is_none()
    );
    assert!(!a.close_admin_session(&[1; 32]).unwrap(), "already gone");

    assert_eq!(a.change_seq().unwrap(), before, "no change of content");
    assert_eq!(*seen.lock().unwrap(), 0);
}

#[backend_test]
fn a_session_ends_when_idle_or_past_its_lifetime(db: &Fixture) {
    let store = db.store();
    store
        .open_admin_session(&session(1, "admin", T0), 100)
        .unwrap();
    // Used every 20 minutes: the idle limit never strikes, the lifetime does.
    let mut now = T0;
    for _ in 0..23 {
        now += 20 * MINUTE;
        assert!(
            store.touch_admin_session(&[1; 32], now).unwrap().is_some(),
            "{now}"
        );
    }
    now += 20 * MINUTE;
    assert!(now >= T0 + 8 * 60 * MINUTE);
    assert!(
        store.touch_admin_session(&[1; 32], now).unwrap().is_none(),
        "past 8 hours"
    );

    store
        .open_admin_session(&session(2, "admin", T0), 100)
        .unwrap();
    assert!(
        store
            .touch_admin_session(&[2; 32], T0 + 30 * MINUTE)
            .unwrap()
            .is_none(),
        "30 minutes unused"
    );
    assert!(
        store.touch_admin_session(&[2; 32], T0).unwrap().is_none(),
        "an expired session found is deleted, not revived by a clock going back"
    );
}

#[backend_test]
fn the_least_recently_used_sessions_go_beyond_the_bound(db: &Fixture) {
    let store = db.store();
    for byte in 1..=3 {
        store
            .open_admin_session(&session(byte, "admin", T0 + i64::from(byte)), 3)
            .unwrap();
    }
    store
        .touch_admin_session(&[1; 32], T0 + 10)
        .unwrap()
        .unwrap();
    store
        .open_admin_session(&session(4, "admin", T0 + 11), 3)
        .unwrap();
    let live: Vec<u8> = (1..=4)
        .filter(|byte| {
            store
                .touch_admin_session(&[*byte; 32], T0 + 12)
                .unwrap()
                .is_some()
        })
        .collect();
    assert_eq!(live, [1, 3, 4], "session 2 was the least recently used");
}

#[backend_test]
fn closing_a_users_sessions_leaves_the_others(db: &Fixture) {
    let store = db.store();
    store
        .open_admin_session(&session(1, "alice", T0), 100)
        .unwrap();
    store
        .open_admin_session(&session(2, "alice", T0), 100)
        .unwrap();
    store
        .open_admin_session(&session(3, "bob", T0), 100)
        .unwrap();
    assert_eq!(db.reopen().close_admin_sessions_of("alice").unwrap(), 2);
    assert!(store.touch_admin_session(&[1; 32], T0).unwrap().is_none());
    assert!(store.touch_admin_session(&[2; 32], T0).unwrap().is_none());
    assert_eq!(
        store
            .touch_admin_session(&[3; 32], T0)
            .unwrap()
            .unwrap()
            .user,
        "bob"
    );
}

#[backend_test]
fn a_pending_sign_in_is_taken_once_and_only_before_it_expires(db: &Fixture) {
    let (a, b) = (db.store(), db.reopen());
    a.begin_admin_login(&[1; 32], T0, T0 + 10 * MINUTE, 100)
        .unwrap();
    a.begin_admin_login(&[2; 32], T0, T0 + 10 * MINUTE, 100)
        .unwrap();
    assert!(!b.take_admin_login(&[3; 32], T0).unwrap(), "never begun");
    assert!(b.take_admin_login(&[1; 32], T0 + MINUTE).unwrap());
    assert!(
        !a.take_admin_login(&[1; 32], T0 + MINUTE).unwrap(),
        "used already"
    );
    assert!(
        !b.take_admin_login(&[2; 32], T0 + 10 * MINUTE).unwrap(),
        "expired"
    );
}

/// Regression: a full table evicted the oldest sign-in, so a flood of anonymous starts
/// evicted the sign-in of a person at their identity provider.
#[backend_test]
fn pending_sign_ins_stay_bounded_and_a_flood_evicts_none(db: &Fixture) {
    let store = db.store();
    let begun: Vec<bool> = (1..=5u8)
        .map(|byte| {
            store
                .begin_admin_login(&[byte; 32], T0, T0 + MINUTE + i64::from(byte), 3)
                .unwrap()
        })
        .collect();
    assert_eq!(begun, [true, true, true, false, false]);
    let kept: Vec<u8> = (1..=5u8)
        .filter(|byte| store.take_admin_login(&[*byte; 32], T0).unwrap())
        .collect();
    assert_eq!(
        kept,
        [1, 2, 3],
        "those under way stay, the newest are refused"
    );
    assert!(
        store
            .begin_admin_login(&[6; 32], T0 + 2 * MINUTE, T0 + 3 * MINUTE, 3)
            .unwrap(),
        "room again once taken or expired"
    );
}

#[backend_test]
fn concurrent_takes_of_one_sign_in_succeed_once(db: &Fixture) {
    const TAKERS: usize = 6;
    db.store()
        .begin_admin_login(&[9; 32], T0, T0 + MINUTE, 100)
        .unwrap();
    let barrier = Arc::new(Barrier::new(TAKERS));
    let handles: Vec<_> = (0..TAKERS)
        .map(|_| {
            let store = db.reopen();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                store.take_admin_login(&[9; 32], T0).unwrap()
            })
        })
        .collect();
    let taken = handles
        .into_iter()
        .map(|handle| handle.join().unwrap())
        .filter(|taken| *taken)
        .count();
    assert_eq!(taken, 1);
}

fn call(at_ms: i64, wiki: &str, tool: &str, user: &str, outcome: &str) -> AuditCall {
    AuditCall {
        at_ms,
        wiki: wiki.to_owned(),
        tool: tool.to_owned(),
        user: user.to_owned(),
        outcome: outcome.to_owned(),
        reason: (outcome != "ok").then(|| "not_found".to_owned()),
        duration_ms: 3,
    }
}

#[backend_test]
fn audit_calls_appended_anywhere_read_back_newest_first_and_filtered(db: &Fixture) {
    let (a, b) = (db.store(), db.reopen());
    let (_subscription, seen) = count_events(&*a);
    let before = a.change_seq().unwrap();
    a.append_audit(
        &[
            call(T0, "main", "get_document", "alice", "ok"),
            call(T0 + 1, "sales", "search", "bob", "error"),
        ],
        AuditRetention::default(),
    )
    .unwrap();
    b.append_audit(
        &[call(T0 + 2, "main", "search", "alice", "ok")],
        AuditRetention::default(),
    )
    .unwrap();

    let all = a.recent_audit(&AuditFilter::default(), 10).unwrap();
    let tools: Vec<(&str, &str)> = all
        .iter()
        .map(|call| (call.wiki.as_str(), call.tool.as_str()))
        .collect();
    assert_eq!(
        tools,
        [
            ("main", "search"),
            ("sales", "search"),
            ("main", "get_document")
        ]
    );
    assert_eq!(all[1], call(T0 + 1, "sales", "search", "bob", "error"));
    assert_eq!(a.recent_audit(&AuditFilter::default(), 1).unwrap().len(), 1);

    let main_only = ["main".to_owned()];
    let filtered = |filter: AuditFilter<'_>| -> Vec<i64> {
        b.recent_audit(&filter, 10)
            .unwrap()
            .iter()
            .map(|call| call.at_ms - T0)
            .collect()
    };
    assert_eq!(
        filtered(AuditFilter {
            wikis: Some(&main_only),
            ..Default::default()
        }),
        [2, 0]
    );
    assert_eq!(
        filtered(AuditFilter {
            wikis: Some(&[]),
            ..Default::default()
        }),
        Vec::<i64>::new()
    );
    assert_eq!(
        filtered(AuditFilter {
            tool: Some("search"),
            ..Default::default()
        }),
        [2, 1]
    );
    assert_eq!(
        filtered(AuditFilter {
            user: Some("alice"),
            tool: Some("search"),
            ..Default::default()
        }),
        [2]
    );
    assert_eq!(
        filtered(AuditFilter {
            outcome: Some("error"),
            ..Default::default()
        }),
        [1]
    );
    assert_eq!(
        filtered(AuditFilter {
            reason: Some("not_found"),
            ..Default::default()
        }),
        [1]
    );
    assert_eq!(
        filtered(AuditFilter {
            wiki: Some("sales"),
            wikis: Some(&main_only),
            ..Default::default()
        }),
        Vec::<i64>::new()
    );
    assert_eq!(
        filtered(AuditFilter {
            reason: Some("' OR 1=1 --"),
            ..Default::default()
        }),
        Vec::<i64>::new()
    );

    assert_eq!(a.change_seq().unwrap(), before, "no change of content");
    assert_eq!(*seen.lock().unwrap(), 0);
}

#[backend_test]
fn the_audit_keeps_only_the_newest_rows_of_the_retention_window(db: &Fixture) {
    let store = db.store();
    let keep = AuditRetention {
        rows: 4,
        max_age_ms: 10 * MINUTE,
    };
    let batch: Vec<AuditCall> = (0..6)
        .map(|i| call(T0 + i, "main", &format!("tool{i}"), "alice", "ok"))
        .collect();
    store.append_audit(&batch, keep).unwrap();
    let tools = |store: &dyn wiki_store::Store| -> Vec<String> {
        store
            .recent_audit(&AuditFilter::default(), 100)
            .unwrap()
            .into_iter()
            .map(|call| call.tool)
            .collect()
    };
    assert_eq!(
        tools(&*store),
        ["tool5", "tool4", "tool3", "tool2"],
        "the newest 4"
    );

    store
        .append_audit(
            &[call(T0 + 10 * MINUTE + 3, "main", "late", "alice", "ok")],
            keep,
        )
        .unwrap();
    assert_eq!(
        tools(&*store),
        ["late", "tool5", "tool4", "tool3"],
        "rows older than ten minutes before the newest went"
    );
    store.append_audit(&[], keep).unwrap();
    assert_eq!(
        tools(&*db.reopen()).len(),
        4,
        "an empty batch changes nothing"
    );
}

#[backend_test]
fn the_audit_pages_by_a_stable_cursor_and_filters_by_time(db: &Fixture) {
    let store = db.store();
    let batch: Vec<AuditCall> = (0..5)
        .map(|i| call(T0 + i * MINUTE, "main", &format!("tool{i}"), "alice", "ok"))
        .collect();
    store
        .append_audit(&batch, AuditRetention::default())
        .unwrap();
    let page = |filter: AuditFilter<'_>, cursor: AuditCursor| -> Vec<AuditRow> {
        db.reopen().audit_page(&filter, cursor, 2).unwrap()
    };
    let tools = |rows: &[AuditRow]| -> Vec<String> {
        rows.iter().map(|row| row.call.tool.clone()).collect()
    };
    let first = page(AuditFilter::default(), AuditCursor::Newest);
    assert_eq!(tools(&first), ["tool4", "tool3"]);
    // A call recorded meanwhile moves no row between the older pages.
    store
        .append_audit(
            &[call(T0 + 9 * MINUTE, "main", "late", "alice", "ok")],
            AuditRetention::default(),
        )
        .unwrap();
    let second = page(AuditFilter::default(), AuditCursor::Before(first[1].id));
    assert_eq!(tools(&second), ["tool2", "tool1"]);
    let third = page(AuditFilter::default(), AuditCursor::Before(second[1].id));
    assert_eq!(tools(&third), ["tool0"]);
    // Back up: the rows just newer than the cursor, still newest first.
    let back = page(AuditFilter::default(), AuditCursor::After(third[0].id));
    assert_eq!(tools(&back), ["tool2", "tool1"]);
    let top = page(AuditFilter::default(), AuditCursor::After(first[0].id));
    assert_eq!(tools(&top), ["late"]);

    // From is inclusive, to exclusive.
    let window = AuditFilter {
        from_ms: Some(T0 + MINUTE),
        to_ms: Some(T0 + 3 * MINUTE),
        ..Default::default()
    };
    assert_eq!(
        tools(&page(window, AuditCursor::Newest)),
        ["tool2", "tool1"]
    );
    let since = AuditFilter {
        from_ms: Some(T0 + 4 * MINUTE),
        ..Default::default()
    };
    assert_eq!(tools(&page(since, AuditCursor::Newest)), ["late", "tool4"]);
    let until = AuditFilter {
        to_ms: Some(T0),
        ..Default::default()
    };
    assert!(page(until, AuditCursor::Newest).is_empty());
}
