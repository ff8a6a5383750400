//! The balanced shortest-path engine (`--engine sssp`, seed
//! `myrinet-gm2-mapper.txt`): a ring's tables and link loads worked out by
//! hand, LMC trees that part (link-disjoint paths counted by an oracle
//! walking the LFTs), reachability on random fabrics of every generator
//! (proptest, oracle: the brute-force walker of `verify.rs`), thread-count
//! independence, and deadlock freedom with `--vls 8` on tori and a
//! dragonfly within the VLs OpenSM's dfsssp needs there.

use std::path::Path;

use proptest::prelude::*;

use crate::common::routec;
use crate::verify::brute_force;
use routec::generate::dragonfly::{DragonflySpec, dragonfly};
use routec::generate::ft2d::{Ft2dSpec, ft2d};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::generate::torus::{TorusSpec, torus};
use routec::model::lids::{apply_port_lids, assign_with_lmc};
use routec::model::{
    Fabric, FabricBuilder, Guid, Lfts, LidMap, NO_ROUTE, NodeKind, NodeSpec, VlPlan,
};
use routec::route::opensm::SwitchGraph;
use routec::route::sssp::dests;
use routec::route::sssp::tree::{Graph, Tree};
use routec::route::sssp::weights::Weights;
use routec::route::sssp::{Sssp, lmc};
use routec::route::{Engine, RouteOptions};

/// Ring s0-s1-s2-s3-s0 (switch GUIDs 1..4, LIDs 1..4; s_i port 2 to
/// s_{i+1} port 1), host h_i on port 3 of s_i (LID 5 + i).
fn ring4(lmc0: u8) -> Fabric {
    let mut b = FabricBuilder::new();
    let sw: Vec<_> = (1..=4u64)
        .map(|g| {
            b.add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(g),
                3,
                format!("s{}", g - 1),
            ))
            .unwrap()
        })
        .collect();
    for i in 0..4 {
        b.connect(sw[i], 2, sw[(i + 1) % 4], 1).unwrap();
    }
    for (i, &s) in sw.iter().enumerate() {
        b.port_mut(s, 0).unwrap().lid = i as u16 + 1;
        let h = b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(0x100 + i as u64),
                1,
                format!("h{i}"),
            ))
            .unwrap();
        let p = b.port_mut(h, 1).unwrap();
        p.guid = Guid(0x1000 + i as u64);
        // h0 gets LIDs 6..7 with LMC 1 (aligned), the others 8, 9, 10
        (p.lid, p.lmc) = match (i, lmc0) {
            (0, 1) => (6, 1),
            (_, 1) => (i as u16 + 7, 0),
            _ => (i as u16 + 5, 0),
        };
        b.connect(h, 1, s, 3).unwrap();
    }
    b.build()
}

/// Load of the directed link s_a → s_b of the ring.
fn ring_load(g: &SwitchGraph, w: &Weights, a: usize, b: usize) -> u64 {
    let e = g.ends(a).find(|&e| g.nbr[e] as usize == b).unwrap();
    w.load(e)
}

