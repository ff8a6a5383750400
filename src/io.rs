//! File input and atomic, write-if-changed output.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

pub mod interrupt;

/// Reads a whole text file. Invalid UTF-8 is replaced (node descriptions
/// are free bytes on real fabrics), so it never fails for encoding.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    Ok(text_of(bytes))
}

/// Whether `bytes` hold a CR, by the `memchr` crate's vector search:
/// `<[u8]>::contains` is core's word-at-a-time one (issue 17: 3-4 % of the
/// samples of `info` on the 27,648-host RLFT).
pub fn has_cr(bytes: &[u8]) -> bool {
    memchr::memchr(b'\r', bytes).is_some()
}

/// Bytes as text: invalid UTF-8 replaced, and a lone CR (old Mac line
/// ends) read as a line end like LF and CRLF — the same length, so every
/// byte offset, and every line and column reported, stays true.
pub fn text_of(mut bytes: Vec<u8>) -> String {
    if has_cr(&bytes) {
        for i in 0..bytes.len() {
            if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
                bytes[i] = b'\n';
            }
        }
    }
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// What [`write_if_changed`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WriteStatus {
    Written,
    Unchanged,
}

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so readers never see a partial file; leaves the file (and
/// its mtime) alone when it already holds exactly `bytes`.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<WriteStatus> {
    if let Ok(old) = fs::read(path)
        && old == bytes
    {
        return Ok(WriteStatus::Unchanged);
    }
    write_atomic(path, |w| w.write_all(bytes))?;
    Ok(WriteStatus::Written)
}

/// A temporary file in `dir` (for a later rename over an output), readable
/// by all like a file made with the usual umask, not tempfile's 0600.
pub fn temp_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.prefix(".routec-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(fs::Permissions::from_mode(0o644));
    }
    let tmp = b.tempfile_in(dir)?;
    interrupt::track(tmp.path());
    Ok(tmp)
}

/// Whether `path` (links followed) is something other than a regular file
/// or a directory: `/dev/null`, `/dev/stdout`, a FIFO, a terminal. Such a
/// path is written into, never replaced by a rename — as root, a rename
/// onto `-o /dev/null` would put a regular file in place of the device.
pub fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Writes `fill` straight into an existing special file ([`is_special`]).
pub fn write_into(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let f = fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
    fill(&mut w).map_err(|e| Error::io(path, e))?;
    w.flush().map_err(|e| Error::io(path, e))
}

/// Writes `path` atomically with `fill` (temporary file + rename), or
/// straight into it when it is a device or a pipe ([`is_special`]).
pub fn write_atomic(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    if is_special(path) {
        return write_into(path, fill);
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = temp_in(dir).map_err(|e| Error::io(dir, e))?;
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, tmp.as_file_mut());
        fill(&mut w).map_err(|e| Error::io(path, e))?;
        w.flush().map_err(|e| Error::io(path, e))?;
    }
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// The SHA-256 of a byte slice.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// Lower-case hex of a digest (or any bytes).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 and length of a file, streamed in 1 MiB chunks so that a 1.4 GB
/// dump is never held in memory just to be compared.
pub fn sha256_file(path: &Path) -> Result<([u8; 32], u64)> {
    use sha2::Digest;
    use std::io::Read;
    let mut f = fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut h = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut len = 0u64;
    loop {
        let n = f.read(&mut buf).map_err(|e| Error::io(path, e))?;
        if n == 0 {
            break;
        }
        len += n as u64;
        h.update(&buf[..n]);
    }
    Ok((h.finalize().into(), len))
}

/// The bytes of an input file: mapped when read as is, owned when they had
/// to be decompressed. Either way it derefs to `[u8]`.
pub enum Bytes {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m) => m,
        }
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({} bytes)", self.len())
    }
}

