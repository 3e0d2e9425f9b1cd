//! Decoding a PDF stream the way lopdf will, but bounded: how many bytes its filters produce,
//! found without ever holding more than the budget allows, so a 195 KB file whose FlateDecode
//! stream inflates to 200 MB is refused after reading what the budget permits, not after
//! allocating 200 MB.
//!
//! lopdf (`Stream::decompressed_content`) applies FlateDecode (zlib, then raw deflate when zlib
//! yields nothing), LZWDecode and ASCII85Decode in the order of `/Filter`, each Flate or LZW
//! step followed by the PNG predictor of a direct `/DecodeParms` dictionary; any other filter
//! fails the whole chain (nothing is decoded). This module mirrors exactly that.

use std::io::{self, Read, Write};

/// One of the filters lopdf decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Filter {
    /// `/FlateDecode`.
    Flate,
    /// `/LZWDecode`.
    Lzw,
    /// `/ASCII85Decode`.
    Ascii85,
    /// Anything else: lopdf refuses the chain.
    Unsupported,
}

impl Filter {
    /// The filter a `/Filter` name stands for.
    pub(crate) fn from_name(name: &[u8]) -> Self {
        match name {
            b"FlateDecode" => Self::Flate,
            b"LZWDecode" => Self::Lzw,
            b"ASCII85Decode" => Self::Ascii85,
            _ => Self::Unsupported,
        }
    }
}

/// What lopdf reads from a stream's dictionary to decode it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Chain {
    /// The filters, in decoding order.
    pub(crate) filters: Vec<Filter>,
    /// The predictor's row in bytes, when `/DecodeParms` asks for a PNG predictor (10-15).
    pub(crate) predictor_row: Option<usize>,
    /// LZW's `/EarlyChange` (default on).
    pub(crate) early_change: bool,
}

impl Chain {
    /// The chain of `filters` with the `/DecodeParms` entries `param` reads (`None` when absent
    /// or not a direct integer), the predictor row computed as lopdf computes it.
    pub(crate) fn new(filters: Vec<Filter>, param: impl Fn(&[u8]) -> Option<i64>) -> Self {
        let predictor_row = param(b"Predictor")
            .filter(|p| (10..=15).contains(p))
            .map(|_| {
                let part = |key: &[u8], floor: i64| {
                    usize::try_from(param(key).unwrap_or(floor).max(floor)).unwrap_or(usize::MAX)
                };
                let bytes_per_pixel =
                    part(b"Colors", 1).saturating_mul(part(b"BitsPerComponent", 8)) / 8;
                bytes_per_pixel.saturating_mul(part(b"Columns", 1))
            });
        Self {
            filters,
            predictor_row,
            early_change: param(b"EarlyChange").is_none_or(|value| value != 0),
        }
    }
}

/// A budget (of decoded bytes, or of work) and what is left of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    total: usize,
    left: usize,
}

/// The budget ran out; `total` was the whole budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OverBudget {
    pub(crate) total: usize,
}

impl Budget {
    /// A budget of `bytes`.
    pub(crate) fn new(bytes: usize) -> Self {
        Self {
            total: bytes,
            left: bytes,
        }
    }

    /// Takes `bytes` from the budget.
    pub(crate) fn charge(&mut self, bytes: usize) -> Result<(), OverBudget> {
        self.left = self
            .left
            .checked_sub(bytes)
            .ok_or(OverBudget { total: self.total })?;
        Ok(())
    }

    /// What is left.
    pub(crate) fn left(&self) -> usize {
        self.left
    }

    /// What was taken so far.
    pub(crate) fn spent(&self) -> usize {
        self.total - self.left
    }
}

