//! routec's `minhop` and `updn` against the real OpenSM 3.3.23: every
//! fixture under `fixtures/opensm/<case>/<run>/` holds the ibnetdiscover of a
//! fabric OpenSM routed (with OpenSM's LIDs) and OpenSM's `opensm-lfts.dump`
//! (made by `scripts/make-opensm-fixtures.sh`). routec must produce the same
//! port for every (switch, LID), and the same dump text byte for byte.

use crate::common;
use crate::fabric_eq;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use routec::model::{LidMap, NO_ROUTE};
use routec::parse::{LoadOptions, guids::load_guid_file, load_topology};
use routec::route::{RootSpec, RouteOptions, engine_by_name};

fn dir(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/opensm")
        .join(case)
}

/// Routes one run and compares; returns the number of entries compared.
fn check(case: &str, run: &str, engine: &str, roots: Option<&str>, order: Option<&str>) -> usize {
    let base = dir(case).join(run);
    let fabric = load_topology(&base.join("ibnetdiscover.txt"), &LoadOptions::default())
        .unwrap()
        .fabric;
    let lids = LidMap::new(&fabric).unwrap();
    let opts = RouteOptions {
        roots: roots.map_or(RootSpec::Auto, |f| {
            RootSpec::Guids(load_guid_file(&dir(case).join(f)).unwrap())
        }),
        node_order: order.map(|f| load_guid_file(&dir(case).join(f)).unwrap()),
        ..Default::default()
    };
    let routing = engine_by_name(engine)
        .unwrap()
        .route(&fabric, &lids, &opts)
        .unwrap();
    let dump = base.join("opensm-lfts.dump");
    let text = std::fs::read_to_string(&dump).unwrap();
    let opensm = common::lfts_for(&fabric, &lids, &dump);
    let mut entries = 0;
    for (s, &node) in fabric.switches().iter().enumerate() {
        let guid = fabric.node(node).guid;
        for lid in 0..=lids.max_lid() {
            let want = opensm.get(s, lid);
            entries += usize::from(want != NO_ROUTE);
            let got = routing.lfts.get(s, lid);
            assert_eq!(
                want, got,
                "{case}/{run}: first difference at switch {guid} LID {lid}: OpenSM {want}, routec {got}"
            );
        }
    }
    let mut ours = Vec::new();
    routec::emit::opensm::write_lfts_dump(&fabric, &lids, &routing.lfts, &mut ours).unwrap();
    assert!(
        ours == text.as_bytes(),
        "{case}/{run}: the tables agree but the dump text differs"
    );
    eprintln!("{case}/{run} ({engine}): {entries} entries identical to OpenSM");
    entries
}

#[test]
fn minhop_two_level_fat_tree() {
    assert_eq!(check("ft2", "minhop", "minhop", None, None), 528);
}

#[test]
fn minhop_with_guid_routing_order_file() {
    assert_eq!(
        check("ft2", "minhop-order", "minhop", None, Some("order.guids")),
        528
    );
}

#[test]
fn minhop_three_level_degraded_heuristic_and_irregular() {
    for case in ["ft3", "ft3f", "heur", "irr"] {
        assert!(check(case, "minhop", "minhop", None, None) > 700);
    }
}

#[test]
fn updn_auto_roots() {
    // ft2, ft3, heur: the heuristic finds the top switches; ft3f: a degraded
    // tree where it finds only 2 of the 3 remaining top switches.
    for case in ["ft2", "ft3", "ft3f", "heur"] {
        assert!(check(case, "updn", "updn", None, None) > 500);
    }
}

#[test]
fn updn_with_root_guid_file() {
    assert_eq!(
        check("ft3f", "updn-roots", "updn", Some("roots.guids"), None),
        1395
    );
    assert_eq!(
        check("irr", "updn-roots", "updn", Some("roots.guids"), None),
        835
    );
}

