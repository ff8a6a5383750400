//! Dmodc on real fabrics (`formats/dmodc.md` §7): aggregation-node CAs on
//! spines and cores, and leaves with no common ancestor, route on escape
//! paths with SLs of their own while every up–down path keeps SL 0 and
//! its ports.
//!
//! The oracle for "which pairs need an escape" is written here from the
//! definition (ranks by BFS from the compute leaves; an up–down path from
//! `s` to `t` exists iff some switch is reachable upward from both), not
//! taken from the engine.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Command;

use routec::model::{Fabric, Guid, NodeIdx};

use crate::common::{lfts_for, routec, subnet_lst};

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

/// The switch each end node (by node GUID, as `ibdmchk.psl` names them) is cabled to, and each
/// switch's neighbours.
struct Graph {
    sw_of_port: HashMap<Guid, NodeIdx>,
    sw_of_lid: HashMap<u16, NodeIdx>,
    switch_lids: HashSet<u16>,
    up: HashMap<NodeIdx, Vec<NodeIdx>>,
}

impl Graph {
    fn new(f: &Fabric) -> Graph {
        let compute = |n: NodeIdx| !f.is_switch(n) && !f.node(n).desc.contains("Aggregation Node");
        let (mut sw_of_port, mut sw_of_lid) = (HashMap::new(), HashMap::new());
        let mut rank: HashMap<NodeIdx, u32> = HashMap::new();
        let mut queue = VecDeque::new();
        let switch_lids = f.switches().iter().map(|&s| f.port(s, 0).lid).collect();
        for &s in f.switches() {
            sw_of_lid.insert(f.port(s, 0).lid, s);
            for p in f.ports(s).iter().filter_map(|p| p.peer) {
                if !f.is_switch(p.node) {
                    let port = f.port(p.node, p.port);
                    sw_of_port.insert(f.node(p.node).guid, s);
                    sw_of_lid.insert(port.lid, s);
                    if compute(p.node) && rank.insert(s, 0).is_none() {
                        queue.push_back(s);
                    }
                }
            }
        }
        while let Some(s) = queue.pop_front() {
            for p in f.ports(s).iter().filter_map(|p| p.peer) {
                if f.is_switch(p.node) && !rank.contains_key(&p.node) {
                    rank.insert(p.node, rank[&s] + 1);
                    queue.push_back(p.node);
                }
            }
        }
        let mut up = HashMap::new();
        for &s in f.switches() {
            let above: Vec<NodeIdx> = f
                .ports(s)
                .iter()
                .filter_map(|p| p.peer)
                .filter(|p| f.is_switch(p.node) && rank[&p.node] > rank[&s])
                .map(|p| p.node)
                .collect();
            up.insert(s, above);
        }
        Graph {
            sw_of_port,
            sw_of_lid,
            switch_lids,
            up,
        }
    }

    fn upward(&self, s: NodeIdx) -> HashSet<NodeIdx> {
        let mut seen = HashSet::from([s]);
        let mut stack = vec![s];
        while let Some(x) = stack.pop() {
            for &y in &self.up[&x] {
                if seen.insert(y) {
                    stack.push(y);
                }
            }
        }
        seen
    }

    fn up_down(&self, s: NodeIdx, t: NodeIdx) -> bool {
        !self.upward(s).is_disjoint(&self.upward(t))
    }
}