/// Charges to `budget` every byte lopdf would produce decoding `data` with `chain` (each
/// intermediate step and the predictor's two row buffers included), and returns the decoded
/// size. Only the steps before the last are kept in memory, never more than the budget.
pub(crate) fn charge_decoding(
    data: &[u8],
    chain: &Chain,
    budget: &mut Budget,
) -> Result<usize, OverBudget> {
    if chain.filters.is_empty() || chain.filters.contains(&Filter::Unsupported) {
        // No filter: the raw bytes, already in memory. An unsupported one: lopdf decodes nothing.
        return Ok(data.len());
    }
    let mut input: Vec<u8> = Vec::new();
    let mut size = 0;
    for (index, filter) in chain.filters.iter().enumerate() {
        let source: &[u8] = if index == 0 { data } else { &input };
        let keep = index + 1 < chain.filters.len();
        let mut sink = Sink::new(budget.left(), keep);
        match filter {
            Filter::Flate => inflate(source, &mut sink),
            Filter::Lzw => unlzw(source, chain.early_change, &mut sink),
            Filter::Ascii85 => ascii85(source, &mut sink),
            Filter::Unsupported => {}
        }
        if sink.over {
            return Err(OverBudget {
                total: budget.total,
            });
        }
        budget.charge(sink.written)?;
        if matches!(filter, Filter::Flate | Filter::Lzw)
            && let Some(row) = chain.predictor_row
        {
            budget.charge(row.saturating_mul(2))?;
        }
        size = sink.written;
        input = sink.kept;
    }
    Ok(size)
}

/// Where decoded bytes go: counted, kept when a later filter needs them, refused past `limit`.
struct Sink {
    limit: usize,
    written: usize,
    keep: bool,
    kept: Vec<u8>,
    over: bool,
}

impl Sink {
    fn new(limit: usize, keep: bool) -> Self {
        Self {
            limit,
            written: 0,
            keep,
            kept: Vec::new(),
            over: false,
        }
    }
}

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.written.saturating_add(bytes.len()) > self.limit {
            self.over = true;
            return Err(io::Error::other("over the decoding budget"));
        }
        self.written += bytes.len();
        if self.keep {
            self.kept.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// zlib, and when that yields nothing, raw deflate after the two header bytes (lopdf's
/// fallback for streams with a damaged checksum or header).
fn inflate(data: &[u8], sink: &mut Sink) {
    if data.is_empty() {
        return;
    }
    pump(flate2::read::ZlibDecoder::new(data), sink);
    if sink.written == 0 && !sink.over && data.len() > 2 {
        pump(flate2::read::DeflateDecoder::new(&data[2..]), sink);
    }
}

/// Copies `reader` into `sink` in small chunks until the end, an error or the budget.
fn pump(mut reader: impl Read, sink: &mut Sink) {
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(read) => {
                if sink.write_all(&chunk[..read]).is_err() {
                    return;
                }
            }
        }
    }
}

/// LZW with lopdf's code size and early-change setting.
fn unlzw(data: &[u8], early_change: bool, sink: &mut Sink) {
    use weezl::BitOrder;
    use weezl::decode::Decoder;
    let mut decoder = if early_change {
        Decoder::with_tiff_size_switch(BitOrder::Msb, 8)
    } else {
        Decoder::new(BitOrder::Msb, 8)
    };
    // The sink's refusal ends the decoding; other errors end it as they end lopdf's.
    let _ = decoder.into_stream(&mut *sink).decode_all(data);
}