/// Worked by hand (formats/sssp.md): destinations by LID, h0..h3, one
/// source per switch; each tree's (penalty, load) ties go to the lower far
/// switch GUID (their most loaded links tie too).
/// * h0 (root s0): s2 has two 2-hop routes, both unloaded: via s1 (GUID 2)
///   → port 1. Loads: s2→s1 1, s1→s0 2, s3→s0 1.
/// * h1 (root s1): s3 via s0 costs L(s3→s0) = 1, via s2 costs L(s2→s1) = 1:
///   tie, s0 wins (port 2). Loads += s3→s0 1, s0→s1 2, s2→s1 1.
/// * h2 (root s2): s0 via s1 costs L(s0→s1) = 2, via s3 costs 0: port 1.
///   Loads += s0→s3 1, s1→s2 1, s3→s2 2.
/// * h3 (root s3): s1 via s2 costs L(s1→s2) = 1, via s0 costs L(s0→s3) +
///   L(s1→s0) = 1 + 2: port 2. Loads += s1→s2 1, s2→s3 2, s0→s3 1.
///   Every directed link ends at load 2 (16 switch hops over 8 links).
/// * Switch LIDs, under those equal final loads: opposite switches tie,
///   the lower GUID wins.
#[test]
fn ring_tables_and_loads_by_hand() {
    let f = ring4(0);
    let lids = LidMap::new(&f).unwrap();
    let sg = SwitchGraph::new(&f);
    let d = dests::collect(&f, &lids, None);
    assert_eq!(
        d.ends.iter().map(|d| d.lid).collect::<Vec<_>>(),
        [5, 6, 7, 8]
    );
    let gr = Graph::new(&sg, &[0, 1, 2, 3], dests::hosts_per_switch(&f, &d));
    let mut w = Weights::new(sg.num_port_ends());
    let mut tree = Tree::new(4);
    let mut lfts = Lfts::new(4, lids.max_lid());
    let loads = |w: &Weights| -> Vec<u64> {
        [
            (0, 1),
            (1, 0),
            (1, 2),
            (2, 1),
            (2, 3),
            (3, 2),
            (3, 0),
            (0, 3),
        ]
        .map(|(a, b)| ring_load(&sg, w, a, b))
        .to_vec()
    };
    let want = [
        // s0→s1, s1→s0, s1→s2, s2→s1, s2→s3, s3→s2, s3→s0, s0→s3
        [0, 2, 0, 1, 0, 0, 1, 0],
        [2, 2, 0, 2, 0, 0, 2, 0],
        [2, 2, 1, 2, 0, 2, 2, 1],
        [2, 2, 2, 2, 2, 2, 2, 2],
    ];
    let mut cols = lmc::Columns::new(4);
    for (i, dest) in d.ends.iter().enumerate() {
        lmc::route_port(&gr, &mut w, &mut tree, (&mut lfts, &mut cols), dest);
        assert_eq!(loads(&w), want[i], "after the tree of h{i}");
    }
    cols.flush(&mut lfts);
    let r = Sssp.route(&f, &lids, &RouteOptions::default()).unwrap();
    let col = |lid: u16| [0, 1, 2, 3].map(|s| r.lfts.get(s, lid));
    // LID:        s0 s1 s2 s3
    assert_eq!(col(1), [0, 1, 1, 2]);
    assert_eq!(col(2), [2, 0, 1, 2]);
    assert_eq!(col(3), [2, 2, 0, 1]);
    assert_eq!(col(4), [1, 1, 2, 0]);
    // toward h0 (LID 5), s2's two unloaded 2-hop routes tie: the GUID
    // tie-break picks s1 (GUID 2 < 4), port 1
    assert_eq!(col(5), [3, 1, 1, 2]);
    assert_eq!(col(6), [2, 3, 1, 2]);
    assert_eq!(col(7), [1, 2, 3, 1]);
    assert_eq!(col(8), [1, 2, 2, 3]);
    for lid in 1..=8 {
        assert_eq!(
            col(lid),
            [0, 1, 2, 3].map(|s| lfts_or(&lfts, s, lid, &r.lfts))
        );
    }
}

/// The engine's columns for CA LIDs equal the step-by-step ones; switch
/// LIDs only the engine routes.
fn lfts_or(steps: &Lfts, s: usize, lid: u16, engine: &Lfts) -> u8 {
    match steps.get(s, lid) {
        NO_ROUTE => engine.get(s, lid),
        p => p,
    }
}

/// LMC 1 on h0 (LIDs 6, 7): offset 0 is the tree above (s2 via s1);
/// offset 1 pays a penalty on the three links offset 0 used, so s2 goes
/// via s3 (penalty 1 against 2) and s1, s3 keep their only shortest link.
#[test]
fn ring_lmc_offsets_part() {
    let f = ring4(1);
    let lids = LidMap::new(&f).unwrap();
    let r = Sssp.route(&f, &lids, &RouteOptions::default()).unwrap();
    let col = |lid: u16| [0, 1, 2, 3].map(|s| r.lfts.get(s, lid));
    assert_eq!(col(6), [3, 1, 1, 2]);
    assert_eq!(col(7), [3, 1, 2, 2]);
}

