//! The output set of `compile`: render everything first, write after.
//!
//! Each output is rendered into a temporary file in the output directory,
//! then compared with the file already there chunk by chunk (for `--check`,
//! compared as it streams, with no file written), so a 1.4 GB dump is never
//! held in memory. No digest is computed: a byte comparison is cheaper than
//! hashing, and the image carries its own content digest. Only after every output rendered does
//! [`OutputSet::commit`] rename the changed ones into place: a run that fails
//! while rendering leaves every previous output untouched, and an output
//! whose bytes did not change keeps its mtime (style-and-ecosystem.md §3.2).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::io::WriteStatus;

use super::compare_writer::CompareWriter;

/// One output after rendering.
#[derive(Debug)]
pub(super) struct Staged {
    pub(super) name: String,
    pub(super) path: PathBuf,
    pub(super) len: u64,
    /// The rendered bytes, when they differ from the file on disk.
    pub(super) tmp: Option<super::staged_file::StagedFile>,
    pub(super) changed: bool,
    /// The sync of a big output's new bytes, started as soon as they are
    /// staged ([`EARLY_SYNC`]); the commit waits for it.
    pub(super) syncing: Option<std::thread::JoinHandle<io::Result<()>>>,
}

/// Outputs at least this long are synced on a thread of their own as soon
/// as they are staged, while the rest of the set renders: the commit syncs
/// every new file before any rename, and the 88 MB image of the
/// 27,648-host RLFT took 40 ms to sync there, after everything else
/// (issue 17).
pub(super) const EARLY_SYNC: u64 = 4 << 20;

/// An output as the report lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutputRecord {
    /// File name inside the output directory.
    pub file: String,
    pub bytes: u64,
}

/// What a run did to one output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutputStatus {
    pub file: String,
    pub status: WriteStatus,
}

/// The outputs of one run, staged until [`OutputSet::commit`].
#[derive(Debug)]
pub struct OutputSet {
    pub(super) dir: PathBuf,
    pub(super) check: bool,
    pub(super) staged: Vec<Staged>,
    /// Files to delete on commit (the other variant of the route image).
    pub(super) stale: Vec<PathBuf>,
    /// The manifest's lines: the last run's, and this run's once
    /// [`OutputSet::retire_unlisted`] staged it (`None` before).
    pub(super) old_manifest: Vec<String>,
    pub(super) new_manifest: Option<Vec<String>>,
    /// The directory's lock, held until the set is committed or dropped.
    pub(super) _lock: Option<std::fs::File>,
}

impl OutputSet {
    /// Outputs into `dir`; with `check`, nothing is ever written. Unless
    /// `check`, the directory is locked for this run (another run into it
    /// waits), and the temporary files a killed run left are removed.
    pub fn new(dir: &Path, check: bool) -> Self {
        use super::staged_file::{lock_dir, sweep_temps};
        let lock = if check { None } else { lock_dir(dir) };
        if lock.is_some() {
            sweep_temps(dir);
        }
        let manifest = crate::model::OutFile::Manifest.name();
        let old = std::fs::read_to_string(dir.join(manifest)).unwrap_or_default();
        OutputSet {
            dir: dir.to_path_buf(),
            check,
            staged: Vec::new(),
            stale: Vec::new(),
            old_manifest: old.lines().map(str::to_string).collect(),
            new_manifest: None,
            _lock: lock,
        }
    }

