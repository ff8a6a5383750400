//! Path-SL files read in bounded memory. An ibdmchk `-c` file has a line per
//! CA and destination: 545 MB for 4,280 CAs, ≈ 4.5 GB for an 11,664-host
//! fat tree, and holding it whole (as every other reader here does with its
//! input) would make `check --psl` need that much memory. A plain ibdmchk
//! file — valid UTF-8, LF line ends, no `PathRecord dump`, every line good —
//! is read in chunks of whole lines; anything else is handed back to the
//! whole-file reader ([`super::vl_files::read_psl_file`]), which then gives
//! the same records and the same error (file, line, column) as always.

use std::io::Read;
use std::path::Path;

use super::vl_files::ibdmchk_lines;
use crate::error::{Error, Result};
use crate::model::vl_records::PathSlRecord;

/// Bytes read at a time.
const CHUNK: usize = 8 << 20;

/// A line longer than this is no ibdmchk line: the whole-file reader says
/// what is wrong with it.
const LONGEST_LINE: usize = 1 << 20;

/// Hands the records of the path-SL file at `path` to `sink` in file order.
/// `Ok(false)` when the file is not a plain ibdmchk file (see the module
/// comment): `sink` may then have had some records, and the caller starts
/// again with [`super::vl_files::read_psl_file`].
pub fn stream_psl(path: &Path, sink: &mut dyn FnMut(PathSlRecord)) -> Result<bool> {
    stream_in_chunks(path, CHUNK, sink)
}

fn stream_in_chunks(path: &Path, chunk: usize, sink: &mut dyn FnMut(PathSlRecord)) -> Result<bool> {
    let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut buf: Vec<u8> = Vec::with_capacity(chunk);
    loop {
        let had = buf.len();
        buf.resize(had + chunk, 0);
        let got = fill(&mut file, &mut buf[had..]).map_err(|e| Error::io(path, e))?;
        buf.truncate(had + got);
        let eof = got < chunk;
        let end = if eof {
            buf.len()
        } else {
            match memchr::memrchr(b'\n', &buf) {
                Some(i) => i + 1,
                None if buf.len() > LONGEST_LINE => return Ok(false),
                None => continue,
            }
        };
        if !plain_lines(&buf[..end], sink) {
            return Ok(false);
        }
        buf.drain(..end);
        if eof {
            return Ok(true);
        }
    }
}

/// Whole lines of a plain ibdmchk file handed to `sink`; `false` when they
/// are something else.
fn plain_lines(bytes: &[u8], sink: &mut dyn FnMut(PathSlRecord)) -> bool {
    if crate::io::has_cr(bytes) || memchr::memmem::find(bytes, b"PathRecord dump").is_some() {
        return false;
    }
    std::str::from_utf8(bytes).is_ok_and(|text| ibdmchk_lines(text, sink).is_ok())
}

/// Reads until `buf` is full or the file ends; the bytes read.
fn fill(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::vl_files::parse_psl;

    fn streamed(text: &[u8], chunk: usize) -> (bool, Vec<PathSlRecord>) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("psl");
        std::fs::write(&p, text).unwrap();
        let mut got = Vec::new();
        let plain = stream_in_chunks(&p, chunk, &mut |r| got.push(r)).unwrap();
        (plain, got)
    }

    /// A plain file gives the whole-file reader's records whatever the
    /// chunk size (lines cut anywhere, the last one with or without LF).
    #[test]
    fn chunks_give_the_whole_files_records() {
        let mut text = String::from("# ibdmchk -c\n\n");
        for g in 0..5u64 {
            for lid in 1..=7u16 {
                text.push_str(&format!(
                    "0x{:016x} {lid} {}\n",
                    0x2c9_0200_0000_0000 + g,
                    (g + u64::from(lid)) % 16
                ));
            }
        }
        text.push_str("0x0002c90200000009 3 1");
        let want = parse_psl("p", &text).unwrap();
        assert_eq!(want.len(), 36);
        for chunk in [1, 2, 7, 16, 29, 64, 1000, CHUNK] {
            assert_eq!(
                streamed(text.as_bytes(), chunk),
                (true, want.clone()),
                "chunk {chunk}"
            );
        }
    }

    /// Anything but a plain ibdmchk file goes back to the whole-file reader.
    #[test]
    fn other_files_are_handed_back() {
        let good = "0x0002c90200000000 5 1\n";
        for bad in [
            format!("{good}0x0002c90200000000 6 16\n"),
            format!("{good}0x0002c90200000000 6 2\r\n"),
            format!("{good}# PathRecord dump:\n"),
            "PathRecord dump:\n\t\tdlid....................9\n".to_string(),
            format!("{good}0x0002c90200000000 6\n"),
        ] {
            for chunk in [3, 64, CHUNK] {
                assert!(!streamed(bad.as_bytes(), chunk).0, "{bad:?} chunk {chunk}");
            }
        }
        let mut latin1 = good.as_bytes().to_vec();
        latin1.extend_from_slice(b"# caf\xe9\n");
        assert!(!streamed(&latin1, CHUNK).0);
        assert_eq!(streamed(b"", CHUNK), (true, vec![]));
    }
}
