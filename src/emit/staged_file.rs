//! The bytes of one output before it lands: an anonymous file in the
//! output directory, named only at commit.
//!
//! A compile killed while rendering (SIGINT, SIGTERM, even SIGKILL: no
//! handler runs for it) must leave no temporary file behind. On Linux the
//! new bytes go into an `O_TMPFILE` file — an inode with no name, freed by
//! the kernel when the process dies — and it is given a `.routec-…` name
//! (`linkat` through `/proc/self/fd`) only in the commit, just before the
//! rename over the output. Where `O_TMPFILE` is not supported (some file
//! systems, other systems), a named `.routec-…` file is used as before, and
//! the next run into the directory removes what a kill left
//! ([`sweep_temps`]). Every named one is tracked, so that SIGINT and
//! SIGTERM remove it before routec exits (`io::interrupt`).

use std::fs::File;
use std::io;
use std::path::Path;

/// The prefix of every temporary file routec creates in an output
/// directory; [`sweep_temps`] removes files so named.
pub const TEMP_PREFIX: &str = ".routec-";

/// New bytes for one output.
#[derive(Debug)]
pub enum StagedFile {
    /// No name: gone with the process, whatever ends it.
    Anonymous(File),
    /// A named temporary file (no `O_TMPFILE` here).
    Named(tempfile::NamedTempFile),
}

impl StagedFile {
    /// A new empty file in `dir`, anonymous where the system allows it.
    pub fn new_in(dir: &Path) -> io::Result<Self> {
        #[cfg(target_os = "linux")]
        if let Some(f) = anonymous_in(dir) {
            return Ok(StagedFile::Anonymous(f));
        }
        crate::io::temp_in(dir).map(StagedFile::Named)
    }

    /// The open file, for writing and syncing.
    pub fn file(&self) -> &File {
        match self {
            StagedFile::Anonymous(f) => f,
            StagedFile::Named(t) => t.as_file(),
        }
    }

    /// Gives the bytes a `.routec-…` name in `dir` (the directory it was
    /// made in), ready to be renamed over an output; the name is removed
    /// if the returned path is dropped unrenamed.
    pub fn into_named(self, dir: &Path) -> io::Result<tempfile::TempPath> {
        match self {
            StagedFile::Named(t) => Ok(t.into_temp_path()),
            StagedFile::Anonymous(f) => link_anonymous(f, dir),
        }
    }
}

impl io::Write for StagedFile {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.file().write(data)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

/// An `O_TMPFILE` file in `dir`, mode 0644 like the outputs; `None` where
/// the file system refuses it.
#[cfg(target_os = "linux")]
fn anonymous_in(dir: &Path) -> Option<File> {
    use rustix::fs::{Mode, OFlags, openat};
    let flags = OFlags::TMPFILE | OFlags::RDWR | OFlags::CLOEXEC;
    let mode = Mode::from_raw_mode(0o644);
    openat(rustix::fs::CWD, dir, flags, mode)
        .ok()
        .map(File::from)
}

/// Links an anonymous file to a fresh `.routec-…` name: through
/// `/proc/self/fd` (any user), else by copying its bytes into a named
/// temporary file.
fn link_anonymous(f: File, dir: &Path) -> io::Result<tempfile::TempPath> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{AtFlags, CWD, linkat};
        use std::os::fd::AsRawFd;
        let proc_path = format!("/proc/self/fd/{}", f.as_raw_fd());
        for attempt in 0..16u32 {
            let name = dir.join(format!(
                "{TEMP_PREFIX}{}-{}",
                std::process::id(),
                unique(attempt)
            ));
            match linkat(CWD, proc_path.as_str(), CWD, &name, AtFlags::SYMLINK_FOLLOW) {
                Ok(()) => {
                    crate::io::interrupt::track(&name);
                    return tempfile::TempPath::try_from_path(name);
                }
                Err(rustix::io::Errno::EXIST) => continue,
                Err(_) => break,
            }
        }
    }
    let mut tmp = crate::io::temp_in(dir)?;
    let mut src = f;
    io::Seek::seek(&mut src, io::SeekFrom::Start(0))?;
    io::copy(&mut src, tmp.as_file_mut())?;
    tmp.as_file().sync_data()?;
    Ok(tmp.into_temp_path())
}

/// A name part unlikely to collide (time and a counter).
#[cfg(target_os = "linux")]
fn unique(attempt: u32) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{n}-{nanos:x}-{attempt}")
}

/// Removes the `.routec-…` files that a killed run left in `dir`. The
/// caller holds the directory's lock ([`lock_dir`]), so no live run is
/// writing them. Errors are ignored: a leftover that cannot be removed
/// (read-only directory) harms nothing but space.
pub fn sweep_temps(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(TEMP_PREFIX))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// An exclusive lock on the output directory itself (no lock file: an
/// unchanged run creates nothing), held while a run stages and commits, so
/// that two runs into one directory take turns and [`sweep_temps`] never
/// removes a live run's file. `None` where the directory cannot be opened
/// or locked (then runs are not serialised, as before).
pub fn lock_dir(dir: &Path) -> Option<File> {
    let f = File::open(dir).ok()?;
    f.lock().ok()?;
    Some(f)
}