/// Directed switch links (switch, out port) from switch `s` to `lid`, or
/// `None` when the walk does not deliver within the switch count.
pub(crate) fn walk(f: &Fabric, t: &Lfts, mut s: usize, lid: u16) -> Option<Vec<(usize, u8)>> {
    let mut links = Vec::new();
    for _ in 0..=f.num_switches() {
        let p = t.get(s, lid);
        if p == NO_ROUTE {
            return None;
        }
        let node = f.switches()[s];
        if p == 0 {
            return f.port(node, 0).owns_lid(lid).then_some(links);
        }
        let peer = f.peer(node, p)?;
        match f.switch_index(peer.node) {
            Some(n) => {
                links.push((s, p));
                s = n.ix();
            }
            None => return f.port(peer.node, peer.port).owns_lid(lid).then_some(links),
        }
    }
    None
}

/// Largest set of pairwise link-disjoint paths among `paths` (brute force
/// over subsets).
pub(crate) fn most_disjoint(paths: &[Vec<(usize, u8)>]) -> usize {
    let n = paths.len();
    (0u32..1 << n)
        .filter(|m| {
            (0..n).all(|i| {
                (i + 1..n).all(|j| {
                    m & (1 << i) == 0
                        || m & (1 << j) == 0
                        || paths[i].iter().all(|l| !paths[j].contains(l))
                })
            })
        })
        .map(|m| m.count_ones() as usize)
        .max()
        .unwrap_or(0)
}

/// The fabric with LIDs assigned anew for `lmc`, as `compile --lmc` does.
pub(crate) fn with_lmc(mut f: Fabric, lmc: u8) -> (Fabric, LidMap) {
    let fresh = assign_with_lmc(&f, lmc).unwrap();
    apply_port_lids(&mut f, &fresh);
    let lids = LidMap::new(&f).unwrap();
    (f, lids)
}

/// 8×8 torus, one host per switch, LMC 2: at least half of the CA pairs
/// get two or more link-disjoint paths among their four (OpenSM's sssp
/// gives 26 %, its minhop 72 %, issue 14). Oracle: LFT walks.
#[test]
fn torus_lmc2_gives_disjoint_paths() {
    let t = torus(&TorusSpec {
        dims: vec![8, 8],
        wrap: true,
        hosts: 1,
    })
    .unwrap();
    let (f, lids) = with_lmc(t, 2);
    let r = Sssp.route(&f, &lids, &RouteOptions::default()).unwrap();
    let cas: Vec<(usize, u16)> = lids
        .iter()
        .filter(|(_, o)| !f.is_switch(o.node) && o.offset == 0)
        .map(|(lid, o)| {
            let peer = f.port(o.node, o.port).peer.unwrap();
            (f.switch_index(peer.node).unwrap().ix(), lid)
        })
        .collect();
    let (mut pairs, mut two) = (0, 0);
    let mut hist = vec![0u64; 5];
    for &(src, _) in &cas {
        for &(dst, base) in &cas {
            if src == dst {
                continue;
            }
            let paths: Vec<_> = (0..4)
                .map(|k| walk(&f, &r.lfts, src, base + k).expect("delivered"))
                .collect();
            pairs += 1;
            let m = most_disjoint(&paths);
            hist[m] += 1;
            two += usize::from(m >= 2);
        }
    }
    assert_eq!(pairs, 64 * 63);
    let share = two as f64 / pairs as f64;
    eprintln!(
        "8x8 torus, LMC 2: {two}/{pairs} CA pairs ({share:.3}) have >= 2 link-disjoint paths"
    );
    assert!(share >= 0.5, "{share}");
    // `routec report`'s path diversity says the same, from the tables
    let d = routec::verify::quality::path_diversity(&f, &lids, &r.lfts, 64).unwrap();
    assert_eq!((d.max_lmc, d.pairs, d.exact), (2, pairs as u64, true));
    assert_eq!(d.histogram, hist);
    assert_eq!(d.same_switch_pairs + d.unrouted_pairs, 0);
}

