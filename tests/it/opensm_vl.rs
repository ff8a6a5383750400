//! OpenSM 3.3.23's own VL engines (dfsssp, lash, nue) as oracles: their
//! tables, SL2VL dumps and the path SLs their SA handed out (fixtures made
//! live over ibsim by `scripts/make-opensm-vl-fixtures.sh`). routec's
//! VL-aware check finds no credit loop on them with their plan, finds the
//! loops one VL has without it, and — like ibdmchk — sees a loop come back
//! when a single path is moved to another SL.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::doc_blocks;

use routec::model::vl_records::{PathSlRecord, PathSource, plan_from_records};
use routec::model::{Fabric, Lfts, LidMap, VlPlan};
use routec::parse::vl_files::{load_psl, load_sl2vl, parse_psl, parse_sl2vl};
use routec::parse::{LoadOptions, load_topology};
use routec::verify::{Code, Verdict, VerifyOptions, verify_tables};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/opensm-vl");

struct Case {
    dir: PathBuf,
    fabric: Fabric,
    lids: LidMap,
    lfts: Lfts,
    psl: Vec<PathSlRecord>,
    plan: VlPlan,
}

fn case(fab: &str, engine: &str) -> Case {
    let dir = Path::new(DIR).join(fab).join(engine);
    let fabric = load_topology(&dir.join("ibnetdiscover.txt"), &LoadOptions::default())
        .unwrap()
        .fabric;
    let lids = LidMap::new(&fabric).unwrap();
    let set = routec::parse::lfts::read_tables(&dir.join("opensm-lfts.dump")).unwrap();
    let lfts = set.align(&fabric, &lids).unwrap().lfts;
    let rows = load_sl2vl(&dir.join("opensm-sl2vl.dump")).unwrap();
    let psl = load_psl(&dir.join("saquery-paths.txt")).unwrap();
    let r = plan_from_records(&fabric, &lids, &lfts, &rows, &psl);
    assert!(r.ignored.is_empty(), "{fab}/{engine}: {:?}", r.ignored);
    Case {
        dir,
        fabric,
        lids,
        lfts,
        psl,
        plan: r.plan,
    }
}

fn check(c: &Case, plan: Option<VlPlan>) -> Verdict {
    let opts = VerifyOptions {
        vl_plan: plan,
        ..Default::default()
    };
    verify_tables(&c.fabric, &c.lids, &c.lfts, &opts)
}

const CASES: [(&str, &str); 9] = [
    ("ring6", "dfsssp"),
    ("ring6", "lash"),
    ("ring6", "nue"),
    ("torus4x4", "dfsssp"),
    ("torus4x4", "lash"),
    ("torus4x4", "nue"),
    ("irr", "dfsssp"),
    ("irr", "lash"),
    ("irr", "nue"),
];

#[test]
fn opensm_vl_engines_are_deadlock_free_with_their_plans() {
    for (fab, engine) in CASES {
        let c = case(fab, engine);
        let cas = c
            .lids
            .iter()
            .filter(|(_, o)| c.fabric.is_endpoint(o.node))
            .count();
        assert_eq!(
            c.psl.len(),
            cas * (cas - 1),
            "{fab}/{engine}: one record per CA pair"
        );
        let v = check(&c, Some(c.plan.clone()));
        assert!(v.is_clean(), "{fab}/{engine}:\n{}", v.render());
        let one = check(&c, None);
        // nue stays on SL 0 and is deadlock-free on one VL; dfsssp and lash
        // route min-hop-like paths that need their lanes on the ring and torus
        let loops = one.count(Code::V020) > 0;
        match (fab, engine) {
            (_, "nue") => assert!(!loops, "{fab}/nue"),
            ("ring6" | "torus4x4", _) => assert!(loops, "{fab}/{engine} without its plan"),
            _ => {}
        }
    }
}

#[test]
fn a_hand_read_entry_of_each_file() {
    let c = case("ring6", "dfsssp");
    // R0 (0x0002c90101000000), in 0 out 1: OpenSM's QoS map 0..7,0..7
    let r0 = c
        .fabric
        .switch_index(
            c.fabric
                .node_by_guid(routec::model::Guid(0x2c90101000000))
                .unwrap(),
        )
        .unwrap();
    assert_eq!(c.plan.sl2vl.vl(r0.ix(), 0, 1, 9), 1);
    assert_eq!(c.plan.sl2vl.vl(r0.ix(), 0, 1, 15), 7);
    // the first record: LID 10 -> LID 9 on SL 2
    assert_eq!(
        c.psl[0],
        PathSlRecord {
            src: PathSource::Lid(10),
            dlid: 9,
            sl: 2
        }
    );
}

/// The first path, and the SL (one of those the engine used) whose move
/// there closes a credit loop.
fn breaking_move(c: &Case) -> Option<(usize, u8)> {
    let rows = load_sl2vl(&c.dir.join("opensm-sl2vl.dump")).unwrap();
    let used = c.plan.path_sl.used();
    (0..c.psl.len()).find_map(|i| {
        (0..16u8)
            .filter(|&sl| used & 1 << sl != 0 && sl != c.psl[i].sl)
            .find_map(|sl| {
                let mut psl = c.psl.clone();
                psl[i].sl = sl;
                let plan = plan_from_records(&c.fabric, &c.lids, &c.lfts, &rows, &psl).plan;
                (check(c, Some(plan)).count(Code::V020) > 0).then_some((i, sl))
            })
    })
}