    /// Renders output `name` with `fill` and compares it with the file there.
    pub fn stage(
        &mut self,
        name: &str,
        fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<()> {
        let path = self.dir.join(name);
        let (len, changed, tmp) = if self.check {
            let mut w = CompareWriter::new(&path)?;
            fill(&mut w).map_err(|e| Error::io(&path, e))?;
            let (len, changed) = w.finish();
            (len, changed, None)
        } else {
            let mut w = super::stage_writer::StageWriter::new(&self.dir, &path)?;
            fill(&mut w).map_err(|e| Error::io(&path, e))?;
            w.finish().map_err(|e| Error::io(&path, e))?
        };
        let syncing = match &tmp {
            Some(t) if len >= EARLY_SYNC => {
                let f = t.file().try_clone().map_err(|e| Error::io(&path, e))?;
                Some(std::thread::spawn(move || f.sync_data()))
            }
            _ => None,
        };
        self.staged.push(Staged {
            name: name.to_string(),
            path,
            len,
            tmp,
            changed,
            syncing,
        });
        Ok(())
    }

    /// Marks `name` for deletion on commit if it exists (an output variant
    /// that this run replaces, e.g. `routes.lft` when writing `.zst`).
    pub fn remove_stale(&mut self, name: &str) {
        let p = self.dir.join(name);
        if p.exists() && !self.stale.contains(&p) {
            self.stale.push(p);
        }
    }

    /// routec owns what it wrote in OUTDIR, and only that: the outputs the
    /// last run listed in `routec.manifest` that this run does not write
    /// (an `opensm-lfts.dump` left by an earlier, wider `--emit`) are
    /// removed on commit, and the manifest is staged anew. Only names of
    /// routec outputs are ever removed, whatever the manifest says.
    pub fn retire_unlisted(&mut self) -> Result<()> {
        use crate::model::OutFile;
        let manifest = OutFile::Manifest.name();
        let now: Vec<String> = self.staged.iter().map(|s| s.name.clone()).collect();
        for line in self.old_manifest.clone() {
            let ours = OutFile::ALL.iter().any(|f| f.name() == line);
            if ours && !now.contains(&line) {
                self.remove_stale(&line);
            }
        }
        let mut names = now;
        names.sort();
        let text: String = names.iter().map(|n| format!("{n}\n")).collect();
        self.new_manifest = Some(names);
        self.stage(manifest, |w| w.write_all(text.as_bytes()))
    }

    /// The outputs staged so far, for the report (name, digest, size).
    pub fn records(&self) -> Vec<OutputRecord> {
        self.staged
            .iter()
            .map(|s| OutputRecord {
                file: s.name.clone(),
                bytes: s.len,
            })
            .collect()
    }

    /// Whether committing would change any file.
    pub fn would_change(&self) -> bool {
        !self.stale.is_empty() || self.staged.iter().any(|s| s.changed)
    }

    /// Names of the outputs that would be written, and of stale files.
    pub fn changed_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .staged
            .iter()
            .filter(|s| s.changed)
            .map(|s| s.name.clone())
            .collect();
        v.extend(
            self.stale
                .iter()
                .map(|p| format!("{} (stale, removed)", p.display())),
        );
        v
    }

    /// Paths of every staged output (depfile targets).
    pub fn paths(&self) -> Vec<PathBuf> {
        self.staged.iter().map(|s| s.path.clone()).collect()
    }
}

/// Make depfile text: `targets : inputs`, spaces escaped `\ `, `$` as `$$`
/// (the gcc `-MD` syntax that make, ninja and meson read).
pub fn depfile(targets: &[PathBuf], inputs: &[PathBuf]) -> String {
    let esc = |p: &PathBuf| {
        p.display()
            .to_string()
            .replace('$', "$$")
            .replace(' ', "\\ ")
            .replace('#', "\\#")
    };
    let t: Vec<String> = targets.iter().map(esc).collect();
    let i: Vec<String> = inputs.iter().map(esc).collect();
    let mut s = format!("{} :", t.join(" "));
    for x in &i {
        s += " \\\n  ";
        s += x;
    }
    s.push('\n');
    for x in &i {
        s += &format!("\n{x}:\n");
    }
    s
}

/// Creates `path` or updates its mtime (the `--stamp` witness).
pub fn touch(path: &Path) -> Result<()> {
    let f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    f.set_modified(std::time::SystemTime::now())
        .map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_compare_commit() {
        let dir = tempfile::tempdir().unwrap();
        let mut set = OutputSet::new(dir.path(), false);
        set.stage("a", |w| w.write_all(b"one")).unwrap();
        assert!(set.would_change());
        assert!(
            !dir.path().join("a").exists(),
            "nothing lands before commit"
        );
        let st = set.commit().unwrap();
        assert_eq!(st[0].status, WriteStatus::Written);
        assert_eq!(std::fs::read(dir.path().join("a")).unwrap(), b"one");

        let mut check = OutputSet::new(dir.path(), true);
        check.stage("a", |w| w.write_all(b"one")).unwrap();
        assert!(!check.would_change());
        check.stage("a", |w| w.write_all(b"two")).unwrap();
        assert!(check.would_change());
        check.commit().unwrap();
        assert_eq!(std::fs::read(dir.path().join("a")).unwrap(), b"one");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp file left"
        );

        let mut failing = OutputSet::new(dir.path(), false);
        assert!(
            failing
                .stage("a", |_| Err(io::Error::other("boom")))
                .is_err()
        );
        drop(failing);
        assert_eq!(std::fs::read(dir.path().join("a")).unwrap(), b"one");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn depfile_escapes() {
        let d = depfile(&["o/routes.lft".into()], &["my topo$.txt".into()]);
        assert_eq!(
            d,
            "o/routes.lft : \\\n  my\\ topo$$.txt\n\nmy\\ topo$$.txt:\n"
        );
    }
}
