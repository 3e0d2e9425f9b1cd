//! SHA-256 in lowercase hex: the form pins, package indexes and chunk digests are written in.

use std::fmt::Write as _;
use std::io::{self, Read, Write};

use sha2::{Digest, Sha256};

/// Lowercase hex of a byte string.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        // Writing to a String cannot fail.
        let _ = write!(out, "{byte:02x}");
    }
    out
}

/// A writer that hashes and counts what passes through it on the way to `inner`, so a file is
/// verified in the same pass that writes it.
pub(crate) struct HashingWriter<W> {
    inner: W,
    hasher: Sha256,
    written: u64,
}

impl<W: Write> HashingWriter<W> {
    pub(crate) fn new(inner: W) -> Self {
        HashingWriter {
            inner,
            hasher: Sha256::new(),
            written: 0,
        }
    }

    /// The bytes written so far.
    pub(crate) fn written(&self) -> u64 {
        self.written
    }

    /// The inner writer and the hex digest of everything written.
    pub(crate) fn finish(self) -> (W, String) {
        (self.inner, hex(&self.hasher.finalize()))
    }
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The hex digest and length of everything `reader` yields.
pub(crate) fn of_reader(reader: &mut impl Read) -> io::Result<(String, u64)> {
    let mut writer = HashingWriter::new(io::sink());
    io::copy(reader, &mut writer)?;
    let written = writer.written();
    let (_, digest) = writer.finish();
    Ok((digest, written))
}

/// The hex digest of a byte string.
pub(crate) fn of_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_match_the_published_test_vector() {
        // FIPS 180-2, "abc".
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(of_bytes(b"abc"), expected);
        let (digest, len) = of_reader(&mut &b"abc"[..]).expect("reading a slice cannot fail");
        assert_eq!((digest.as_str(), len), (expected, 3));
    }
}
