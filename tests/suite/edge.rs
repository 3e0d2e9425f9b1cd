//! The HTTP edge, through a real server on loopback and raw TCP (reqwest never sends what these
//! tests need): header and body deadlines, the connection caps, malformed heads.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use wiki_server::http::{ConnectionLimits, HttpOptions, REFUSAL_HEADER, Refusal};

use crate::harness::{Answer, TestServer};

/// A server with short deadlines and small caps, and no rate limit.
async fn server_with(connections: ConnectionLimits) -> TestServer {
    TestServer::start_with(HttpOptions {
        rate_limit: None,
        connections,
        ..HttpOptions::default()
    })
    .await
}

fn limits() -> ConnectionLimits {
    ConnectionLimits {
        header_timeout: Duration::from_millis(500),
        body_timeout: Duration::from_millis(500),
        ..ConnectionLimits::default()
    }
}

/// Reads until the server closes the connection (or 5 s pass: then the test fails).
async fn read_to_close(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(
        read.is_ok(),
        "the server kept the connection open: {answer:?}"
    );
    String::from_utf8_lossy(&answer).into_owned()
}

/// The refusal code in a raw answer's head.
fn refusal_in(answer: &str) -> Option<&str> {
    let head = answer.split("\r\n\r\n").next()?;
    head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case(REFUSAL_HEADER)
            .then(|| value.trim())
    })
}

/// Sends `head` (and `body`) on a fresh connection and returns everything the server says.
async fn exchange(server: &TestServer, raw: &str) -> String {
    let mut stream = TcpStream::connect(server.bound).await.expect("connects");
    stream.write_all(raw.as_bytes()).await.expect("sends");
    read_to_close(&mut stream).await
}

