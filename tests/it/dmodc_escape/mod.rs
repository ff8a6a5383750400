//! Dmodc on real fabrics (`formats/dmodc.md` §7): aggregation-node CAs on
//! spines and cores, and leaves with no common ancestor, route on escape
//! paths with SLs of their own while every up–down path keeps SL 0 and
//! its ports.
//!
//! The oracle for "which pairs need an escape" is written here from the
//! definition (ranks by BFS from the compute leaves; an up–down path from
//! `s` to `t` exists iff some switch is reachable upward from both), not
//! taken from the engine.

mod aggregation;
mod layering;
mod oracle;
mod service_nodes;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::routec;

/// ibdmchk's verdict when the peer is installed (`common::peer`).
fn ibdmchk_loops(dir: &Path, psl: Option<&str>) -> Option<bool> {
    let usable = Command::new("ibdmchk").arg("-h").output().is_ok();
    crate::common::peer("ibdmchk", usable)
        .then(|| crate::common::ibdmchk_loops(dir, psl))
        .flatten()
}

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("dmodc_escape_{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `routec gen pgft ARGS` (space-separated) into `dir/topo.txt`.
fn generate(dir: &Path, args: &str) -> String {
    let topo = dir.join("topo.txt");
    let mut a = vec!["gen", "pgft"];
    a.extend(args.split_whitespace());
    a.extend_from_slice(&["-o", topo.to_str().unwrap()]);
    assert_eq!(routec(&a, Path::new(ROOT)).0, 0);
    topo.to_str().unwrap().to_string()
}

/// `compile --engine dmodc --vls N` with every output; (exit code, stderr).
fn compile(topo: &str, out: &Path, vls: &str) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_routec"))
        .args(["compile", topo, "--engine", "dmodc", "--vls", vls])
        .args(["--emit", "image,report,opensm,fdbs", "-o"])
        .arg(out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    // miette wraps messages: compare words
    let err: Vec<&str> = err.split_whitespace().filter(|w| *w != "│").collect();
    let err = err.join(" ");
    (o.status.code().unwrap_or(-1), err)
}