/// ibdmchk's `-c` form of path records: source CA node GUID, DLID, SL.
fn ibdmchk_psl(c: &Case, psl: &[PathSlRecord]) -> String {
    psl.iter()
        .map(|r| {
            let PathSource::Lid(s) = r.src else {
                unreachable!()
            };
            let node = c.lids.owner(s).unwrap().node;
            format!(
                "0x{:016x} {} {}\n",
                c.fabric.node(node).guid.0,
                r.dlid,
                r.sl
            )
        })
        .collect()
}

/// The paths of one (source switch, destination switch) pair and an SL
/// (of those used) whose move there closes a credit loop.
fn breaking_group_move(c: &Case) -> Option<(Vec<usize>, u8)> {
    let rows = load_sl2vl(&c.dir.join("opensm-sl2vl.dump")).unwrap();
    let switch_of = |lid| {
        let o = c.lids.owner(lid).unwrap();
        let p = c.fabric.peer(o.node, o.port).unwrap();
        c.fabric.switch_index(p.node).unwrap()
    };
    let mut groups: std::collections::BTreeMap<_, Vec<usize>> = Default::default();
    for (k, r) in c.psl.iter().enumerate() {
        let PathSource::Lid(s) = r.src else { continue };
        groups
            .entry((switch_of(s), switch_of(r.dlid)))
            .or_default()
            .push(k);
    }
    let used = c.plan.path_sl.used();
    groups.into_values().find_map(|g| {
        (0..16u8)
            .filter(|&sl| used & 1 << sl != 0 && sl != c.psl[g[0]].sl)
            .find_map(|sl| {
                let mut psl = c.psl.clone();
                g.iter().for_each(|&k| psl[k].sl = sl);
                let plan = plan_from_records(&c.fabric, &c.lids, &c.lfts, &rows, &psl).plan;
                (check(c, Some(plan)).count(Code::V020) > 0).then(|| (g.clone(), sl))
            })
    })
}

fn ibdmchk_loops(c: &Case, psl: &str) -> bool {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("psl"), psl).unwrap();
    std::fs::write(tmp.path().join("mcfdbs"), "").unwrap();
    let d = c.dir.join("opensm-sl2vl.dump");
    let out = Command::new("ibdmchk")
        .current_dir(tmp.path())
        .arg("-s")
        .arg(c.dir.join("opensm-subnet.lst"))
        .arg("-f")
        .arg(c.dir.join("opensm.fdbs"))
        .args(["-m", "mcfdbs", "-c", "psl", "-d"])
        .arg(d)
        .output()
        .unwrap();
    crate::common::ibdmchk_verdict(&out)
}

#[test]
fn moving_one_path_or_switch_pair_closes_a_loop_for_routec_and_ibdmchk() {
    let have = Command::new("ibdmchk").arg("-h").output().is_ok();
    assert!(
        have || std::env::var_os("CI").is_none(),
        "ibdmchk is missing in CI"
    );
    for (fab, engine) in [
        ("ring6", "dfsssp"),
        ("torus4x4", "dfsssp"),
        ("irr", "dfsssp"),
        ("torus4x4", "lash"),
    ] {
        let c = case(fab, engine);
        let own_psl = ibdmchk_psl(&c, &c.psl);
        if have {
            assert!(
                !ibdmchk_loops(&c, &own_psl),
                "{fab}/{engine}: ibdmchk on OpenSM's own plan"
            );
        }
        if let Some((i, sl)) = breaking_move(&c) {
            let mut moved = c.psl.clone();
            moved[i].sl = sl;
            assert!(
                !have || ibdmchk_loops(&c, &ibdmchk_psl(&c, &moved)),
                "{fab}/{engine}: path {i} moved"
            );
            continue;
        }
        // LASH puts whole switch pairs on a layer: there, moving one
        // switch pair's paths (its unit of routing) closes a loop.
        let (group, sl) =
            breaking_group_move(&c).unwrap_or_else(|| panic!("{fab}/{engine}: nothing breaks it"));
        let mut moved = c.psl.clone();
        group.iter().for_each(|&k| moved[k].sl = sl);
        assert!(
            !have || ibdmchk_loops(&c, &ibdmchk_psl(&c, &moved)),
            "{fab}/{engine}: switch pair moved"
        );
    }
}

#[test]
fn spec_examples_parse() {
    let dump = doc_blocks::fenced("formats/opensm-sl2vl-dump.md", "text");
    let rows = parse_sl2vl("example", &dump[0]).unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(
        (rows[2].in_port, rows[2].out_port, rows[2].vl_of_sl[9]),
        (0, 0, 1)
    );
    let ibd = doc_blocks::fenced("formats/ibdmchk-vl.md", "text");
    assert_eq!(parse_sl2vl("sl2vl", &ibd[0]).unwrap().len(), 2);
    assert_eq!(parse_psl("psl", &ibd[1]).unwrap()[1].sl, 1);
    let sa = doc_blocks::fenced("formats/saquery-path-records.md", "text");
    assert_eq!(
        parse_psl("sa", &sa[0]).unwrap(),
        [PathSlRecord {
            src: PathSource::Lid(10),
            dlid: 9,
            sl: 2
        }]
    );
}
