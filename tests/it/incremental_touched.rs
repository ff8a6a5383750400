//! `compile --previous DIR` merges only the columns a removal touches when
//! the previous run verified clean and nothing was added (the state's
//! `verified_clean` and `up_down_ranks`, `formats/state.md`). Oracle: the
//! same run over a copy of the state with `verified_clean` false, which
//! walks every column — tables and report byte for byte the same. (`updn`
//! leaves switch LIDs unrouted by design, a warning, so its runs always
//! walk every column: a floor counts those entries.)

use std::path::Path;

use super::incremental::{compile, generate, report, rows};

/// The state of `prev`, as JSON.
fn state_json(dir: &Path) -> String {
    let packed = std::fs::read(dir.join("prev/routec-state.json.zst")).unwrap();
    String::from_utf8(zstd::decode_all(&packed[..]).unwrap()).unwrap()
}

/// Incremental over `prev` into `out`; its note R021 and report.
fn incremental(dir: &Path, topo: &Path, faults: &Path, eng: &str, out: &str) -> String {
    let prev = ["--previous", "prev", "-v"];
    assert_eq!(compile(dir, topo, Some(faults), eng, out, &prev), 0);
    let rep = report(&dir.join(out));
    assert_eq!(rep["verification"]["status"], "pass");
    rep["incremental"].to_string()
}

/// The touched-columns merge equals the every-column merge on `topo` with
/// `faults`, for engine arguments `eng`.
fn same_as_every_column(dir: &Path, topo: &Path, faults: &Path, eng: &str) {
    assert_eq!(compile(dir, topo, None, eng, "prev", &[]), 0);
    let json = state_json(dir);
    assert!(
        json.contains("\"verified_clean\":true"),
        "{eng}: {json:.300}"
    );
    let touched = incremental(dir, topo, faults, eng, "touched");
    let walked_json = json.replacen("\"verified_clean\":true", "\"verified_clean\":false", 1);
    let packed = zstd::encode_all(walked_json.as_bytes(), 3).unwrap();
    std::fs::write(dir.join("prev/routec-state.json.zst"), packed).unwrap();
    let walked = incremental(dir, topo, faults, eng, "walked");
    assert_eq!(touched, walked, "{eng}");
    assert!(
        rows(&dir.join("touched")) == rows(&dir.join("walked")),
        "{eng}: the tables differ"
    );
    assert!(touched.contains("\"changed\""), "{touched}");
}

#[test]
fn removals_merge_only_the_touched_columns_with_the_same_result() {
    for (fabric, eng) in [
        (
            "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7",
            "--engine dmodc",
        ),
        (
            "--h 3 --m 4,4,8 --w 1,4,4 --faults 0 --fail-switches 1 --seed 3",
            "--engine dmodc",
        ),
        (
            "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7",
            "--engine sssp",
        ),
        (
            "--h 2 --m 6,8 --w 1,6 --faults 5 --seed 2",
            "--engine minhop",
        ),
        (
            "--h 3 --m 4,4,8 --w 1,4,4 --aggregation-nodes --faults 3 --seed 7",
            "--engine dmodc --vls 4",
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let (topo, faults) = generate(tmp.path(), fabric);
        same_as_every_column(tmp.path(), &topo, &faults, eng);
    }
}
