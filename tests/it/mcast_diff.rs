//! `routec diff` on multicast tables: two `compile --mcast` runs with
//! different `--mft-size`, counts checked against a brute-force count over
//! the two parsed MFT sets (every switch × MLID × port).

use crate::common;

use common::routec;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use routec::model::Mfts;
use routec::model::{Fabric, SwIdx};
use routec::parse::mcfdbs::parse_mcfdbs;
use routec::parse::{LoadOptions, load_topology};
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `compile --mcast GROUPS --mft-size N` for each size, into `case/<N>`.
fn compile(case: &Path, topo: &str, groups: &Path, sizes: &[u32]) {
    let _ = std::fs::remove_dir_all(case);
    std::fs::create_dir_all(case).unwrap();
    for n in sizes {
        let (t, g, n) = (
            format!("{ROOT}/{topo}"),
            groups.display().to_string(),
            n.to_string(),
        );
        let args = [
            "-q",
            "compile",
            &t,
            "--engine",
            "minhop",
            "--mcast",
            &g,
            "--mft-size",
            &n,
            "-o",
            &n,
        ];
        assert_eq!(routec(&args, case).0, 0);
    }
}

/// (switches changed, entries changed, SMPs, MLIDs changed, added, removed),
/// by brute force: an SMP per (switch, MLID / 32, port / 16) with a differing bit.
fn brute_force(f: &Fabric, old: &Mfts, new: &Mfts) -> (usize, u64, u64, usize, usize, usize) {
    let (mut switches, mut entries, mut smps) = (0, 0, BTreeSet::new());
    let mut changed = BTreeSet::new();
    let mlids = |m: &Mfts| -> BTreeSet<u16> {
        (0..f.num_switches() as u32)
            .flat_map(|s| m.rows(SwIdx(s)).iter().map(|e| e.0))
            .collect()
    };
    let (om, nm) = (mlids(old), mlids(new));
    for s in (0..f.num_switches() as u32).map(SwIdx) {
        let mut any = false;
        for mlid in 0xC000..=0xFFFEu16 {
            let (a, b) = (
                old.get(s, mlid).copied().unwrap_or_default(),
                new.get(s, mlid).copied().unwrap_or_default(),
            );
            let diff: Vec<u8> = (0..=255u8).filter(|&p| a.has(p) != b.has(p)).collect();
            if !diff.is_empty() {
                any = true;
                entries += 1;
                changed.insert(mlid);
                diff.iter().for_each(|&p| {
                    smps.insert((s, (mlid - 0xC000) / 32, p / 16));
                });
            }
        }
        switches += any as usize;
    }
    let both = changed
        .iter()
        .filter(|m| om.contains(m) && nm.contains(m))
        .count();
    (
        switches,
        entries,
        smps.len() as u64,
        both,
        nm.difference(&om).count(),
        om.difference(&nm).count(),
    )
}

fn diff_json(case: &Path, a: &str, b: &str) -> (i32, Value) {
    let (code, out) = routec(&["diff", a, b, "--json", "--exit-code"], case);
    (code, serde_json::from_str(&out).unwrap())
}

fn check_counts(case: &Path, topo: &str, a: &str, b: &str) -> Value {
    let f = load_topology(
        &PathBuf::from(format!("{ROOT}/{topo}")),
        &LoadOptions::default(),
    )
    .unwrap()
    .fabric;
    let read = |d: &str| {
        let text = std::fs::read_to_string(case.join(d).join("opensm.mcfdbs")).unwrap();
        parse_mcfdbs("opensm.mcfdbs", &text, &f).unwrap()
    };
    let want = brute_force(&f, &read(a), &read(b));
    assert!(want.2 > 0, "the two runs must differ");
    let (code, v) = diff_json(case, a, b);
    assert_eq!(code, 3);
    let n = |k: &str| v[k].as_u64().unwrap();
    let len = |k: &str| v[k].as_array().unwrap().len();
    let got = (
        n("mft_switches_changed") as usize,
        n("mft_entries_changed"),
        n("mft_blocks_changed"),
        n("mlids_changed") as usize,
        len("mlids_added"),
        len("mlids_removed"),
    );
    assert_eq!(got, want);
    assert_eq!(len("mft_switches"), want.0);
    // The unicast tables are the same: the MFTs alone make it exit 3.
    assert_eq!((n("switches_changed"), n("blocks_to_upload")), (0, 0));
    v
}

#[test]
fn figure2_mft_size_1_vs_unlimited() {
    let case = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcast_diff_fig2");
    let groups = PathBuf::from(format!("{ROOT}/fixtures/mcast/fig2.groups"));
    compile(
        &case,
        "fixtures/mcast/fig2.ibnetdiscover",
        &groups,
        &[1, 16383],
    );
    let v = check_counts(&case, "fixtures/mcast/fig2.ibnetdiscover", "1", "16383");
    // By hand: group 4 moves to 0xC001; sw0 gains it, sw3 and sw4 change
    // 0xC000 and gain 0xC001: 5 entries, one SMP (block 0, ports 0..15) each.
    assert_eq!(
        (
            v["mft_entries_changed"].as_u64(),
            v["mft_blocks_changed"].as_u64()
        ),
        (Some(5), Some(3))
    );
    assert_eq!(v["mlids_added"], serde_json::json!([0xC001]));
    let (_, text) = routec(&["diff", "1", "16383"], &case);
    insta::assert_snapshot!("fig2_mft_diff", text);
    // The other way round, MLID 0xC001 is removed; identical sides differ in nothing.
    let (_, back) = diff_json(&case, "16383", "1");
    assert_eq!(back["mlids_removed"], serde_json::json!([0xC001]));
    assert_eq!(diff_json(&case, "1", "1").0, 0);
}

#[test]
fn fat_tree_random_groups_small_vs_large_mft() {
    let case = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcast_diff_ft2");
    let _ = std::fs::create_dir_all(&case);
    let topo = "fixtures/opensm/ft2/minhop/ibnetdiscover.txt";
    let groups = case.with_extension("groups");
    let t = format!("{ROOT}/{topo}");
    let g = groups.display().to_string();
    let args = [
        "gen",
        "mcast",
        "--pattern",
        "random",
        "--dims",
        "40x5",
        "--topology",
        &t,
        "-o",
        &g,
    ];
    assert_eq!(routec(&args, Path::new(ROOT)).0, 0);
    compile(&case, topo, &groups, &[4, 64]);
    check_counts(&case, topo, "4", "64");
}
