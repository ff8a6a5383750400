//! Incremental vs full on degraded fabrics: Dmodc, Up*/Down* and SSSP on a
//! fat tree with cut cables or a removed switch, min-hop on an irregular
//! fabric; every valid entry kept, fewer entries changed.

use super::oracle::{Rule, assert_incremental, differing};
use super::{compile, generate, load, report, rows};

/// Incremental vs full on a fat tree with `gen_args` faults.
fn fat_tree_case(gen_args: &str, engine: &str, rule: Rule) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (topo, faults) = generate(dir, gen_args);
    assert_eq!(compile(dir, &topo, None, engine, "prev", &[]), 0);
    assert!(dir.join("prev/routec-state.json.zst").is_file());
    let prev_arg = ["--previous", "prev"];
    assert_eq!(
        compile(dir, &topo, Some(&faults), engine, "inc", &prev_arg),
        0
    );
    assert_eq!(compile(dir, &topo, Some(&faults), engine, "full", &[]), 0);
    let (f, lids) = load(&topo, Some(&faults));
    let (prev, inc, full) = (
        rows(&dir.join("prev")),
        rows(&dir.join("inc")),
        rows(&dir.join("full")),
    );
    let changed = assert_incremental(&f, &lids, &prev, &inc, &full, rule);
    let by_full = differing(&f, &lids, &prev, &full);
    assert!(
        changed > 0 && changed < by_full,
        "incremental {changed}, full {by_full}"
    );
    let rep = report(&dir.join("inc"));
    assert_eq!(rep["verification"]["status"], "pass");
    assert!(rep["incremental"]["changed"].as_u64().unwrap() >= changed as u64);
    assert!(rep["notes"].to_string().contains("R021"));
}

#[test]
fn dmodc_cut_cables_keep_every_valid_entry() {
    fat_tree_case(
        "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7",
        "--engine dmodc",
        Rule::UpDown,
    );
}

#[test]
fn dmodc_switch_removed_keeps_every_valid_entry() {
    fat_tree_case(
        "--h 3 --m 4,4,8 --w 1,4,4 --faults 0 --fail-switches 1 --seed 3",
        "--engine dmodc",
        Rule::UpDown,
    );
}

#[test]
fn updn_degraded_fat_tree_keeps_every_valid_entry() {
    fat_tree_case(
        "--h 3 --m 4,4,8 --w 1,4,4 --faults 4 --seed 11",
        "--engine updn --roots top",
        Rule::UpDown,
    );
}

#[test]
fn sssp_degraded_fat_tree_keeps_shortest_entries() {
    // sssp promises shortest paths (no ranks): held to one switch closer
    // per hop, like minhop
    fat_tree_case(
        "--h 3 --m 4,4,8 --w 1,4,4 --faults 3 --seed 7",
        "--engine sssp",
        Rule::Shortest,
    );
}

const IRR: &str = "fixtures/opensm-vl/irr/fabric.net";

#[test]
fn minhop_irregular_fabric_keeps_shortest_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let topo = std::fs::canonicalize(IRR).unwrap();
    // S1/5 - S5/7: a switch-to-switch cable of the fixture
    let faults = dir.join("cut.faults");
    std::fs::write(&faults, "link 0xc7fde805ec99108d/5\n").unwrap();
    let eng = "--engine minhop --vls 2";
    assert_eq!(compile(dir, &topo, None, eng, "prev", &[]), 0);
    assert_eq!(
        compile(
            dir,
            &topo,
            Some(&faults),
            eng,
            "inc",
            &["--previous", "prev"]
        ),
        0
    );
    assert_eq!(compile(dir, &topo, Some(&faults), eng, "full", &[]), 0);
    let (f, lids) = load(&topo, Some(&faults));
    let (prev, inc, full) = (
        rows(&dir.join("prev")),
        rows(&dir.join("inc")),
        rows(&dir.join("full")),
    );
    let changed = assert_incremental(&f, &lids, &prev, &inc, &full, Rule::Shortest);
    assert!(changed > 0 && changed <= differing(&f, &lids, &prev, &full));
    assert_eq!(report(&dir.join("inc"))["verification"]["status"], "pass");
}
