//! Committing an output set so that a kill at any moment leaves no set a
//! reader takes for consistent (issue 11, items 6–7).
//!
//! Renaming several files is not atomic as a whole. So the commit runs in
//! an order where every step that can fail for want of space or rights
//! comes first, and the window where old and new files stand side by side
//! is announced in the manifest:
//! 1. every new file is synced, still unnamed;
//! 2. `routec.manifest` is replaced by one whose first line is
//!    [`MANIFEST_REPLACING`] and which lists the old and new outputs;
//! 3. each new file in turn is given a `.routec-…` name and renamed over
//!    its output, in the set's fixed order; stale outputs are removed;
//! 4. the manifest is replaced by the new list: the set is whole again.
//!
//! A `.routec-…` file therefore exists only while the marker does. A run
//! killed between 2 and 4 leaves the marker (and at most one such file): `check`, `diff` and
//! `report` refuse the directory (`parse::outdir`), and the next compile,
//! which removes the `.routec-…` files the kill left, rewrites the set.
//! SIGINT and SIGTERM are held off during 2–4 (`io::interrupt::critical`):
//! the commit finishes, then routec exits 130 or 143 — never a mix.

use super::outputs::{OutputSet, OutputStatus};
use crate::error::{Error, Result};
use crate::io::WriteStatus;
use crate::model::{MANIFEST_REPLACING, OutFile};
use std::path::PathBuf;

use super::staged_file::StagedFile;

impl OutputSet {
    /// Renames the changed outputs into place (a no-op under `--check`).
    pub fn commit(mut self) -> Result<Vec<OutputStatus>> {
        let statuses: Vec<OutputStatus> = self
            .staged
            .iter()
            .map(|s| OutputStatus {
                file: s.name.clone(),
                status: if s.changed {
                    WriteStatus::Written
                } else {
                    WriteStatus::Unchanged
                },
            })
            .collect();
        if self.check || !self.would_change() {
            return Ok(statuses);
        }
        let manifest = OutFile::Manifest.name();
        let marking = self.new_manifest.is_some();
        // synced while still unnamed (a 1.4 GB dump takes a while), before
        // the manifest is marked
        let mut ready = Vec::new();
        let mut syncing = Vec::new();
        for s in &mut self.staged {
            let Some(tmp) = s.tmp.take() else { continue };
            if marking && s.name == manifest {
                continue; // written last, below
            }
            syncing.push(s.syncing.take());
            ready.push((s.path.clone(), tmp));
        }
        sync_all(&ready, syncing)?;
        // steps 2–4: a SIGINT or SIGTERM meanwhile waits for the end
        crate::io::interrupt::critical(|| self.replace(ready, marking))?;
        Ok(statuses)
    }

    /// Steps 2–4: mark the manifest, rename every ready file over its
    /// output, remove the stale ones, write the new manifest.
    fn replace(&self, ready: Vec<(PathBuf, StagedFile)>, marking: bool) -> Result<()> {
        let manifest_path = self.dir.join(OutFile::Manifest.name());
        if marking {
            let text = replacing_text(&self.old_manifest, self.new_manifest.as_deref());
            write_unnamed_first(&self.dir, &manifest_path, &text)?;
        }
        // named and renamed one at a time: a named temporary file exists only
        // while the manifest says the set is being replaced
        for (path, tmp) in ready {
            let tp = tmp.into_named(&self.dir).map_err(|e| Error::io(&path, e))?;
            tp.persist(&path).map_err(|e| Error::io(&path, e.error))?;
            test_pause();
        }
        for p in &self.stale {
            std::fs::remove_file(p).map_err(|e| Error::io(p, e))?;
        }
        if let Some(names) = &self.new_manifest {
            let text: String = names.iter().map(|n| format!("{n}\n")).collect();
            write_unnamed_first(&self.dir, &manifest_path, &text)?;
        }
        Ok(())
    }
}

/// Waits for the syncs [`OutputSet::stage`] started and syncs the other
/// new files meanwhile, each on a thread of its own: synced one after the
/// other, the state file's sync (12 ms) came after the image's (issue 17).
fn sync_all(
    ready: &[(PathBuf, StagedFile)],
    started: Vec<Option<std::thread::JoinHandle<std::io::Result<()>>>>,
) -> Result<()> {
    std::thread::scope(|sc| {
        let spawned: Vec<_> = ready
            .iter()
            .zip(&started)
            .map(|((_, tmp), early)| early.is_none().then(|| sc.spawn(|| tmp.file().sync_data())))
            .collect();
        for (((path, tmp), early), late) in ready.iter().zip(started).zip(spawned) {
            let done = match (early, late) {
                (Some(h), _) => h.join().ok(),
                (None, Some(h)) => h.join().ok(),
                (None, None) => None,
            };
            // a sync thread that panicked: sync here
            let done = done.unwrap_or_else(|| tmp.file().sync_data());
            done.map_err(|e| Error::io(path, e))?;
        }
        Ok(())
    })
}

/// A test hook: `ROUTEC_COMMIT_PAUSE_MS` sleeps that long after each
/// rename of step 3, so that a test can land a signal inside the commit
/// (`tests/it/hardening_signals.rs`); unset, it costs one look-up.
fn test_pause() {
    static PAUSE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let ms = *PAUSE.get_or_init(|| {
        std::env::var("ROUTEC_COMMIT_PAUSE_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    });
    if ms > 0 {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// Replaces `path` with `text` through an unnamed file, named only for the
/// rename (a kill before leaves nothing).
fn write_unnamed_first(dir: &std::path::Path, path: &std::path::Path, text: &str) -> Result<()> {
    use std::io::Write;
    let mut f = super::staged_file::StagedFile::new_in(dir).map_err(|e| Error::io(path, e))?;
    f.write_all(text.as_bytes())
        .map_err(|e| Error::io(path, e))?;
    let tp = f.into_named(dir).map_err(|e| Error::io(path, e))?;
    tp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// The manifest while outputs are replaced: the marker, then every output
/// of the old and the new set (so that a later run still retires the old
/// ones if this one is killed).
fn replacing_text(old: &[String], new: Option<&[String]>) -> String {
    let mut names: Vec<&str> = old
        .iter()
        .map(String::as_str)
        .chain(new.unwrap_or_default().iter().map(String::as_str))
        .filter(|l| OutFile::ALL.iter().any(|f| f.name() == *l))
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut text = format!("{MANIFEST_REPLACING}\n");
    for n in names {
        text += n;
        text.push('\n');
    }
    text
}
