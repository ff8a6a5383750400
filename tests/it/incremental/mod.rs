//! `compile --previous DIR` (issue 16, 2005 OpenSM memo §6–7): tables are
//! read back and judged by an oracle written here — each (switch, CA LID)
//! path followed hop by hop over the new fabric's cables, up/down by the
//! fat-tree level the PGFT generator writes into each switch GUID (byte 3:
//! `0x0002c901LL......`), shortest by a BFS of the test's own. Asserted:
//! every previous entry the oracle finds valid is kept byte for byte, every
//! entry of the result is valid, the result changes fewer entries than a
//! full re-route; a state from another engine, fabric, version, a corrupt
//! one, or one whose tables were replaced is ignored (note R020, the
//! result identical to a full compile); `--max-changed-blocks` and
//! `--restore`.

mod ignored;
mod options;
mod oracle;
mod repair;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use routec::model::{Fabric, Guid, LidMap};
use routec::parse::{LoadOptions, load_topology};

use crate::common::routec;

/// Tables by switch GUID, LID-indexed.
pub(super) type Rows = HashMap<Guid, Vec<u8>>;

pub(super) fn rows(dir: &Path) -> Rows {
    let set = routec::parse::lfts::read_tables(dir).unwrap();
    (0..set.switches.len())
        .map(|i| (set.switches[i].guid, set.lft(i).to_vec()))
        .collect()
}

pub(super) fn generate(dir: &Path, args: &str) -> (PathBuf, PathBuf) {
    let mut a: Vec<&str> = vec!["gen", "pgft"];
    a.extend(args.split_whitespace());
    a.extend(["-o", "t.topo"]);
    assert_eq!(routec(&a, dir).0, 0);
    (dir.join("t.topo"), dir.join("t.topo.faults"))
}

/// The fabric with `faults`, LIDs as compile assigns them.
pub(super) fn load(topo: &Path, faults: Option<&Path>) -> (Fabric, LidMap) {
    let mut f = load_topology(topo, &LoadOptions::default()).unwrap().fabric;
    if let Some(p) = faults {
        f = routec::parse::faults::load_and_apply(&f, p).unwrap().0;
    }
    if routec::model::lids::lid_state(&f) != routec::model::lids::LidState::Complete {
        routec::model::lids::assign_missing_lids(&mut f).unwrap();
    }
    let lids = LidMap::new(&f).unwrap();
    (f, lids)
}

pub(super) fn level(g: Guid) -> u64 {
    (g.0 >> 24) & 0xff
}

pub(super) fn report(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap()
}

/// compile with `engine_args`, over `faults` or not, into `out`.
pub(super) fn compile(
    dir: &Path,
    topo: &Path,
    faults: Option<&Path>,
    engine_args: &str,
    out: &str,
    extra: &[&str],
) -> i32 {
    let mut a = vec!["compile", topo.to_str().unwrap()];
    if let Some(p) = faults {
        a.extend(["--faults", p.to_str().unwrap()]);
    }
    a.extend(engine_args.split_whitespace());
    a.extend(["-o", out]);
    a.extend(extra);
    routec(&a, dir).0
}

/// A small fat tree routed intact into `prev`, and its fault list.
fn prev_run(dir: &Path, engine: &str) -> (PathBuf, PathBuf) {
    let (topo, faults) = generate(dir, "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7");
    assert_eq!(compile(dir, &topo, None, engine, "prev", &[]), 0);
    (topo, faults)
}

/// Runs the faulted compile with `--previous prev` (stderr kept) into
/// `out`: (exit code, stderr).
pub(super) fn with_previous(
    dir: &Path,
    topo: &Path,
    faults: &Path,
    engine: &str,
    out: &str,
    extra: &[&str],
) -> (i32, String) {
    let mut a = vec![
        "compile",
        topo.to_str().unwrap(),
        "--faults",
        faults.to_str().unwrap(),
    ];
    a.extend(engine.split_whitespace());
    a.extend(["-o", out, "--previous", "prev"]);
    a.extend(extra);
    let o = assert_cmd::Command::cargo_bin("routec")
        .unwrap()
        .args(&a)
        .current_dir(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code().unwrap_or(-1), err)
}
