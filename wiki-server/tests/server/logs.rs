//! One process-wide tracing subscriber writing into a buffer, so tests can read the audit
//! trail and the WARNs (events from blocking threads included).

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use tracing_subscriber::fmt::MakeWriter;

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Buffer {
    type Writer = Buffer;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

fn buffer() -> &'static Buffer {
    static BUFFER: OnceLock<Buffer> = OnceLock::new();
    BUFFER.get_or_init(|| {
        let buffer = Buffer::default();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(buffer.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::INFO)
            .finish();
        // Another test may have installed it first; both write to this buffer.
        let _ = tracing::subscriber::set_global_default(subscriber);
        buffer
    })
}

/// Where one test's reading of the log starts: what it logs comes after, what earlier tests
/// (its own trial on another backend among them) logged comes before.
pub(crate) struct Since(usize);

/// Starts capturing (idempotent): call before the code under test logs.
pub(crate) fn capture() -> Since {
    Since(
        buffer()
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len(),
    )
}

impl Since {
    /// Every line captured since this mark containing all of `needles`.
    pub(crate) fn lines_with(&self, needles: &[&str]) -> Vec<String> {
        let bytes = buffer()
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(self.0..)
            .unwrap_or_default()
            .to_vec();
        String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|line| needles.iter().all(|needle| line.contains(needle)))
            .map(str::to_owned)
            .collect()
    }
}