/// The zstd frame magic (RFC 8878 §3.1.1), little-endian 0xFD2FB528.
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Reads a file without copying it (memory map) and, when it starts with the
/// zstd magic, decompresses it, so every table reader accepts `.zst` inputs.
pub fn read_input(path: &Path) -> Result<Bytes> {
    let bytes = if path == Path::new("-") {
        read_capped(std::io::stdin().lock(), path, "standard input")?
    } else {
        let file = fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let meta = file.metadata().map_err(|e| Error::io(path, e))?;
        if !meta.is_file() {
            // a pipe (`<(zcat dump.gz)`, /dev/stdin): no map, read it
            read_capped(file, path, "piped input")?
        } else if meta.len() == 0 {
            Bytes::Owned(Vec::new())
        } else {
            Bytes::Mapped(map_file(&file).map_err(|e| Error::io(path, e))?)
        }
    };
    if bytes.starts_with(&ZSTD_MAGIC) {
        let decoder =
            zstd::stream::read::Decoder::new(&bytes[..]).map_err(|e| Error::io(path, e))?;
        return read_capped(decoder, path, "decompressed input");
    }
    Ok(bytes)
}

/// What an input held in memory (decompressed or piped) may grow to:
/// `ROUTEC_MAX_INPUT` bytes, 2 GiB by default. A 93 KiB `.zst` of zeros
/// once expanded until the allocator aborted.
pub fn max_input() -> u64 {
    std::env::var("ROUTEC_MAX_INPUT")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(2 << 30)
}

/// Reads `r` to its end, or fails once it passes [`max_input`].
fn read_capped(r: impl std::io::Read, path: &Path, what: &str) -> Result<Bytes> {
    use std::io::Read;
    let cap = max_input();
    let mut out = Vec::new();
    r.take(cap.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| Error::io(path, e))?;
    if out.len() as u64 > cap {
        return Err(Error::Input(format!(
            "{}: {what} exceeds {cap} bytes (ROUTEC_MAX_INPUT raises the limit)",
            path.display()
        )));
    }
    Ok(Bytes::Owned(out))
}

/// Maps `file` read-only. This is the crate's only `unsafe`: memmap2 cannot
/// promise that nobody truncates or rewrites the file while it is mapped.
#[allow(unsafe_code)]
fn map_file(file: &fs::File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the map is read-only and routec never writes a file it maps.
    // routec's own writers replace outputs by rename (write_atomic), which
    // leaves a mapped inode intact; only a foreign process truncating the
    // file in place could fault the reader (SIGBUS), the documented memmap
    // caveat, which we accept for inputs the user hands us to read.
    // `populate` pre-faults the pages in one call: the readers touch every
    // page anyway (diff compares whole tables).
    unsafe { memmap2::MmapOptions::new().populate().map(file) }
}

/// Writes to standard output through a buffer. A reader that went away
/// (`routec gen pgft … | head -1`) is not an error: the run succeeds, as
/// `formats/exit-codes.md` says and as ripgrep does.
pub fn to_stdout(fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Result<()> {
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    match fill(&mut w).and_then(|()| w.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::io("<stdout>", e)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_content_is_not_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x");
        assert_eq!(write_if_changed(&p, b"abc").unwrap(), WriteStatus::Written);
        assert_eq!(
            write_if_changed(&p, b"abc").unwrap(),
            WriteStatus::Unchanged
        );
        assert_eq!(write_if_changed(&p, b"abd").unwrap(), WriteStatus::Written);
        assert_eq!(fs::read(&p).unwrap(), b"abd");
    }

    #[test]
    fn read_input_decompresses_zstd_and_maps_plain_files() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("p");
        let packed = dir.path().join("p.zst");
        fs::write(&plain, b"hello tables").unwrap();
        fs::write(&packed, zstd::encode_all(&b"hello tables"[..], 3).unwrap()).unwrap();
        assert_eq!(&*read_input(&plain).unwrap(), b"hello tables");
        assert_eq!(&*read_input(&packed).unwrap(), b"hello tables");
        let (d, n) = sha256_file(&plain).unwrap();
        assert_eq!((d, n), (sha256(b"hello tables"), 12));
    }
}
