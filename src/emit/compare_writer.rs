//! `--check`'s comparison of a rendered output with the file on disk,
//! made as the output streams by, so no output is held in memory.

use std::io::{self, Write};
use std::path::Path;

use crate::error::{Error, Result};

/// For `--check`: compares what is written with the file on disk as it
/// streams by, holding one buffer, never the output.
pub(super) struct CompareWriter {
    old: Option<io::BufReader<std::fs::File>>,
    old_len: u64,
    len: u64,
    differs: bool,
}

impl CompareWriter {
    pub(super) fn new(path: &Path) -> Result<Self> {
        let (old, old_len) = match std::fs::File::open(path) {
            Ok(f) => {
                let n = f.metadata().map_err(|e| Error::io(path, e))?.len();
                (Some(io::BufReader::with_capacity(1 << 20, f)), n)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => (None, 0),
            Err(e) => return Err(Error::io(path, e)),
        };
        Ok(CompareWriter {
            differs: old.is_none(),
            old,
            old_len,
            len: 0,
        })
    }

    pub(super) fn finish(self) -> (u64, bool) {
        (self.len, self.differs || self.len != self.old_len)
    }

    /// Whether a difference was seen so far (a longer old file is only
    /// known at [`CompareWriter::finish`]).
    pub(super) fn differs(&self) -> bool {
        self.differs
    }
}

impl Write for CompareWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.len += data.len() as u64;
        if !self.differs && self.len > self.old_len {
            self.differs = true;
        }
        if !self.differs
            && let Some(old) = self.old.as_mut()
        {
            self.differs = !equal_next(old, data)?;
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Whether the next `data.len()` bytes of `old` equal `data`, compared in
/// the reader's own buffer: copying them out first was a second pass over
/// the 88 MB of an unchanged route image (issue 17). The caller knows
/// `old` is at least as long.
fn equal_next(old: &mut io::BufReader<std::fs::File>, mut data: &[u8]) -> io::Result<bool> {
    use io::BufRead;
    while !data.is_empty() {
        let have = old.fill_buf()?;
        if have.is_empty() {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let n = have.len().min(data.len());
        if have[..n] != data[..n] {
            return Ok(false);
        }
        old.consume(n);
        data = &data[n..];
    }
    Ok(true)
}
