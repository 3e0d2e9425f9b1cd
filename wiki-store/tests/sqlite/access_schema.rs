//! Schema constraints of the access half, checked straight on the SQLite file: the schema refuses
//! rows the code never writes.

use crate::harness::{database_file, store};

fn refused(conn: &rusqlite::Connection, sql: &str) -> bool {
    conn.execute(sql, []).is_err()
}

#[test]
fn the_schema_refuses_rows_the_code_never_writes() {
    let (dir, _store) = store();
    let conn = rusqlite::Connection::open(database_file(&dir)).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    let rule = |space: &str, page: &str, right: &str, effect: &str| {
        format!(
            "INSERT INTO rights (wiki, space, page, subject_kind, subject, right_name, effect) \
             VALUES ('main', '{space}', '{page}', 'user', 'alice', '{right}', '{effect}')"
        )
    };
    assert!(!refused(&conn, &rule("A", "P", "view", "allow")));
    assert!(
        refused(&conn, &rule("", "P", "view", "allow")),
        "a page rule needs its space"
    );
    assert!(
        refused(&conn, &rule("A", "", "read", "allow")),
        "unknown right"
    );
    assert!(
        refused(&conn, &rule("A", "", "view", "maybe")),
        "unknown effect"
    );
    assert!(refused(
        &conn,
        "INSERT INTO group_members VALUES ('nogroup', 'user', 'alice')"
    ));
    assert!(
        refused(
            &conn,
            "INSERT INTO api_tokens VALUES ('p', x'00', 'alice', '', 0)"
        ),
        "a digest is 32 bytes (and the user must exist)"
    );
    assert!(refused(
        &conn,
        "INSERT INTO objects (document_id, class, number) VALUES (999, 'C', 0)"
    ));
}
