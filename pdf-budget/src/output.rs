//! Where pdf-extract's output goes: a writer that keeps at most so many characters, behind an
//! output device that meters every call and, every few calls, asks whether the extraction must
//! stop (the caller left, or the time budget ran out). pdf-extract ends a page on the first
//! error an output call returns, so a stop takes effect inside a page, not after it.

use std::fmt;
use std::time::Instant;

use pdf_extract::{ConvertToFmt, MediaBox, OutputDev, OutputError, PlainTextOutput, Transform};

use crate::walk::{GLYPH_WORK, SHOWN_STRING_WORK};

/// Output calls between two checks of the stop signal and the clock.
const CALLS_PER_CHECK: u32 = 64;

/// The text writer: stops accepting once `cap` characters are written, which makes pdf-extract
/// end the page it is on.
pub(crate) struct Capped {
    pub(crate) text: String,
    chars: usize,
    cap: usize,
    pub(crate) full: bool,
}

/// A place in the text, to go back to when a page is abandoned.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    len: usize,
    chars: usize,
}

impl Capped {
    /// An empty writer keeping at most `cap` characters, or `text` so far.
    pub(crate) fn new(text: String, cap: usize) -> Self {
        let chars = text.chars().count();
        Self {
            full: chars >= cap,
            text,
            chars,
            cap,
        }
    }

    /// Where the text ends now.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            len: self.text.len(),
            chars: self.chars,
        }
    }

    /// Drops what was written after `mark`.
    pub(crate) fn rewind(&mut self, mark: Mark) {
        self.text.truncate(mark.len);
        self.chars = mark.chars;
        self.full = self.chars >= self.cap;
    }
}

impl fmt::Write for Capped {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.full {
            return Err(fmt::Error);
        }
        // Leading whitespace (pdf-extract starts pages with line feeds) does not count.
        let s = if self.text.is_empty() {
            s.trim_start()
        } else {
            s
        };
        let left = self.cap - self.chars;
        match s.char_indices().nth(left) {
            None => {
                self.chars += s.chars().count();
                self.text.push_str(s);
                Ok(())
            }
            Some((cut, _)) => {
                self.text.push_str(&s[..cut]);
                self.chars = self.cap;
                self.full = true;
                Err(fmt::Error)
            }
        }
    }
}

impl<'a> ConvertToFmt for &'a mut Capped {
    type Writer = &'a mut Capped;

    fn convert(self) -> Self::Writer {
        self
    }
}

/// Why a metered page stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Halt {
    /// The caller asked to stop.
    Stopped,
    /// The time budget ran out.
    OutOfTime,
}

/// pdf-extract's plain-text device, metered: a glyph is charged [`GLYPH_WORK`], the start and
/// the end of a shown string half of [`SHOWN_STRING_WORK`] each (what the walk charged for
/// them), and every [`CALLS_PER_CHECK`] calls `stopped` and the deadline are checked.
pub(crate) struct Metered<'w, 's> {
    inner: PlainTextOutput<&'w mut Capped>,
    stopped: &'s dyn Fn() -> bool,
    deadline: Instant,
    calls: u32,
    /// The work charged so far.
    pub(crate) work: usize,
    /// Why the page stopped early, if it did.
    pub(crate) halt: Option<Halt>,
}

impl<'w, 's> Metered<'w, 's> {
    pub(crate) fn new(
        writer: &'w mut Capped,
        stopped: &'s dyn Fn() -> bool,
        deadline: Instant,
    ) -> Self {
        Self {
            inner: PlainTextOutput::new(writer),
            stopped,
            deadline,
            calls: 0,
            work: 0,
            halt: None,
        }
    }

    /// Charges one call; an error (which ends the page) once a check says stop.
    fn charge(&mut self, work: usize) -> Result<(), OutputError> {
        self.work = self.work.saturating_add(work);
        self.calls += 1;
        if self.calls.is_multiple_of(CALLS_PER_CHECK) {
            self.check();
        }
        match self.halt {
            Some(_) => Err(OutputError::FormatError(fmt::Error)),
            None => Ok(()),
        }
    }

    /// Asks whether to stop, now.
    pub(crate) fn check(&mut self) {
        if self.halt.is_none() {
            if (self.stopped)() {
                self.halt = Some(Halt::Stopped);
            } else if Instant::now() >= self.deadline {
                self.halt = Some(Halt::OutOfTime);
            }
        }
    }
}

impl OutputDev for Metered<'_, '_> {
    fn begin_page(
        &mut self,
        page_num: u32,
        media_box: &MediaBox,
        art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.inner.begin_page(page_num, media_box, art_box)
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        self.inner.end_page()
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        spacing: f64,
        font_size: f64,
        char: &str,
    ) -> Result<(), OutputError> {
        self.charge(GLYPH_WORK)?;
        self.inner
            .output_character(trm, width, spacing, font_size, char)
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        self.charge(SHOWN_STRING_WORK / 2)?;
        self.inner.begin_word()
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        self.charge(SHOWN_STRING_WORK / 2)?;
        self.inner.end_word()
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        self.inner.end_line()
    }
}