/// A random small fabric of one of the generators.
fn any_fabric() -> impl Strategy<Value = Fabric> {
    prop_oneof![
        (prop::collection::vec(2u32..5, 1..4), any::<bool>(), 1u32..3)
            .prop_map(|(dims, wrap, hosts)| torus(&TorusSpec { dims, wrap, hosts }).unwrap()),
        (1u32..4, 1u32..3, 1u32..3).prop_map(|(a, p, h)| dragonfly(&DragonflySpec {
            a,
            p,
            h,
            groups: None
        })
        .unwrap()),
        (2u32..4, 2u32..4, 1u32..3).prop_map(|(m1, m2, w2)| pgft(&PgftSpec::new(
            2,
            &[m1, m2],
            &[1, w2],
            None
        ))
        .unwrap()),
        (2u32..4, 1u32..3, 1u32..3).prop_map(|(nx, ny, hosts)| ft2d(&Ft2dSpec {
            nx,
            ny,
            hosts,
            rsw: 1,
            csw: 2
        })
        .unwrap()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Every CA reaches every CA LID (all offsets) on random fabrics of
    /// every generator, with LMC 0..2 (oracle: verify.rs's brute force).
    #[test]
    fn every_route_arrives(f in any_fabric(), lmc in 0u8..3) {
        let (f, lids) = with_lmc(f, lmc);
        let r = Sssp.route(&f, &lids, &RouteOptions::default()).unwrap();
        let (unreachable, _) = brute_force(&f, &lids, &r.lfts, &VlPlan::single(&r.lfts));
        prop_assert_eq!(unreachable, 0);
        // and every switch reaches every switch LID
        for (lid, _) in lids.iter().filter(|(_, o)| f.is_switch(o.node)) {
            for s in 0..f.num_switches() {
                prop_assert!(walk(&f, &r.lfts, s, lid).is_some(), "switch {} to LID {}", s, lid);
            }
        }
    }
}

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn tmp(name: &str) -> std::path::PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sssp_{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes a generated fabric; returns its path.
fn generate(dir: &Path, name: &str, args: &[&str]) -> String {
    let path = dir.join(format!("{name}.topo"));
    let mut all = vec!["gen"];
    all.extend_from_slice(args);
    all.extend(["-o", path.to_str().unwrap()]);
    assert_eq!(routec(&all, Path::new(ROOT)).0, 0);
    path.to_str().unwrap().to_string()
}

/// `-j 1` and `-j 2` write the same bytes (route image with its VL plan,
/// report, OpenSM dump) on a dragonfly with LMC 1 and lanes.
#[test]
fn thread_count_does_not_change_outputs() {
    let dir = tmp("threads");
    let topo = generate(
        &dir,
        "df",
        &["dragonfly", "--a", "4", "--p", "2", "--h", "2"],
    );
    let run = |j: &str| {
        let out = dir.join(format!("j{j}"));
        let (code, _) = routec(
            &[
                "compile",
                &topo,
                "--engine",
                "sssp",
                "--lmc",
                "1",
                "--vls",
                "8",
                "-j",
                j,
                "--emit",
                "image,report,opensm",
                "-o",
                out.to_str().unwrap(),
            ],
            Path::new(ROOT),
        );
        assert_eq!(code, 0);
        ["routes.lft", "report.json", "opensm-lfts.dump"]
            .map(|f| std::fs::read(out.join(f)).unwrap())
    };
    assert!(run("1") == run("2"), "outputs differ between -j 1 and -j 2");
}

/// VLs a layered sssp routing needs, from report.json; the compile must
/// pass verification (no credit loop on any VL).
fn vls_needed(topo: &str, out: &Path) -> u64 {
    let (code, _) = routec(
        &[
            "compile",
            topo,
            "--engine",
            "sssp",
            "--vls",
            "8",
            "--emit",
            "report,fdbs",
            "-o",
            out.to_str().unwrap(),
        ],
        Path::new(ROOT),
    );
    assert_eq!(code, 0, "{topo}: verification failed with 8 VLs");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    report["verification"]["stats"]["vls_used"]
        .as_u64()
        .unwrap_or_else(|| panic!("no vls_used in {report}"))
}

/// With `--vls 8` the verifier finds no credit loop on the 8×8 and
/// 4×4×4 tori and the 544-host dragonfly, and sssp needs no more VLs
/// than OpenSM 3.3.23's dfsssp on the same fabrics (measured over ibsim:
/// 8, 8 and 4 VLs; README "Balanced shortest paths and LMC"); ibdmchk,
/// given the emitted `-c`/`-d` files, agrees (and finds the loop without
/// them).
#[test]
fn layered_sssp_is_deadlock_free_within_dfsssp_vls() {
    let dir = tmp("vls");
    for (name, args, dfsssp) in [
        ("t88", vec!["torus", "--dims", "8,8"], 8),
        ("t444", vec!["torus", "--dims", "4,4,4"], 8),
        (
            "df544",
            vec!["dragonfly", "--a", "8", "--p", "4", "--h", "2"],
            4,
        ),
    ] {
        let topo = generate(&dir, name, &args);
        let vls = vls_needed(&topo, &dir.join(name));
        eprintln!("{name}: sssp + layering uses {vls} VLs (dfsssp {dfsssp})");
        assert!((2..=dfsssp).contains(&vls), "{name}: {vls} VLs");
        if ibdmchk_installed() {
            let out = dir.join(name);
            assert_eq!(
                crate::common::ibdmchk_loops(&out, None),
                Some(true),
                "{name}: one VL loops"
            );
            assert_eq!(
                crate::common::ibdmchk_loops(&out, Some("ibdmchk.psl")),
                Some(false),
                "{name}: layered"
            );
        }
    }
}

fn ibdmchk_installed() -> bool {
    crate::common::peer(
        "ibdmchk",
        std::process::Command::new("ibdmchk")
            .arg("-h")
            .output()
            .is_ok(),
    )
}

/// `--max-hops` is the verifier's hop limit: the 8×8 torus's 8-hop routes
/// fail with 7 (V003, exit 1) and pass with 8.
#[test]
fn max_hops_is_a_finding() {
    let dir = tmp("hops");
    let topo = generate(&dir, "t88", &["torus", "--dims", "8,8"]);
    let run = |h: &str| {
        routec(
            &[
                "compile",
                &topo,
                "--engine",
                "sssp",
                "--vls",
                "8",
                "--max-hops",
                h,
                "--emit",
                "none",
                "-o",
                dir.join("out").to_str().unwrap(),
            ],
            Path::new(ROOT),
        )
        .0
    };
    assert_eq!(run("7"), 1);
    assert_eq!(run("8"), 0);
}

/// Tables of `compile --lmc 2` name LIDs the topology file does not carry:
/// `check` and `report` given `--lmc 2` assign the same ones and read them
/// (clean, path diversity reported); without it every CA LID is unreachable.
#[test]
fn check_and_report_read_lmc_tables_with_lmc() {
    let dir = tmp("lmc_read");
    let topo = generate(&dir, "t44", &["torus", "--dims", "4,4"]);
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let cwd = Path::new(ROOT);
    let compile = [
        "compile", &topo, "--engine", "sssp", "--lmc", "2", "--vls", "8", "-o", out,
    ];
    assert_eq!(routec(&compile, cwd).0, 0);
    assert_eq!(
        routec(&["check", &topo, "--lfts", out, "--lmc", "2"], cwd).0,
        0
    );
    assert_eq!(routec(&["check", &topo, "--lfts", out], cwd).0, 1);
    let (code, json) = routec(
        &["report", &topo, "--lfts", out, "--lmc", "2", "--json"],
        cwd,
    );
    assert_eq!(code, 0);
    let r: serde_json::Value = serde_json::from_str(&json).unwrap();
    let d = &r["path_diversity"];
    assert_eq!(d["max_lmc"], 2);
    assert_eq!(d["pairs"], 16 * 15);
    assert_eq!(d["unrouted_pairs"], 0);
}
