//! Committing an output set so that a kill at any moment leaves no set a
//! reader takes for consistent (issue 11, items 6–7).
//!
//! Renaming several files is not atomic as a whole. So the commit runs in
//! an order where every step that can fail for want of space or rights
//! comes first, and the window where old and new files stand side by side
//! is announced in the manifest:
//! 1. every new file is synced, then each is given its `.routec-…` name;
//! 2. `routec.manifest` is replaced by one whose first line is
//!    [`MANIFEST_REPLACING`] and which lists the old and new outputs;
//! 3. the new files are renamed over the outputs in the set's fixed order,
//!    and stale outputs removed;
//! 4. the manifest is replaced by the new list: the set is whole again.
//!
//! A run killed between 2 and 4 leaves the marker: `check`, `diff` and
//! `report` refuse the directory (`parse::outdir`), and the next compile,
//! which removes the `.routec-…` files the kill left, rewrites the set.

use super::outputs::{OutputSet, OutputStatus};
use crate::error::{Error, Result};
use crate::io::WriteStatus;
use crate::model::{MANIFEST_REPLACING, OutFile};

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
        // synced while still unnamed (a 1.4 GB dump takes a while), so that
        // the span in which a kill leaves named files is only the links
        let mut ready = Vec::new();
        for s in &mut self.staged {
            let Some(tmp) = s.tmp.take() else { continue };
            if marking && s.name == manifest {
                continue; // written last, below
            }
            tmp.file().sync_data().map_err(|e| Error::io(&s.path, e))?;
            ready.push((s.path.clone(), tmp));
        }
        let mut named = Vec::with_capacity(ready.len());
        for (path, tmp) in ready {
            let tp = tmp.into_named(&self.dir).map_err(|e| Error::io(&path, e))?;
            named.push((path, tp));
        }
        let manifest_path = self.dir.join(manifest);
        if marking {
            let text = replacing_text(&self.old_manifest, self.new_manifest.as_deref());
            crate::io::write_atomic(&manifest_path, |w| w.write_all(text.as_bytes()))?;
        }
        for (path, tp) in named {
            tp.persist(&path).map_err(|e| Error::io(&path, e.error))?;
        }
        for p in &self.stale {
            std::fs::remove_file(p).map_err(|e| Error::io(p, e))?;
        }
        if let Some(names) = &self.new_manifest {
            let text: String = names.iter().map(|n| format!("{n}\n")).collect();
            crate::io::write_atomic(&manifest_path, |w| w.write_all(text.as_bytes()))?;
        }
        Ok(statuses)
    }
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
