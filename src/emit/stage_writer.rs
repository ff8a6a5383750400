//! Staging an output without touching OUTDIR when it would not change: the
//! rendered bytes are compared with the file on disk as they stream by,
//! and a temporary file is created only at the first difference (the equal
//! prefix copied from the old file). An unchanged output therefore creates
//! nothing, so OUTDIR and its own mtime stay as they were, and a read-only
//! OUTDIR is no error when nothing in it would change.

use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::compare_writer::CompareWriter;
use super::early_sync::EarlySync;
use super::staged_file::StagedFile;

/// Writes at least this long go to the file as they are, not through the
/// buffer: a route image's tables are written a switch's row (30 KB on the
/// 27,648-host RLFT) at a time, and copying 88 MB of rows into the buffer
/// first was a tenth of the image write (issue 17). Smaller writes (the
/// text dumps' lines) are still gathered into 1 MB writes.
const DIRECT_WRITE: usize = 16 << 10;

/// Bytes of a staged file after which what reached it is synced on a
/// thread of its own ([`EarlySync`]): the 27,648-host RLFT's image took
/// 240 ms at 8 MB, 249 ms at 2 MB (each sync commits the file's size
/// too), 266 ms with only the commit's sync (medians of 15 alternating
/// runs).
const SYNC_EVERY: u64 = 8 << 20;

pub(super) struct StageWriter {
    dir: PathBuf,
    path: PathBuf,
    cmp: Option<CompareWriter>,
    tmp: Option<BufWriter<StagedFile>>,
    /// Bytes rendered so far.
    len: u64,
    /// Bytes of the staged file whose sync was asked for.
    sync_asked: u64,
    early: Option<EarlySync>,
}

impl StageWriter {
    pub fn new(dir: &Path, path: &Path) -> crate::Result<Self> {
        Ok(StageWriter {
            dir: dir.to_path_buf(),
            path: path.to_path_buf(),
            cmp: Some(CompareWriter::new(path)?),
            tmp: None,
            len: 0,
            sync_asked: 0,
            early: None,
        })
    }

    /// Opens the temporary file holding the first `prefix` bytes, which
    /// equal the old file's.
    fn divert(&mut self, prefix: u64) -> io::Result<()> {
        let mut tmp = BufWriter::with_capacity(1 << 20, StagedFile::new_in(&self.dir)?);
        if prefix > 0 {
            let old = std::fs::File::open(&self.path)?;
            io::copy(&mut old.take(prefix), &mut tmp)?;
        }
        self.tmp = Some(tmp);
        self.cmp = None;
        Ok(())
    }

    /// (length, changed, the new bytes when changed).
    pub fn finish(mut self) -> io::Result<(u64, bool, Option<StagedFile>)> {
        if let Some(cmp) = self.cmp.take() {
            let (len, changed) = cmp.finish();
            if !changed {
                return Ok((len, false, None));
            }
            // the new output is a strict prefix of the old file
            self.divert(len)?;
        }
        let tmp = self
            .tmp
            .take()
            .map(|t| t.into_inner().map_err(|e| e.into_error()));
        Ok((self.len, true, tmp.transpose()?))
    }

    /// Asks for a sync of what reached the staged file, once
    /// [`SYNC_EVERY`] bytes more did since the last time.
    fn ask_early_sync(&mut self) {
        let Some(tmp) = self.tmp.as_ref() else {
            return;
        };
        let in_file = self.len - tmp.buffer().len() as u64;
        if in_file.saturating_sub(self.sync_asked) < SYNC_EVERY {
            return;
        }
        if self.early.is_none() {
            self.early = EarlySync::start(tmp.get_ref().file());
        }
        if let Some(e) = &self.early {
            e.request();
        }
        self.sync_asked = in_file;
    }
}

impl Write for StageWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if let Some(cmp) = self.cmp.as_mut() {
            let before = self.len;
            cmp.write_all(data)?;
            if !cmp.differs() {
                self.len += data.len() as u64;
                return Ok(data.len());
            }
            self.divert(before)?;
        }
        if let Some(tmp) = self.tmp.as_mut() {
            if data.len() >= DIRECT_WRITE && !tmp.buffer().is_empty() {
                tmp.flush()?;
            }
            if data.len() >= DIRECT_WRITE && tmp.buffer().is_empty() {
                tmp.get_mut().write_all(data)?;
            } else {
                tmp.write_all(data)?;
            }
        }
        self.len += data.len() as u64;
        self.ask_early_sync();
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.tmp.as_mut() {
            Some(t) => t.flush(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small writes are buffered, long ones go straight to the file, and
    /// the file holds every byte in order, whether it diverts at the first
    /// write (no old file) or after an equal prefix.
    #[test]
    fn mixed_writes_land_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let long: Vec<u8> = (0..DIRECT_WRITE + 7).map(|i| (i % 251) as u8).collect();
        let pieces: Vec<Vec<u8>> = vec![
            b"head".to_vec(),
            long.clone(),
            long.clone(),
            b"mid".to_vec(),
            vec![9; DIRECT_WRITE],
            b"tail".to_vec(),
        ];
        let want: Vec<u8> = pieces.concat();
        for old in [None, Some(want[..DIRECT_WRITE + 100].to_vec())] {
            if let Some(o) = &old {
                std::fs::write(&path, o).unwrap();
            }
            let mut w = StageWriter::new(dir.path(), &path).unwrap();
            for p in &pieces {
                w.write_all(p).unwrap();
            }
            let (len, changed, tmp) = w.finish().unwrap();
            assert_eq!((len, changed), (want.len() as u64, true));
            let mut f = tmp.unwrap().file().try_clone().unwrap();
            let mut got = Vec::new();
            io::Seek::seek(&mut f, io::SeekFrom::Start(0)).unwrap();
            f.read_to_end(&mut got).unwrap();
            assert!(got == want, "bytes differ (old file: {})", old.is_some());
        }
    }

    /// A sync is asked for every [`SYNC_EVERY`] bytes that reached the
    /// file (not those still buffered), and the file keeps every byte.
    #[test]
    fn early_syncs_follow_the_bytes_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut w = StageWriter::new(dir.path(), &path).unwrap();
        let row: Vec<u8> = (0..DIRECT_WRITE * 4).map(|i| (i % 253) as u8).collect();
        let rows = (2 * SYNC_EVERY as usize) / row.len() + 3;
        for _ in 0..rows {
            w.write_all(&row).unwrap();
            w.write_all(b"small").unwrap();
        }
        let in_file = w.len - w.tmp.as_ref().unwrap().buffer().len() as u64;
        assert!(w.sync_asked >= 2 * SYNC_EVERY, "{}", w.sync_asked);
        assert!(w.early.is_some());
        assert!(w.sync_asked <= in_file && in_file - w.sync_asked < SYNC_EVERY);
        let (len, _, tmp) = w.finish().unwrap();
        let mut f = tmp.unwrap().file().try_clone().unwrap();
        let mut got = Vec::new();
        io::Seek::seek(&mut f, io::SeekFrom::Start(0)).unwrap();
        f.read_to_end(&mut got).unwrap();
        assert_eq!(got.len() as u64, len);
        let one: Vec<u8> = [&row[..], b"small"].concat();
        assert!(got.chunks(one.len()).all(|c| c == &one[..]));
    }
}