/// OpenSM run with `-l 2` (and `-l 1` on the torus): every CA port owns
/// 2^LMC LIDs and OpenSM routes each further LID of a port towards a remote
/// system/node its earlier LIDs did not use (`osm_switch_recommend_path`
/// with `routing_for_lmc`). Fat trees (ft3: two cables to the same node),
/// an irregular graph with parallel cables and a 4x4 torus with two hosts
/// per switch; `scripts/make-opensm-lmc-fixtures.sh` made them.
#[test]
fn minhop_and_updn_with_lmc() {
    for (case, run, engine, roots) in [
        ("ft2", "minhop-lmc2", "minhop", None),
        ("ft2", "updn-lmc2", "updn", None),
        ("ft3", "minhop-lmc2", "minhop", None),
        ("ft3", "updn-lmc2", "updn", None),
        ("irr", "minhop-lmc2", "minhop", None),
        ("irr", "updn-roots-lmc2", "updn", Some("roots.guids")),
        ("torus", "minhop-lmc2", "minhop", None),
        ("torus", "minhop-lmc1", "minhop", None),
    ] {
        let entries = check(case, run, engine, roots, None);
        assert!(entries > 1000, "{case}/{run}: {entries}");
    }
}

/// Each run's `ibnetdiscover.txt` (what routec routes) and OpenSM's own
/// `opensm-subnet.lst` of the same run describe the same nodes, port GUIDs,
/// LIDs and cables, so the comparisons above route OpenSM's fabric.
#[test]
fn ibnetdiscover_fixtures_match_opensm_subnet_lists() {
    let mut runs = 0;
    for case in ["ft2", "ft3", "ft3f", "heur", "irr", "torus"] {
        for entry in std::fs::read_dir(dir(case)).unwrap() {
            let base = entry.unwrap().path();
            if !base.join("opensm-subnet.lst").is_file() {
                continue;
            }
            let (lst, _) = common::subnet_lst(&base.join("opensm-subnet.lst"));
            let ibnd = load_topology(&base.join("ibnetdiscover.txt"), &LoadOptions::default())
                .unwrap()
                .fabric;
            eprintln!("{}: subnet list and ibnetdiscover", base.display());
            fabric_eq::assert_same_wiring(&ibnd, &lst);
            runs += 1;
        }
    }
    assert_eq!(runs, 21);
}

/// OpenSM found no root on `irr` and silently fell back to minhop (its
/// fixture's engine.txt says so); routec refuses with advice, exit code 2.
#[test]
fn updn_without_roots_is_refused_where_opensm_falls_back() {
    let base = dir("irr").join("updn");
    assert_eq!(
        std::fs::read_to_string(base.join("engine.txt"))
            .unwrap()
            .trim(),
        "minhop"
    );
    let out = tempfile::tempdir().unwrap();
    let assert = Command::cargo_bin("routec")
        .unwrap()
        .args(["compile", "--engine", "updn", "-o"])
        .arg(out.path())
        .arg(base.join("ibnetdiscover.txt"))
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        err.contains("no root") && err.contains("--roots top"),
        "{err}"
    );
}

/// The CLI end to end: same file as OpenSM, whatever `-j`.
#[test]
fn cli_writes_opensm_identical_dump_for_any_thread_count() {
    let base = dir("heur").join("updn");
    let want = std::fs::read(base.join("opensm-lfts.dump")).unwrap();
    for j in ["1", "2"] {
        let out = tempfile::tempdir().unwrap();
        Command::cargo_bin("routec")
            .unwrap()
            .args([
                "compile", "--engine", "updn", "--emit", "opensm", "-j", j, "-o",
            ])
            .arg(out.path())
            .arg(base.join("ibnetdiscover.txt"))
            .assert()
            .success()
            .stderr(predicates::str::contains("roots: 4 of 28 switches"));
        assert!(
            std::fs::read(out.path().join("opensm-lfts.dump")).unwrap() == want,
            "-j {j}"
        );
    }
}
