//! What two replicas on one database must show.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;

use crate::farm::{Answer, Farm, call_at, within};
use wiki_store::testing::{PostgresServer, backend_test};

/// How long a change made through one process may take to apply on every replica.
const PROPAGATION: Duration = Duration::from_secs(1);

/// How long a replica may take to find the database back after an outage.
const RECOVERY: Duration = Duration::from_secs(30);

fn write(reference: &str, content: &str) -> serde_json::Value {
    json!({"reference": reference, "content": content})
}

#[backend_test(only = "postgres")]
fn a_write_on_one_replica_is_read_and_searched_on_the_other(server: &PostgresServer) {
    let farm = Farm::create(server);
    let (a, b) = (farm.replica(), farm.replica());
    let token = &farm.admin_token;
    // B answers once before the write, so what follows is B's *next* request, not its first.
    b.call(token, "get_document", json!({"reference": "Main.WebHome"}))
        .ok();
    a.call(
        token,
        "write_document",
        write("Replicas.Visible", "The quokkaphant migrates at dawn."),
    )
    .ok();
    let read = b
        .call(
            token,
            "get_document",
            json!({"reference": "Replicas.Visible"}),
        )
        .ok();
    assert!(read.contains("The quokkaphant migrates at dawn."), "{read}");
    let found = b
        .call(token, "query_documents", json!({"query": "quokkaphant"}))
        .ok();
    assert!(found.contains("Replicas.Visible"), "{found}");
}

#[backend_test(only = "postgres")]
fn a_signed_link_from_one_replica_opens_on_the_other(server: &PostgresServer) {
    let farm = Farm::create(server);
    let (a, b) = (farm.replica(), farm.replica());
    let token = &farm.admin_token;
    a.call(
        token,
        "write_document",
        write("Replicas.Linked", "Shown through a link."),
    )
    .ok();
    let read = a
        .call(
            token,
            "get_document",
            json!({"reference": "Replicas.Linked"}),
        )
        .ok();
    let url = read
        .lines()
        .find_map(|line| line.strip_prefix("URL: "))
        .unwrap_or_else(|| panic!("no link in: {read}"));
    let (status, page) = b.get_on_this(url);
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Shown through a link."), "{page}");
    // A link altered in transit is refused on every replica alike.
    let (status, _) = b.get_on_this(&url.replace("Linked", "Linkeb"));
    assert_eq!(status, 403);
}

#[backend_test(only = "postgres")]
fn admin_commands_apply_on_every_replica_within_a_second(server: &PostgresServer) {
    let farm = Farm::create(server);
    let (a, b) = (farm.replica(), farm.replica());
    let admin = &farm.admin_token;
    let alice = farm.token("alice");
    for replica in [&a, &b] {
        replica
            .call(&alice, "get_document", json!({"reference": "Main.WebHome"}))
            .ok();
    }

    // Rights: alice loses view on the main wiki on both replicas.
    farm.admin(&[
        "rights", "deny", "view", "--wiki", "main", "--user", "alice",
    ]);
    for replica in [&a, &b] {
        within("a rights deny applies", PROPAGATION, || {
            match replica.call(&alice, "get_document", json!({"reference": "Main.WebHome"})) {
                Answer::Result {
                    is_error: true,
                    text,
                } if text.contains("permission") => Some(()),
                _ => None,
            }
        });
    }

    // Token: revoked once, refused by both.
    let prefix = alice.split('_').nth(1).expect("a token prefix").to_owned();
    farm.admin(&["token", "revoke", &prefix]);
    for replica in [&a, &b] {
        within(
            "a token revocation applies",
            PROPAGATION,
            || match replica.call(&alice, "get_document", json!({"reference": "Main.WebHome"})) {
                Answer::Status(401, _) => Some(()),
                _ => None,
            },
        );
    }

    // Configuration: write_document no longer served by either.
    farm.admin(&["config", "set", "--wiki", "main", "tools=man,get_document"]);
    for replica in [&a, &b] {
        within(
            "a configuration change applies",
            PROPAGATION,
            || match replica.call(admin, "write_document", write("Replicas.Late", "x")) {
                Answer::RpcError(message) if message.contains("write_document") => Some(()),
                _ => None,
            },
        );
    }
}