/// Every (source node, DLID, SL) of `ibdmchk.psl` toward an end port: SL 0
/// exactly for the pairs with an up–down path (paths to switch LIDs carry
/// management traffic, stay on SL 0 and are not layered). Returns (pairs on
/// SL 0, pairs escaped). Without `strict`, an escape may stay on SL 0: a
/// path up, across a cable between switches of one rank, then down agrees
/// with the up*/down* channel order the base layer keeps.
fn sls_follow_up_down(dir: &Path, strict: bool) -> (usize, usize) {
    let (f, _) = subnet_lst(&dir.join("opensm-subnet.lst"));
    let g = Graph::new(&f);
    let psl = std::fs::read_to_string(dir.join("ibdmchk.psl")).unwrap();
    let (mut on0, mut escaped) = (0, 0);
    for line in psl.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let src = g.sw_of_port[&Guid(u64::from_str_radix(&w[0][2..], 16).unwrap())];
        let dlid = w[1].parse::<u16>().unwrap();
        if g.switch_lids.contains(&dlid) {
            continue;
        }
        let dst = g.sw_of_lid[&dlid];
        let sl: u8 = w[2].parse().unwrap();
        if strict || sl != 0 {
            assert_eq!(sl == 0, g.up_down(src, dst), "{line}");
        } else {
            assert!(sl == 0 || !g.up_down(src, dst), "{line}");
        }
        if sl == 0 {
            on0 += 1;
        } else {
            escaped += 1;
        }
    }
    (on0, escaped)
}

/// PGFT(2; 2,2; 1,2) with an aggregation node on each of its four
/// switches (LIDs: switches 1–4, hosts 5–8, aggregation nodes 9–12).
/// Spine L2S0000 has no up–down path to spine L2S0001. Its escape length
/// to it is 2 through either leaf; the candidates are its two down groups
/// (L1S0000, L1S0001 by GUID); the destination index of L2S0001's LIDs is
/// d = N + t = 4 + 3 = 7 and Π of a spine is 2, so ⌊7/2⌋ mod 2 = 1: the
/// second group, port 2 (L1S0001), which goes up its port 4. Symmetrically
/// L2S0001 reaches L2S0000 (d = 6, ⌊6/2⌋ mod 2 = 1) through L1S0001,
/// which goes up its port 3. The whole routing closes no cycle, so one VL
/// carries it and no SL file is written.
#[test]
fn a_spines_aggregation_node_is_reached_through_a_leaf_by_hand() {
    let dir = tmp("tiny");
    let topo = generate(&dir, "--h 2 --m 2,2 --w 1,2 --aggregation-nodes");
    let (code, err) = compile(&topo, &dir.join("out"), "1");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note[D005]") && err.contains("1 VL(s) in all"),
        "{err}"
    );
    assert!(!dir.join("out/ibdmchk.psl").exists());
    let out = dir.join("out");
    let (f, lids) = subnet_lst(&out.join("opensm-subnet.lst"));
    let lfts = lfts_for(&f, &lids, &out.join("opensm-lfts.dump"));
    let row = |desc: &str| {
        let s = f
            .switches()
            .iter()
            .position(|&n| f.node(n).desc == desc)
            .unwrap();
        (1..=12).map(|l| lfts.get(s, l)).collect::<Vec<u8>>()
    };
    //                    LID:  1  2  3  4  5  6  7  8  9 10 11 12
    assert_eq!(row("L2S0000"), [1, 2, 0, 2, 1, 1, 2, 2, 1, 2, 3, 2]);
    assert_eq!(row("L2S0001"), [1, 2, 2, 0, 1, 1, 2, 2, 1, 2, 2, 3]);
    assert_eq!(row("L1S0001")[2], 3);
    assert_eq!(row("L1S0001")[3], 4);

    // Compute hosts keep Dmodc's routes: the same PGFT without
    // aggregation nodes has the same LIDs 1–8 and the same entries there.
    let plain = tmp("tiny_plain");
    let topo = generate(&plain, "--h 2 --m 2,2 --w 1,2");
    assert_eq!(compile(&topo, &plain.join("out"), "1").0, 0);
    let (pf, pl) = subnet_lst(&plain.join("out/opensm-subnet.lst"));
    let plfts = lfts_for(&pf, &pl, &plain.join("out/opensm-lfts.dump"));
    for s in 0..f.num_switches() {
        for lid in 5..=8 {
            assert_eq!(lfts.get(s, lid), plfts.get(s, lid), "switch {s} LID {lid}");
        }
    }
}

