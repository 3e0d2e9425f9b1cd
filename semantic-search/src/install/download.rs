//! Downloading the wheel into the staging directory, hashed and size-bounded as it streams.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

use url::Url;

use super::Progress;
use crate::digest::HashingWriter;
use crate::error::{Error, Result};
use crate::package::PinnedFile;

/// How often progress is reported.
const REPORT_EVERY: u64 = 1024 * 1024;

/// Downloads `url` to `dest`, refusing a body that is not exactly `pinned` (size, then SHA-256).
/// Never reads more than one byte past the pinned size, whatever the server sends.
pub(super) fn fetch(
    agent: &ureq::Agent,
    url: &Url,
    pinned: &PinnedFile,
    dest: &Path,
    report: &dyn Fn(Progress<'_>),
) -> Result<()> {
    let failed = |e: &dyn std::fmt::Display| Error::Download(format!("downloading {url}: {e}"));
    let response = agent.get(url.as_str()).call().map_err(|e| failed(&e))?;
    let announced = response
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if let Some(length) = announced
        && length != pinned.size
    {
        return Err(Error::Download(format!(
            "downloading {url}: the server offers {length} bytes, but {} has {}; nothing was \
             installed",
            pinned.path, pinned.size
        )));
    }
    let file = File::create(dest).map_err(|e| Error::io("create", dest, e))?;
    let mut writer = HashingWriter::new(BufWriter::new(file));
    let mut body = response.into_body().into_reader().take(pinned.size + 1);
    copy_reporting(&mut body, &mut writer, pinned.size, report).map_err(|e| failed(&e))?;
    if writer.written() != pinned.size {
        return Err(Error::Download(format!(
            "downloading {url}: received {}{} bytes, expected {}; nothing was installed",
            writer.written(),
            if writer.written() > pinned.size {
                "+"
            } else {
                ""
            },
            pinned.size
        )));
    }
    let (buffered, actual) = writer.finish();
    buffered
        .into_inner()
        .map_err(|e| Error::io("write", dest, e.into_error()))?
        .sync_all()
        .map_err(|e| Error::io("write", dest, e))?;
    if actual != pinned.sha256 {
        return Err(Error::DigestMismatch {
            what: format!("the download of {}", pinned.path),
            expected: pinned.sha256.clone(),
            actual,
        });
    }
    Ok(())
}

fn copy_reporting(
    from: &mut impl Read,
    to: &mut HashingWriter<impl Write>,
    total: u64,
    report: &dyn Fn(Progress<'_>),
) -> io::Result<()> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut next_report = 0;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        to.write_all(&buf[..n])?;
        if to.written() >= next_report {
            report(Progress::Downloading {
                received: to.written(),
                total,
            });
            next_report = to.written() + REPORT_EVERY;
        }
    }
    to.flush()?;
    report(Progress::Downloading {
        received: to.written(),
        total,
    });
    Ok(())
}
