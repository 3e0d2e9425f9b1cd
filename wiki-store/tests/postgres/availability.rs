//! The database going away and coming back: the store is constructible while it is down, says
//! so with a typed error the server turns into 503, and heals without a restart.

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use wiki_store::model::document::DocumentSave;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::testing::{PostgresServer, backend_test};
use wiki_store::{ChangeFeed, DocumentStore, PostgresStore, StoreConfig, StoreError};

use crate::proxy::Proxy;
use crate::wait_for;
use wiki_store::testing::scratch::ScratchDatabase;

fn page(name: &str) -> DocumentReference {
    DocumentReference::parse(&format!("Outage.{name}"), &WikiId::main()).unwrap()
}

fn save(store: &PostgresStore, name: &str) -> Result<(), StoreError> {
    store
        .save_document(&DocumentSave::new(page(name), "content", "alice"))
        .map(drop)
}

fn quick() -> StoreConfig {
    StoreConfig {
        connect_timeout_ms: 500,
        ..StoreConfig::default()
    }
}

/// The server's address, and the URL of `database` on it reached through `through`.
fn proxied(server: &str, database: &ScratchDatabase, through: SocketAddr) -> (SocketAddr, String) {
    let config: postgres::Config = server.parse().unwrap();
    let host = match &config.get_hosts()[0] {
        postgres::config::Host::Tcp(host) => host.clone(),
        postgres::config::Host::Unix(_) => panic!("the proxy tests need a TCP server URL"),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let upstream = (host.as_str(), port)
        .to_socket_addrs()
        .unwrap()
        .next()
        .unwrap();
    let mut url = format!(
        "host={} port={} dbname={} user={}",
        through.ip(),
        through.port(),
        database.name(),
        config.get_user().unwrap_or("postgres")
    );
    if let Some(password) = config.get_password() {
        url.push_str(&format!(" password={}", String::from_utf8_lossy(password)));
    }
    (upstream, url)
}

#[backend_test(only = "postgres")]
fn a_store_over_an_unreachable_server_is_created_and_reports_unavailable(_server: &PostgresServer) {
    // A port nobody listens on: bound, then closed.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let store =
        PostgresStore::connect_with(&format!("postgres://wiki@{closed}/farm"), quick()).unwrap();
    let error = save(&store, "Nowhere").unwrap_err();
    assert!(matches!(error, StoreError::Unavailable(_)), "{error:?}");
    assert!(error.is_transient());
    assert!(matches!(
        store.check_connection(),
        Err(StoreError::Unavailable(_))
    ));
    assert!(
        store.commit_marker().is_ok(),
        "the marker never needs the server"
    );
    assert!(!store.is_listening());
}

#[backend_test(only = "postgres")]
fn an_outage_is_reported_and_the_store_recovers_when_the_server_is_back(server: &PostgresServer) {
    let database = ScratchDatabase::migrated(server);
    let (upstream, _) = proxied(server, &database, "127.0.0.1:1".parse().unwrap());
    let proxy = Proxy::start(upstream);
    let (_, url) = proxied(server, &database, proxy.address());
    let store = PostgresStore::connect_with(&url, quick()).unwrap();
    save(&store, "Before").unwrap();
    wait_for("listening", Duration::from_secs(5), || store.is_listening());

    proxy.down();
    let error = save(&store, "During").unwrap_err();
    assert!(matches!(error, StoreError::Unavailable(_)), "{error:?}");
    assert!(matches!(
        store.check_connection(),
        Err(StoreError::Unavailable(_))
    ));
    wait_for("the listener noticing", Duration::from_secs(3), || {
        !store.is_listening()
    });

    // Another replica, reaching the server directly, writes while this one is cut off.
    let other = PostgresStore::connect_with(database.url(), quick()).unwrap();
    save(&other, "Elsewhere").unwrap();

    proxy.up();
    wait_for("saving again", Duration::from_secs(10), || {
        save(&store, "After").is_ok()
    });
    assert!(
        store.document(&page("Elsewhere"), None).unwrap().is_some(),
        "what was written during the outage is there"
    );
    assert!(store.document(&page("During"), None).unwrap().is_none());
    wait_for("listening again", Duration::from_secs(10), || {
        store.is_listening()
    });
    let marker = store.commit_marker().unwrap();
    save(&other, "Later").unwrap();
    wait_for(
        "another replica's commit reaching the marker",
        Duration::from_secs(1),
        || store.commit_marker().unwrap() != marker,
    );
}

#[backend_test(only = "postgres")]
fn connections_killed_by_the_server_are_replaced_without_failing_calls(server: &PostgresServer) {
    let database = ScratchDatabase::migrated(server);
    let store = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    // Warm several pooled connections.
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let store = store.clone();
            std::thread::spawn(move || save(&store, &format!("Warm{i}")).unwrap())
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let mut admin = database.client();
    let killed: i64 = admin
        .query_one(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()) k",
            &[],
        )
        .unwrap()
        .get(0);
    assert!(
        killed >= 2,
        "the pool and the listener had connections: {killed}"
    );
    save(&store, "AfterKill").unwrap();
    assert!(store.document(&page("Warm0"), None).unwrap().is_some());
    wait_for("listening again", Duration::from_secs(10), || {
        store.is_listening()
    });
}

#[backend_test(only = "postgres")]
fn a_lost_notification_connection_falls_back_to_polling_and_listens_again(server: &PostgresServer) {
    let database = ScratchDatabase::migrated(server);
    let store =
        Arc::new(PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap());
    let other = PostgresStore::connect_with(database.url(), StoreConfig::default()).unwrap();
    wait_for("listening", Duration::from_secs(5), || store.is_listening());
    let mut admin = database.client();
    // Kill both stores' listeners, then keep this one from listening again for a while by
    // killing every new listener as it appears.
    let kill_listeners = "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                          WHERE datname = current_database() AND application_name = 'wiki-mcp changes') k";
    let killed: i64 = admin.query_one(kill_listeners, &[]).unwrap().get(0);
    assert!(killed >= 1);
    wait_for("the listener noticing", Duration::from_secs(3), || {
        !store.is_listening()
    });
    let marker = store.commit_marker().unwrap();
    save(&other, "WhilePolling").unwrap();
    wait_for(
        "a commit reaching the marker by polling",
        Duration::from_secs(1),
        || store.commit_marker().unwrap() != marker,
    );
    wait_for("listening again", Duration::from_secs(10), || {
        store.is_listening()
    });
    let marker = store.commit_marker().unwrap();
    save(&other, "Listening").unwrap();
    wait_for(
        "a commit reaching the marker by notification",
        Duration::from_secs(1),
        || store.commit_marker().unwrap() != marker,
    );
}