fn tools_list_request(extra_headers: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    format!(
        "POST /rest/wikis/main/aiLLM/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Connection: close\r\n{extra_headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_that_trickles_or_never_comes_is_closed_after_the_header_timeout() {
    let server = server_with(limits()).await;
    // Half a request line, then silence.
    let mut trickling = TcpStream::connect(server.bound).await.expect("connects");
    trickling.write_all(b"POST /rest/wi").await.expect("sends");
    let answer = read_to_close(&mut trickling).await;
    assert!(!answer.contains("200 OK"), "{answer}");
    // A connection that sends nothing at all.
    let mut idle = TcpStream::connect(server.bound).await.expect("connects");
    read_to_close(&mut idle).await;
    // The server still answers complete requests.
    assert!(
        exchange(&server, &tools_list_request(""))
            .await
            .starts_with("HTTP/1.1 200")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_does_not_arrive_in_time_is_408() {
    let server = server_with(limits()).await;
    let mut stream = TcpStream::connect(server.bound).await.expect("connects");
    let head = "POST /rest/wikis/main/aiLLM/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                Accept: application/json, text/event-stream\r\n\
                Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"";
    stream.write_all(head.as_bytes()).await.expect("sends");
    let answer = read_to_close(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert_eq!(refusal_in(&answer), Some("body-timeout"), "{answer}");
    assert!(answer.contains("did not arrive within 0.5 s"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_body_over_the_cap_is_413_before_it_is_sent() {
    let server = TestServer::start_with(HttpOptions {
        rate_limit: None,
        max_body_bytes: 1024,
        ..HttpOptions::default()
    })
    .await;
    // The head alone: the answer must not wait for the 1 MB that is announced.
    let answer = exchange(
        &server,
        "POST /rest/wikis/main/aiLLM/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Content-Type: application/json\r\nConnection: close\r\nContent-Length: 1000000\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert_eq!(
        refusal_in(&answer),
        Some(Refusal::BodyTooLarge { max: 1024 }.code()),
        "{answer}"
    );
    assert!(answer.contains("exceeds 1024 bytes"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_hold_more_than_its_connections() {
    let server = server_with(ConnectionLimits {
        max_connections_per_address: 2,
        ..ConnectionLimits::default()
    })
    .await;
    let first = TcpStream::connect(server.bound).await.expect("connects");
    let second = TcpStream::connect(server.bound).await.expect("connects");
    // Let the server accept both before the third arrives.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let refused = exchange(&server, &tools_list_request("")).await;
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert_eq!(
        refusal_in(&refused),
        Some(Refusal::TooManyConnections.code()),
        "{refused}"
    );
    assert!(
        refused.contains("too many open connections from your address"),
        "{refused}"
    );
    drop(first);
    drop(second);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let served = exchange(&server, &tools_list_request("")).await;
    assert!(served.starts_with("HTTP/1.1 200"), "{served}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_total_cap_an_address_holding_as_many_as_anyone_is_refused() {
    let server = server_with(ConnectionLimits {
        max_connections: 2,
        ..ConnectionLimits::default()
    })
    .await;
    let first = TcpStream::connect(server.bound).await.expect("connects");
    let _second = TcpStream::connect(server.bound).await.expect("connects");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let refused = exchange(&server, &tools_list_request("")).await;
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert_eq!(
        refusal_in(&refused),
        Some(Refusal::TooManyConnections.code()),
        "{refused}"
    );
    drop(first);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let served = exchange(&server, &tools_list_request("")).await;
    assert!(served.starts_with("HTTP/1.1 200"), "{served}");
}

/// A connection from the loopback address `127.0.0.<last>` (all of 127/8 is local on Linux).
async fn connect_from(server: &TestServer, last: u8) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(SocketAddr::from(([127, 0, 0, last], 0)))
        .expect("binds a loopback source address");
    socket.connect(server.bound).await.expect("connects")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_address_is_served_when_other_addresses_fill_the_total_cap() {
    let server = server_with(ConnectionLimits {
        max_connections: 4,
        max_connections_per_address: 2,
        ..ConnectionLimits::default()
    })
    .await;
    // Two addresses at their cap fill every slot: one with a finished keep-alive request, one
    // with connections that never sent anything.
    let mut holders = Vec::new();
    for _ in 0..2 {
        let mut kept = connect_from(&server, 2).await;
        let request = tools_list_request("").replace("Connection: close\r\n", "");
        kept.write_all(request.as_bytes()).await.expect("sends");
        let mut head = [0_u8; 12];
        kept.read_exact(&mut head).await.expect("an answer");
        assert_eq!(&head, b"HTTP/1.1 200");
        holders.push(kept);
        holders.push(connect_from(&server, 3).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut newcomer = connect_from(&server, 4).await;
    newcomer
        .write_all(tools_list_request("").as_bytes())
        .await
        .expect("sends");
    let answer = read_to_close(&mut newcomer).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // The newcomer's address got one slot; the others keep three of the four between them.
    let mut closed = 0;
    for held in &mut holders {
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_millis(200), held.read_to_end(&mut rest));
        if let Ok(Ok(_)) = read.await {
            closed += 1;
        }
    }
    assert_eq!(
        closed, 1,
        "one idle connection of a biggest holder gave way"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_identity_headers_and_userinfo_are_400() {
    let server = TestServer::start().await;
    let cases = [
        (
            tools_list_request("Authorization: Bearer a\r\nAuthorization: Bearer b\r\n"),
            "the authorization header appears more than once",
        ),
        (
            tools_list_request("Host: localhost\r\n"),
            "the host header appears more than once",
        ),
        (
            tools_list_request("Origin: http://localhost\r\nOrigin: http://localhost\r\n"),
            "the origin header appears more than once",
        ),
        (
            tools_list_request("Origin: http://evil@localhost\r\n"),
            "the origin header carries user information",
        ),
        (
            tools_list_request("").replace("Host: 127.0.0.1", "Host: evil@127.0.0.1"),
            "the host header carries user information",
        ),
        (
            tools_list_request("").replace("POST /rest", "POST http://evil@127.0.0.1/rest"),
            "the request URL carries user information",
        ),
    ];
    for (request, reason) in cases {
        let answer = exchange(&server, &request).await;
        assert!(answer.starts_with("HTTP/1.1 400"), "{request}\n{answer}");
        assert!(
            matches!(
                refusal_in(&answer),
                Some("repeated-header" | "user-information")
            ),
            "{request}\n{answer}"
        );
        assert!(answer.contains(reason), "{request}\n{answer}");
    }
    // The same request, well formed, is served.
    assert!(
        exchange(&server, &tools_list_request(""))
            .await
            .starts_with("HTTP/1.1 200")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_and_readyz_answer_and_the_root_page_names_the_endpoints_but_no_wiki() {
    let server = TestServer::start().await;
    let health = reqwest::get(format!("{}/healthz", server.base))
        .await
        .expect("an answer");
    assert_eq!(health.status(), 200);
    assert_eq!(health.text().await.expect("a body"), "ok\n");
    let ready = reqwest::get(format!("{}/readyz", server.base))
        .await
        .expect("an answer");
    assert_eq!(Answer::of(&ready), Answer::ok());
    assert_eq!(ready.text().await.expect("a body"), "ready\n");
    let root = reqwest::get(format!("{}/", server.base))
        .await
        .expect("an answer");
    assert_eq!(root.status(), 200);
    let html = root.text().await.expect("a body");
    assert!(
        html.contains("MCP (Model Context Protocol) server"),
        "{html}"
    );
    assert!(
        html.contains(&format!("{}/rest/wikis/main/aiLLM/mcp", server.base)),
        "{html}"
    );
    assert!(
        !html.contains(&format!("/wikis/{}/", wiki_mcp_cli::demo::DEMO_SUBWIKI)),
        "{html}"
    );
    // A foreign Host is refused here too (the DNS-rebinding check covers every route).
    let foreign = reqwest::Client::new()
        .get(format!("{}/healthz", server.base))
        .header("host", "evil.example")
        .send()
        .await
        .expect("an answer");
    assert_eq!(
        Answer::of(&foreign),
        Answer::refused(&Refusal::HostNotAllowed)
    );
}
