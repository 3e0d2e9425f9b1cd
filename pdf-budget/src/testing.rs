//! PDFs built byte by byte, for tests of the reader and of what uses it (feature `testing`):
//! exact cross-reference offsets, any objects, compressed streams, decompression bombs, and the
//! pages that cost the most work for their size.

use std::io::Write as _;

/// A PDF of `objects` (numbered from 1; object 1 is the catalog) with exact xref offsets.
pub fn pdf(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (index, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj ", index + 1).as_bytes());
        pdf.extend_from_slice(object);
        pdf.extend_from_slice(b" endobj\n");
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer << /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

/// A stream object with `dictionary` entries (without /Length) and `data`.
pub fn stream(dictionary: &str, data: &[u8]) -> Vec<u8> {
    let mut object = format!("<< {dictionary} /Length {} >> stream\n", data.len()).into_bytes();
    object.extend_from_slice(data);
    object.extend_from_slice(b"\nendstream");
    object
}

/// `bytes` compressed with zlib.
pub fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

/// `mib` MiB of zeros as a zlib stream of a few hundred bytes per MiB: one independently
/// compressed block (a full flush resets the window) repeated, then an empty final block and
/// the Adler-32 of the zeros.
pub fn zeros_bomb(mib: usize) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress};
    let zeros = vec![0u8; 1 << 20];
    let mut compress = Compress::new(Compression::best(), false);
    let mut block = Vec::with_capacity(64 * 1024);
    let _ = compress.compress_vec(&zeros, &mut block, FlushCompress::Full);
    let mut data = vec![0x78, 0xDA];
    for _ in 0..mib {
        data.extend_from_slice(&block);
    }
    data.extend_from_slice(&[0x03, 0x00]);
    let length = (mib as u64) << 20;
    let adler = (((length % 65_521) as u32) << 16) | 1;
    data.extend_from_slice(&adler.to_be_bytes());
    data
}

/// A PDF of `pages` pages that all draw the same `content` stream (Flate-compressed), with
/// `fonts` Helvetica fonts named F0, F1, ... in their resources.
pub fn pages_sharing(content: &[u8], pages: usize, fonts: usize) -> Vec<u8> {
    // 1 catalog, 2 pages, 3 content, 4.. fonts, then the pages.
    let font_names: String = (0..fonts)
        .map(|i| format!("/F{i} {} 0 R ", 4 + i))
        .collect();
    let first_page = 4 + fonts;
    let kids: String = (0..pages)
        .map(|i| format!("{} 0 R ", first_page + i))
        .collect();
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids [{kids}] /Count {pages} >>").into_bytes(),
        stream("/Filter /FlateDecode", &zlib(content)),
    ];
    for _ in 0..fonts {
        objects.push(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec());
    }
    for _ in 0..pages {
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 3 0 R \
                 /Resources << /Font << {font_names}>> >> >>"
            )
            .into_bytes(),
        );
    }
    pdf(&objects)
}

/// A one-page PDF showing `text` (ASCII, no parentheses) in Helvetica.
pub fn one_page_with(text: &str) -> Vec<u8> {
    pages_sharing(
        format!("BT /F0 12 Tf 10 100 Td ({text}) Tj ET").as_bytes(),
        1,
        1,
    )
}

/// A content stream that switches between `fonts` fonts `switches` times, showing `shown`
/// after each switch.
pub fn font_switching(switches: usize, fonts: usize, shown: &str) -> Vec<u8> {
    let mut content = b"BT 10 100 Td ".to_vec();
    for i in 0..switches {
        content.extend_from_slice(format!("/F{} 9 Tf ({shown}) Tj ", i % fonts.max(1)).as_bytes());
    }
    content.extend_from_slice(b"ET");
    content
}
