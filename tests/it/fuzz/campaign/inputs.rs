//! A run's files: the seeds of each case, the prepared directory a
//! directory case copies, and a failing run's input, stderr and command
//! line kept for replay.

use std::path::{Path, PathBuf};

use super::Knobs;
use crate::fuzz::cases::{Case, Corpus};

/// The seeds of a case by name (sorted, so that runs replay).
pub(super) fn seeds(case: &Case, w: &Path) -> Vec<(String, Vec<u8>)> {
    let files: Vec<PathBuf> = match &case.corpus {
        Corpus::Args => return vec![(String::new(), Vec::new())],
        Corpus::Fuzz(name) => {
            let mut v: Vec<PathBuf> = std::fs::read_dir(Path::new("fixtures/fuzz").join(name))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .collect();
            v.sort();
            v
        }
        Corpus::Files(fs) => fs
            .iter()
            .map(|f| PathBuf::from(f.replace("{w}", &w.display().to_string())))
            .collect(),
    };
    files
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(p).unwrap())
        })
        .collect()
}

pub(super) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Keeps a failing run's input, stderr and command line under the keep
/// directory; returns the folder.
pub(super) fn keep(k: &Knobs, run: u64, input: &Path, args: &[String], dir: &Path) -> PathBuf {
    let to = k.keep.join(format!("stream{}-run{run}", k.stream));
    std::fs::create_dir_all(&to).unwrap();
    let _ = std::fs::copy(input, to.join(input.file_name().unwrap()));
    let _ = std::fs::copy(dir.join("stderr"), to.join("stderr"));
    let _ = std::fs::write(
        to.join("cmd"),
        format!("{} {}\n", k.bin.display(), args.join(" ")),
    );
    to
}
