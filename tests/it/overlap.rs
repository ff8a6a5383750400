//! `compile` renders the image, the dumps and the state while the tables
//! are verified (`src/cli/compile/overlap.rs`): a failed verification
//! still writes nothing — not even the output directories the run made —
//! and the state says what the verification found, though it was packed
//! before the verdict. Oracle: the run's own `report.json`.

use std::path::Path;

use assert_cmd::Command;

const FT2: &str = crate::common::FT2;
const RING6: &str = "fixtures/verify/ring6/ibnetdiscover.txt";
const ALL: &[&str] = &["--emit", "image,report,opensm,fdbs", "-q"];

fn compile(topo: &str, engine: &str, out: &Path, more: &[&str]) -> i32 {
    Command::cargo_bin("routec")
        .unwrap()
        .args(["compile", topo, "--engine", engine, "-o"])
        .arg(out)
        .args(ALL)
        .args(more)
        .output()
        .unwrap()
        .status
        .code()
        .unwrap()
}

/// `verified_clean` of the state in `dir`, and whether `report.json`
/// counts no finding at all.
fn state_and_report(dir: &Path) -> (bool, bool) {
    let packed = std::fs::read(dir.join("routec-state.json.zst")).unwrap();
    let json: serde_json::Value =
        serde_json::from_slice(&zstd::decode_all(&packed[..]).unwrap()).unwrap();
    let rep: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    let counts = rep["verification"]["counts"].as_object().unwrap();
    (json["verified_clean"].as_bool().unwrap(), counts.is_empty())
}

#[test]
fn failed_verification_creates_no_directory_and_keeps_old_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("new/deeper/out");
    // min-hop on the ring closes a credit loop: exit 1, nothing written
    assert_eq!(compile(RING6, "minhop", &fresh, &[]), 1);
    assert!(!dir.path().join("new").exists(), "a directory was left");
    let old = dir.path().join("old");
    assert_eq!(compile(FT2, "minhop", &old, &[]), 0);
    let snapshot = |d: &Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (p.clone(), std::fs::read(&p).unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let before = snapshot(&old);
    assert_eq!(compile(RING6, "minhop", &old, &[]), 1);
    assert_eq!(snapshot(&old), before, "a failed run changed the outputs");
}

#[test]
fn state_says_what_verification_found() {
    let dir = tempfile::tempdir().unwrap();
    // clean; warnings only (up/down leaves switch LIDs unrouted); a
    // credit loop written anyway
    for (topo, engine, more, code, clean) in [
        (FT2, "minhop", &[][..], 0, true),
        (FT2, "updn", &[][..], 0, false),
        (RING6, "minhop", &["--allow-invalid"][..], 1, false),
    ] {
        let out = dir
            .path()
            .join(engine)
            .join(Path::new(topo).file_name().unwrap());
        assert_eq!(compile(topo, engine, &out, more), code, "{topo} {engine}");
        assert_eq!(
            state_and_report(&out),
            (clean, clean),
            "{topo} {engine}: state's verified_clean against the report's counts"
        );
    }
}