/// PGFT(3; 2,2,2; 1,2,2) with aggregation nodes: spines and cores of one
/// pod (or plane) reach each other only through a valley. One VL would
/// hold a credit loop, so `--vls 1` refuses naming the pairs and the
/// `--vls` that routes them; `--vls 2` puts exactly the pairs without an
/// up–down path on SL 1, routec's check and ibdmchk find no credit loop,
/// and the compute hosts' shift load is still 1.
#[test]
fn aggregation_nodes_escape_on_a_second_lane() {
    let dir = tmp("agg");
    let topo = generate(&dir, "--h 3 --m 2,2,2 --w 1,2,2 --aggregation-nodes");
    let (code, err) = compile(&topo, &dir.join("one"), "1");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("have no up-down path") && err.contains("--vls 2 routes them"),
        "{err}"
    );
    assert!(!dir.join("one").exists());

    let out = dir.join("two");
    let (code, err) = compile(&topo, &out, "2");
    assert_eq!(code, 0, "{err}");
    let (on0, escaped) = sls_follow_up_down(&out, true);
    assert_eq!((on0, escaped), (344, 36));
    let (code, text) = routec(
        &["check", &topo, "--lfts", out.to_str().unwrap()],
        Path::new(ROOT),
    );
    assert_eq!(code, 0, "{text}");
    let (_, shift) = routec(
        &[
            "report",
            &topo,
            "--lfts",
            out.to_str().unwrap(),
            "--pattern",
            "shift",
        ],
        Path::new(ROOT),
    );
    assert!(shift.contains("max 1 (mean 1.000)"), "{shift}");
    if let Some(loops) = ibdmchk_loops(&out, None) {
        assert!(loops, "one VL: ibdmchk sees the valley paths' loop");
        assert_eq!(ibdmchk_loops(&out, Some("ibdmchk.psl")), Some(false));
    }
}

/// Past `layers::SHAPES_FROM` escape paths (22,848 here) the escape paths
/// go on VLs by shape (`formats/dmodc.md` §9, "Plans by shape"): 3 VLs on
/// PGFT(3; 8,8,12; 1,8,8) with aggregation nodes; routec's check and
/// ibdmchk, reading the emitted SL files, find no credit loop, and with
/// every path on one VL ibdmchk finds one.
#[test]
fn plans_by_shape_agree_with_ibdmchk() {
    let dir = tmp("shapes");
    let topo = generate(&dir, "--h 3 --m 8,8,12 --w 1,8,8 --aggregation-nodes");
    let out = dir.join("out");
    let (code, err) = compile(&topo, &out, "8");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("22848 end-port pairs take escape routes; 3 VL(s)"),
        "{err}"
    );
    let (code, text) = routec(
        &["check", &topo, "--lfts", out.to_str().unwrap()],
        Path::new(ROOT),
    );
    assert_eq!(code, 0, "{text}");
    if let Some(loops) = ibdmchk_loops(&out, Some("ibdmchk.psl")) {
        assert!(!loops, "ibdmchk finds a credit loop in the plan by shape");
        assert_eq!(ibdmchk_loops(&out, None), Some(true), "one VL");
    }
}

/// Every feature of a production fabric at once: aggregation nodes, a
/// management pod cabled to two tops, an isolated pod whose leaves share
/// no top with it, empty host ports, cross cables, a missing top. Leaf
/// pairs without a common ancestor and the aggregation nodes escape;
/// layering needs 4 VLs here (stated in the README), and a smaller `--vls`
/// is refused with that number.
#[test]
fn leaves_without_a_common_ancestor_escape() {
    let dir = tmp("prod");
    let topo = generate(
        &dir,
        "--h 3 --m 4,4,4 --w 1,4,4 --aggregation-nodes --mgmt-pod 1:2:2 --isolated-pods 1 \
         --empty-host-ports 0.2 --cross-cables 2 --drop-top 1 --seed 1",
    );
    let (code, err) = compile(&topo, &dir.join("two"), "2");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("(32 of them leaf pairs)") && err.contains("--vls 4 routes them"),
        "{err}"
    );
    let out = dir.join("eight");
    let (code, err) = compile(&topo, &out, "8");
    assert_eq!(code, 0, "{err}");
    let (on0, escaped) = sls_follow_up_down(&out, false);
    assert!(on0 > escaped && escaped > 0, "{on0} {escaped}");
    let (code, text) = routec(
        &["check", &topo, "--lfts", out.to_str().unwrap()],
        Path::new(ROOT),
    );
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("4 VL(s)"), "{text}");
    if ibdmchk_loops(&out, Some("ibdmchk.psl")).is_some() {
        assert_eq!(ibdmchk_loops(&out, Some("ibdmchk.psl")), Some(false));
    }
}

