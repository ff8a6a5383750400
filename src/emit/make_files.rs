//! The files `make` reads beside the outputs — the `--depfile` and the
//! `--stamp` — made ready before the outputs are replaced, so that a
//! depfile or stamp that cannot be written fails the run while every old
//! output still stands (issue 11, item 7). What is left after the commit
//! (a rename in a directory already shown writable, an mtime on a file
//! already open for writing) does not fail for want of rights.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::staged_file::StagedFile;
use crate::error::{Error, Result};

/// A depfile or stamp ready to land.
#[derive(Debug)]
pub enum Prepared {
    /// Nothing to do (a depfile that already holds these bytes).
    Nothing,
    /// New bytes for `path`, written, not yet named.
    Replace(PathBuf, StagedFile),
    /// An existing stamp, open for writing: its mtime is set.
    Touch(PathBuf, File),
    /// Bytes for a device or a pipe (`--depfile /dev/stdout`), written
    /// into it: a rename would replace the device.
    Stream(PathBuf, Vec<u8>),
}

/// The depfile with `text`, unless it already holds exactly that.
pub fn prepare_depfile(path: &Path, text: &str) -> Result<Prepared> {
    if crate::io::is_special(path) {
        return Ok(Prepared::Stream(
            path.to_path_buf(),
            text.as_bytes().to_vec(),
        ));
    }
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(Prepared::Nothing);
    }
    let mut f = StagedFile::new_in(parent(path)).map_err(|e| Error::io(path, e))?;
    f.write_all(text.as_bytes())
        .map_err(|e| Error::io(path, e))?;
    Ok(Prepared::Replace(path.to_path_buf(), f))
}

/// The stamp: opened for writing when it exists, else an empty new file.
pub fn prepare_stamp(path: &Path) -> Result<Prepared> {
    if crate::io::is_special(path) {
        return Ok(Prepared::Nothing);
    }
    match std::fs::OpenOptions::new().append(true).open(path) {
        Ok(f) => Ok(Prepared::Touch(path.to_path_buf(), f)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let f = StagedFile::new_in(parent(path)).map_err(|e| Error::io(path, e))?;
            Ok(Prepared::Replace(path.to_path_buf(), f))
        }
        Err(e) => Err(Error::io(path, e)),
    }
}

impl Prepared {
    /// Lands the file, after the outputs were committed.
    pub fn land(self) -> Result<()> {
        match self {
            Prepared::Nothing => Ok(()),
            Prepared::Stream(path, bytes) => crate::io::write_into(&path, |w| w.write_all(&bytes)),
            Prepared::Touch(path, f) => f
                .set_modified(std::time::SystemTime::now())
                .map_err(|e| Error::io(&path, e)),
            Prepared::Replace(path, f) => {
                let named = f
                    .into_named(parent(&path))
                    .map_err(|e| Error::io(&path, e))?;
                named
                    .persist(&path)
                    .map_err(|e| Error::io(&path, e.error))?;
                Ok(())
            }
        }
    }
}

/// The directory a file is in (`.` for a bare name).
fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}