#[backend_test(only = "postgres")]
fn concurrent_writers_on_both_replicas_get_one_winner(server: &PostgresServer) {
    let farm = Farm::create(server);
    let replicas = [farm.replica(), farm.replica()];
    let token = &farm.admin_token;
    replicas[0]
        .call(token, "write_document", write("Replicas.Contended", "v1"))
        .ok();
    let base = "1.1";
    let answers: Vec<Answer> = std::thread::scope(|scope| {
        let writers: Vec<_> = (0..16)
            .map(|writer| {
                let replica = &replicas[writer % 2];
                scope.spawn(move || {
                    replica.call(
                        token,
                        "write_document",
                        json!({
                            "reference": "Replicas.Contended",
                            "content": format!("<writer {writer}>"),
                            "base_version": base,
                        }),
                    )
                })
            })
            .collect();
        writers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let winners: Vec<&String> = answers
        .iter()
        .filter_map(|answer| match answer {
            Answer::Result {
                text,
                is_error: false,
            } => Some(text),
            _ => None,
        })
        .collect();
    let conflicts = answers
        .iter()
        .filter(|answer| {
            matches!(answer, Answer::Result { text, is_error: true } if text.contains("Version conflict"))
        })
        .count();
    assert_eq!(winners.len(), 1, "{answers:?}");
    assert_eq!(conflicts, 15, "{answers:?}");
    // Nothing lost: the one stored version is the winner's, one step after the base.
    let read = replicas[1]
        .call(
            token,
            "get_document",
            json!({"reference": "Replicas.Contended"}),
        )
        .ok();
    assert!(read.contains("1.2"), "{read}");
    let winner = (0..16)
        .map(|writer| format!("<writer {writer}>"))
        .filter(|content| read.contains(content.as_str()))
        .count();
    assert_eq!(winner, 1, "{read}");
}

#[backend_test(only = "postgres")]
fn a_replica_killed_mid_writes_loses_no_acknowledged_write(server: &PostgresServer) {
    let farm = Farm::create(server);
    let mut a = farm.replica();
    let b = farm.replica();
    let token = farm.admin_token.clone();
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    std::thread::scope(|scope| {
        let writer = {
            let acknowledged = Arc::clone(&acknowledged);
            let endpoint = a.endpoint("main");
            let token = token.clone();
            // Writes one page after another until the replica is gone; a page counts once its
            // success was answered.
            scope.spawn(move || {
                let client = reqwest::blocking::Client::new();
                for page in 0.. {
                    let arguments = write(
                        &format!("Killed.Page{page}"),
                        &format!("acknowledged {page}"),
                    );
                    match call_at(&client, &endpoint, &token, "write_document", arguments) {
                        Ok(Answer::Result {
                            is_error: false, ..
                        }) => acknowledged.lock().unwrap().push(page),
                        Ok(_) => {}
                        Err(_) => break,
                    }
                }
            })
        };
        within("writes are acknowledged", Duration::from_secs(30), || {
            (acknowledged.lock().unwrap().len() >= 10).then_some(())
        });
        a.kill();
        writer.join().unwrap();
    });
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() >= 10);
    for page in &acknowledged {
        let read = b
            .call(
                &token,
                "get_document",
                json!({"reference": format!("Killed.Page{page}")}),
            )
            .ok();
        assert!(read.contains(&format!("acknowledged {page}")), "{read}");
    }
    // The survivor keeps serving writes.
    b.call(
        &token,
        "write_document",
        write("Killed.After", "still here"),
    )
    .ok();
}

/// Whether `answer` is the outage as an agent must see it: 503 with `Retry-After`, or a tool
/// error saying the database is not answering and to retry (and never SQL).
fn is_unavailable(answer: &Answer) -> bool {
    match answer {
        Answer::Status(503, Some(_)) => true,
        Answer::Result {
            text,
            is_error: true,
        } => {
            assert!(!text.to_lowercase().contains("sql"), "{text}");
            text.contains("database is not answering right now")
        }
        _ => false,
    }
}

#[backend_test(only = "postgres")]
fn a_database_outage_is_unavailable_then_both_replicas_recover(server: &PostgresServer) {
    let farm = Farm::create(server);
    let (a, b) = (farm.replica(), farm.replica());
    let token = &farm.admin_token;
    a.call(token, "write_document", write("Outage.Before", "before"))
        .ok();
    farm.proxy.down();
    for replica in [&a, &b] {
        within("the outage is reported", RECOVERY, || {
            is_unavailable(&replica.call(
                token,
                "get_document",
                json!({"reference": "Outage.Before"}),
            ))
            .then_some(())
        });
    }
    farm.proxy.up();
    for (replica, name) in [(&a, "Outage.AfterA"), (&b, "Outage.AfterB")] {
        within("the replica recovers", RECOVERY, || {
            match replica.call(token, "write_document", write(name, "after")) {
                Answer::Result {
                    is_error: false, ..
                } => Some(()),
                _ => None,
            }
        });
    }
    let read = a
        .call(token, "get_document", json!({"reference": "Outage.AfterB"}))
        .ok();
    assert!(read.contains("after"), "{read}");
}

#[backend_test(only = "postgres")]
fn a_replica_started_while_the_database_is_down_serves_once_it_is_up(server: &PostgresServer) {
    let farm = Farm::create(server);
    let token = &farm.admin_token;
    farm.proxy.down();
    let late = farm.replica();
    let answer = late.call(token, "get_document", json!({"reference": "Main.WebHome"}));
    assert!(matches!(answer, Answer::Status(503, Some(_))), "{answer:?}");
    farm.proxy.up();
    within("the late replica serves", RECOVERY, || {
        match late.call(token, "get_document", json!({"reference": "Main.WebHome"})) {
            Answer::Result {
                is_error: false, ..
            } => Some(()),
            _ => None,
        }
    });
    // Its link key is the farm's: a link it prints opens on another replica.
    let other = farm.replica();
    let read = late
        .call(token, "get_document", json!({"reference": "Main.WebHome"}))
        .ok();
    let url = read
        .lines()
        .find_map(|line| line.strip_prefix("URL: "))
        .unwrap_or_else(|| panic!("no link in: {read}"));
    assert_eq!(other.get_on_this(url).0, 200);
}