/// ASCII85 as lopdf decodes it (`~>` ends it, an invalid character stops it, `z` is four
/// zero bytes).
fn ascii85(data: &[u8], sink: &mut Sink) {
    let data = data.strip_suffix(b"~>").unwrap_or(data);
    let mut buffer: u32 = 0;
    let mut count = 0;
    for &c in data {
        if c == b'z' {
            if count != 0 || sink.write_all(&[0; 4]).is_err() {
                return;
            }
            continue;
        }
        if c.is_ascii_whitespace() {
            continue;
        }
        if !(b'!'..=b'u').contains(&c) {
            break;
        }
        let Some(next) = buffer
            .checked_mul(85)
            .and_then(|b| b.checked_add(u32::from(c - b'!')))
        else {
            return;
        };
        buffer = next;
        count += 1;
        if count == 5 {
            if sink.write_all(&buffer.to_be_bytes()).is_err() {
                return;
            }
            buffer = 0;
            count = 0;
        }
    }
    if count > 0 {
        for _ in count..5 {
            let Some(next) = buffer.checked_mul(85).and_then(|b| b.checked_add(84)) else {
                return;
            };
            buffer = next;
        }
        let _ = sink.write_all(&buffer.to_be_bytes()[..count - 1]);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::io::Write as _;

    use super::*;

    /// `bytes` compressed with zlib.
    pub(crate) fn zlib(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        let _ = encoder.write_all(bytes);
        encoder.finish().unwrap_or_default()
    }

    fn chain(filters: &[Filter]) -> Chain {
        Chain::new(filters.to_vec(), |_| None)
    }

    #[test]
    fn sizes_are_what_lopdf_decodes() {
        let text = b"BT (Hello) Tj ET".repeat(100);
        let mut budget = Budget::new(1 << 20);
        let flate = chain(&[Filter::Flate]);
        assert_eq!(
            charge_decoding(&zlib(&text), &flate, &mut budget),
            Ok(text.len())
        );
        let stream = lopdf::Stream::new(
            lopdf::dictionary! { "Filter" => "FlateDecode" },
            zlib(&text),
        );
        assert_eq!(stream.decompressed_content().ok(), Some(text.clone()));
        // Two Flate steps: both are charged.
        let twice = zlib(&zlib(&text));
        let mut budget = Budget::new(1 << 20);
        let double = chain(&[Filter::Flate, Filter::Flate]);
        assert_eq!(
            charge_decoding(&twice, &double, &mut budget),
            Ok(text.len())
        );
        assert_eq!(budget.left(), (1 << 20) - zlib(&text).len() - text.len());
        // ASCII85 of "Man " is "9jqo^"; an unsupported filter decodes nothing.
        let mut budget = Budget::new(100);
        assert_eq!(
            charge_decoding(b"9jqo^~>", &chain(&[Filter::Ascii85]), &mut budget),
            Ok(4)
        );
        let odd = chain(&[Filter::Flate, Filter::Unsupported]);
        assert_eq!(charge_decoding(b"raw", &odd, &mut budget), Ok(3));
    }

    #[test]
    fn a_bomb_trips_the_budget_after_reading_only_the_budget() {
        let bomb = zlib(&vec![0u8; 50 * 1024 * 1024]);
        assert!(bomb.len() < 100 * 1024, "{}", bomb.len());
        let mut budget = Budget::new(1024 * 1024);
        assert_eq!(
            charge_decoding(&bomb, &chain(&[Filter::Flate]), &mut budget),
            Err(OverBudget { total: 1024 * 1024 })
        );
    }

    #[test]
    fn lzw_is_bounded_too() {
        let mut encoded = Vec::new();
        let mut encoder = weezl::encode::Encoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8);
        let _ = encoder
            .into_stream(&mut encoded)
            .encode_all(&vec![b'a'; 4 * 1024 * 1024][..]);
        let mut small = Budget::new(1024 * 1024);
        assert_eq!(
            charge_decoding(&encoded, &chain(&[Filter::Lzw]), &mut small),
            Err(OverBudget { total: 1024 * 1024 })
        );
        let mut large = Budget::new(8 * 1024 * 1024);
        assert_eq!(
            charge_decoding(&encoded, &chain(&[Filter::Lzw]), &mut large),
            Ok(4 * 1024 * 1024)
        );
    }

    #[test]
    fn the_predictor_rows_are_charged() {
        let huge_rows = Chain::new(vec![Filter::Flate], |key| match key {
            b"Predictor" => Some(12),
            b"Columns" => Some(1 << 40),
            _ => None,
        });
        let mut budget = Budget::new(1 << 20);
        assert_eq!(
            charge_decoding(&zlib(b"x"), &huge_rows, &mut budget),
            Err(OverBudget { total: 1 << 20 })
        );
    }
}