/// `--service-nodes FILE` names CAs that are not compute nodes when their
/// description does not say so: the aggregation nodes of the second test,
/// renamed, route exactly as under the built-in description rule only when
/// listed (unlisted, every switch with one becomes a leaf).
#[test]
fn service_nodes_file_stands_in_for_the_description_rule() {
    let dir = tmp("service");
    let topo = generate(&dir, "--h 3 --m 2,2,2 --w 1,2,2 --aggregation-nodes");
    let text = std::fs::read_to_string(&topo).unwrap();
    let renamed = dir.join("renamed.txt");
    std::fs::write(
        &renamed,
        text.replace("Mellanox Technologies Aggregation Node", "SHARP unit"),
    )
    .unwrap();
    let guids: String = text
        .lines()
        .filter_map(|l| l.strip_prefix("caguid="))
        .filter(|g| g.starts_with("0x2c90b"))
        .map(|g| format!("{g}\n"))
        .collect();
    assert_eq!(guids.lines().count(), 12, "one per switch");
    let list = dir.join("service.guids");
    std::fs::write(&list, guids).unwrap();

    let tables = |topo: &Path, extra: &[&str], out: &str| {
        let out = dir.join(out);
        let mut args = vec!["compile", topo.to_str().unwrap(), "--engine", "dmodc"];
        args.extend_from_slice(&[
            "--vls",
            "2",
            "--emit",
            "image,opensm,fdbs",
            "-o",
            out.to_str().unwrap(),
        ]);
        args.extend_from_slice(extra);
        let (code, _) = routec(&args, Path::new(ROOT));
        assert_eq!(code, 0);
        let (f, lids) = subnet_lst(&out.join("opensm-subnet.lst"));
        let l = lfts_for(&f, &lids, &out.join("opensm-lfts.dump"));
        (0..f.num_switches())
            .map(|s| (1..=l.top()).map(|lid| l.get(s, lid)).collect::<Vec<u8>>())
            .collect::<Vec<_>>()
    };
    let builtin = tables(Path::new(&topo), &[], "builtin");
    let listed = tables(
        &renamed,
        &["--service-nodes", list.to_str().unwrap()],
        "listed",
    );
    assert_eq!(builtin, listed);
    let check = |extra: &[&str]| {
        let mut a = vec!["check", renamed.to_str().unwrap(), "--lfts"];
        a.push(dir.join("listed").to_str().unwrap().to_owned().leak());
        a.extend_from_slice(extra);
        routec(&a, Path::new(ROOT)).0
    };
    assert_eq!(check(&["--service-nodes", list.to_str().unwrap()]), 0);
    let (code, _) = routec(
        &[
            "compile",
            renamed.to_str().unwrap(),
            "--engine",
            "dmodc",
            "--emit",
            "none",
        ],
        Path::new(ROOT),
    );
    assert_ne!(
        code, 0,
        "unlisted, the spines become leaves and Dmodc has no tree"
    );
    // a switch in the list is an input error
    std::fs::write(&list, "0x0002c90101000000\n").unwrap();
    let (code, _) = routec(
        &[
            "compile",
            renamed.to_str().unwrap(),
            "--service-nodes",
            list.to_str().unwrap(),
            "-o",
            dir.join("bad").to_str().unwrap(),
        ],
        Path::new(ROOT),
    );
    assert_eq!(code, 2);
}
