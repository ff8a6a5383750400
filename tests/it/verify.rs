//! Verdicts of `verify_tables` on fixtures with known answers (OpenSM's own
//! tables on a ring and a fat tree, hand-broken copies), and a brute-force
//! oracle (per-pair tracing + petgraph) on random fabrics.

use crate::common;
use crate::fabric_eq;

use std::path::Path;

use petgraph::graph::DiGraph;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use routec::model::rank::bfs_ranks;
use routec::model::{
    Fabric, FabricBuilder, Guid, Lfts, LidMap, NO_ROUTE, NodeKind, NodeSpec, SwIdx,
};
use routec::model::{PathSl, Sl2Vl, VlPlan};
use routec::verify::{Code, VerifyOptions, verify_tables};

fn fixture(dir: &str, lfts: &str) -> (Fabric, LidMap, Lfts) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/verify")
        .join(dir);
    let (f, lids) = common::subnet_lst(&d.join("opensm-subnet.lst"));
    let t = common::lfts_for(&f, &lids, &d.join(lfts));
    (f, lids, t)
}

/// ring6's two topology files (OpenSM's subnet list, which the ibdmchk
/// comparison needs, and ibnetdiscover's) describe the same cables and LIDs.
#[test]
fn ring6_subnet_lst_and_ibnetdiscover_agree() {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/verify/ring6");
    let (lst, _) = common::subnet_lst(&d.join("opensm-subnet.lst"));
    let opts = routec::parse::LoadOptions::default();
    let ibnd = routec::parse::load_topology(&d.join("ibnetdiscover.txt"), &opts)
        .unwrap()
        .fabric;
    assert_eq!(lst.num_nodes(), 18);
    fabric_eq::assert_same_wiring(&lst, &ibnd);
}

fn roots_ranks(f: &Fabric, dir: &str, file: &str) -> Vec<u32> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/verify")
        .join(dir);
    let roots: Vec<SwIdx> = std::fs::read_to_string(d.join(file))
        .unwrap()
        .lines()
        .filter_map(|l| Guid::parse(l.trim()))
        .filter_map(|g| f.node_by_guid(g).and_then(|n| f.switch_index(n)))
        .collect();
    bfs_ranks(f, &roots)
}

#[test]
fn ring6_minhop_has_a_credit_loop() {
    let (f, lids, t) = fixture("ring6", "minhop.lfts.dump");
    let v = verify_tables(&f, &lids, &t, &VerifyOptions::default());
    // one loop each way round the ring (ibdmchk stops at the first)
    assert_eq!(v.count(Code::V020), 2, "{}", v.render());
    assert_eq!(v.count(Code::V001) + v.count(Code::V002), 0);
    assert_eq!(v.stats.ca_pairs, 12 * 11);
    for (k, fnd) in v
        .findings
        .iter()
        .filter(|x| x.code == Code::V020)
        .enumerate()
    {
        // 6 channels, one per switch, all leaving by port 1 (clockwise)
        // or all by port 2
        assert_eq!(fnd.hops.len(), 6);
        let mut sw: Vec<u64> = fnd.hops.iter().map(|h| h.switch.0).collect();
        sw.sort();
        sw.dedup();
        assert_eq!(sw.len(), 6);
        assert!(
            fnd.hops
                .iter()
                .all(|h| h.out_port == k as u8 + 1 && h.in_port == Some(2 - k as u8))
        );
    }
    insta::assert_snapshot!("ring6_minhop", v.render());
}

#[test]
fn ring6_updn_is_clean_and_minhop_breaks_up_down() {
    let (f, lids, t) = fixture("ring6", "updn.lfts.dump");
    let ranks = roots_ranks(&f, "ring6", "ring6.roots");
    let opts = VerifyOptions {
        up_down_ranks: Some(ranks.clone()),
        ..Default::default()
    };
    let v = verify_tables(&f, &lids, &t, &opts);
    assert!(v.is_clean(), "{}", v.render());
    assert!(v.counts.is_empty(), "{}", v.render());
    assert_eq!(v.stats.vls_used, 1);
    insta::assert_snapshot!("ring6_updn", v.render());

    let (f, lids, t) = fixture("ring6", "minhop.lfts.dump");
    let v = verify_tables(
        &f,
        &lids,
        &t,
        &VerifyOptions {
            up_down_ranks: Some(ranks),
            ..Default::default()
        },
    );
    assert!(v.count(Code::V010) > 0);
    // root R0 has rank 0, so the bad turn is at the rank-3 switch R3,
    // reached going down from R2 or R4 and leaving up toward the other.
    let first = v.findings.iter().find(|x| x.code == Code::V010).unwrap();
    assert_eq!(first.hops[0].name, "R3", "{first}");
    insta::assert_snapshot!("ring6_minhop_updown", v.render());
}

#[test]
fn routing_loop_is_reported_with_its_cycle() {
    let (f, lids, t) = fixture("ring6", "loop.lfts.dump");
    let v = verify_tables(&f, &lids, &t, &VerifyOptions::default());
    assert_eq!(v.count(Code::V002), 1, "{}", v.render());
    let l = v.findings.iter().find(|x| x.code == Code::V002).unwrap();
    assert_eq!(l.lids, vec![1]);
    let names: Vec<&str> = l.hops.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(names, ["R0", "R1"]);
    assert_eq!((l.hops[0].in_port, l.hops[0].out_port), (Some(1), 1));
    assert!(v.stats.looping_pairs > 0);
    insta::assert_snapshot!("ring6_loop", v.render());
}

#[test]
fn unreachable_destination_names_the_dead_end() {
    let (f, lids, t) = fixture("ring6", "unreachable.lfts.dump");
    let v = verify_tables(&f, &lids, &t, &VerifyOptions::default());
    assert_eq!(v.count(Code::V001), 1, "{}", v.render());
    let u = v.findings.iter().find(|x| x.code == Code::V001).unwrap();
    assert_eq!(u.lids, vec![5]);
    assert_eq!(u.hops[0].name, "R2");
    assert!(v.stats.unreachable_pairs >= 2);
    insta::assert_snapshot!("ring6_unreachable", v.render());
}

#[test]
fn s128_fat_tree_tables_are_clean() {
    for dump in ["minhop.lfts.dump", "updn.lfts.dump"] {
        let (f, lids, t) = fixture("s128", dump);
        let ranks = roots_ranks(&f, "s128", "s128.roots");
        let opts = VerifyOptions {
            up_down_ranks: Some(ranks),
            ..Default::default()
        };
        let v = verify_tables(&f, &lids, &t, &opts);
        // OpenSM's updn leaves spine-to-spine switch LIDs unrouted (no
        // up*/down* path): 8 spines × 7 others, warnings only
        let holes = if dump.starts_with("updn") { 56 } else { 0 };
        assert_eq!(v.count(Code::V004), holes, "{dump}: {}", v.render());
        assert!(
            v.is_clean() && v.counts.len() == usize::from(holes > 0),
            "{dump}: {}",
            v.render()
        );
        assert_eq!(v.stats.ca_pairs, 128 * 127);
        assert_eq!(v.stats.max_hops, 2);
        // 8 leaves of 16 hosts: 16*15 same-leaf pairs each at 0 hops
        assert_eq!(v.stats.hop_histogram[0], 8 * 16 * 15);
    }
    // ibdmchk -a on s128 minhop: no credit loop with switch-sourced paths
    let (f, lids, t) = fixture("s128", "minhop.lfts.dump");
    let v = verify_tables(
        &f,
        &lids,
        &t,
        &VerifyOptions {
            all_paths: true,
            ..Default::default()
        },
    );
    assert!(v.counts.is_empty(), "{}", v.render());
}

#[test]
fn sl_and_sl2vl_move_the_ring_loop_between_lanes() {
    let (f, lids, t) = fixture("ring6", "minhop.lfts.dump");
    // every path on SL 3, identity SL2VL: the same loop, on VL 3
    let mut sl = PathSl::zeros(&t);
    for s in 0..f.num_switches() {
        sl.row_mut(s).fill(3);
    }
    let v = verify_tables(
        &f,
        &lids,
        &t,
        &VerifyOptions {
            vl_plan: Some(VlPlan {
                path_sl: sl,
                sl2vl: Sl2Vl::identity(),
                vls: 4,
            }),
            ..Default::default()
        },
    );
    assert_eq!(v.count(Code::V020), 2);
    assert_eq!(v.stats.vls_used, 1);
    let cyc = &v
        .findings
        .iter()
        .find(|x| x.code == Code::V020)
        .unwrap()
        .hops;
    assert!(cyc.iter().all(|h| h.vl == Some(3)));
    // Dateline: R0 sends packets arriving from R5 (port 2) on to R1 (port
    // 1) on VL 1. No min-hop route continues clockwise past R1 after that
    // turn, so the clockwise loop is cut; the counter-clockwise one stays.
    let mut m = Sl2Vl::identity();
    for s in 0..f.num_switches() {
        let n = f.switch_node(SwIdx(s as u32));
        let r0 = f.node(n).desc == "R0";
        m.set_switch(s, f.node(n).num_ports, |i, o, sl| {
            if r0 && i == 2 && o == 1 { 1 } else { sl }
        });
    }
    let v = verify_tables(
        &f,
        &lids,
        &t,
        &VerifyOptions {
            vl_plan: Some(VlPlan {
                sl2vl: m,
                ..VlPlan::single(&t)
            }),
            ..Default::default()
        },
    );
    assert_eq!(v.stats.vls_used, 2, "{}", v.render());
    assert_eq!(v.count(Code::V020), 1, "{}", v.render());
    let left = &v
        .findings
        .iter()
        .find(|x| x.code == Code::V020)
        .unwrap()
        .hops;
    assert!(left.iter().all(|h| h.out_port == 2 && h.vl == Some(0)));
}

/// A random connected switch graph (ring + chords) with 1–2 hosts each,
/// routed by random-tie BFS trees toward each destination; some entries
/// are then cleared.
pub(crate) fn random_fabric(seed: u64) -> (Fabric, LidMap, Lfts) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let s = rng.random_range(3..9usize);
    let mut b = FabricBuilder::new();
    let sw: Vec<_> = (0..s)
        .map(|i| {
            b.add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(0x100 + i as u64),
                12,
                format!("S{i}"),
            ))
            .unwrap()
        })
        .collect();
    let mut next_port = vec![1u8; s];
    let cable = |b: &mut FabricBuilder, a: usize, c: usize, np: &mut Vec<u8>| {
        if np[a] <= 10 && np[c] <= 10 {
            b.connect(sw[a], np[a], sw[c], np[c]).unwrap();
            np[a] += 1;
            np[c] += 1;
        }
    };
    for i in 0..s {
        cable(&mut b, i, (i + 1) % s, &mut next_port);
    }
    for _ in 0..rng.random_range(0..s) {
        let (a, c) = (rng.random_range(0..s), rng.random_range(0..s));
        if a != c {
            cable(&mut b, a, c, &mut next_port);
        }
    }
    let mut lid = 1u16;
    for (i, &swi) in sw.iter().enumerate() {
        b.port_mut(swi, 0).unwrap().lid = lid;
        lid += 1;
        for h in 0..rng.random_range(1..3u8) {
            let ca = b
                .add_node(NodeSpec::new(
                    NodeKind::Ca,
                    Guid(0x1000 + (i as u64) * 16 + h as u64),
                    1,
                    "h",
                ))
                .unwrap();
            b.port_mut(ca, 1).unwrap().lid = lid;
            lid += 1;
            b.connect(ca, 1, swi, 11 + h).unwrap();
        }
    }
    let f = b.build();
    let lids = LidMap::new(&f).unwrap();
    let mut t = Lfts::new(s, lids.max_lid());
    for (l, o) in lids.iter() {
        let (tsw, tport) = match f.switch_index(o.node) {
            Some(x) => (x.ix(), 0),
            None => {
                let p = f.peer(o.node, o.port).unwrap();
                (f.switch_index(p.node).unwrap().ix(), p.port)
            }
        };
        let dist = bfs_ranks(&f, &[SwIdx(tsw as u32)]);
        for x in 0..s {
            let port = if x == tsw {
                tport
            } else {
                let n = f.switch_node(SwIdx(x as u32));
                let opts: Vec<u8> = f
                    .switch_links(n)
                    .filter(|(_, p)| dist[f.switch_index(p.node).unwrap().ix()] + 1 == dist[x])
                    .map(|(p, _)| p)
                    .collect();
                opts[rng.random_range(0..opts.len())]
            };
            let port = if rng.random_bool(0.03) {
                NO_ROUTE
            } else {
                port
            };
            t.set(x, l, port);
        }
    }
    (f, lids, t)
}

/// ibdmchk's method: trace every CA→CA route, add each turn to a petgraph
/// CDG; count unreachable pairs.
pub(crate) fn brute_force(f: &Fabric, lids: &LidMap, t: &Lfts, plan: &VlPlan) -> (u64, bool) {
    let m = &plan.sl2vl;
    let mut g = DiGraph::<(), ()>::new();
    let mut chan = std::collections::BTreeMap::new();
    let mut node = |g: &mut DiGraph<(), ()>, k: (usize, u8, u8)| {
        *chan.entry(k).or_insert_with(|| g.add_node(()))
    };
    let cas: Vec<_> = lids.iter().filter(|(_, o)| !f.is_switch(o.node)).collect();
    let mut unreachable = 0;
    for &(_, src) in &cas {
        for &(dl, dst) in &cas {
            if src.node == dst.node {
                continue;
            }
            let p = f.peer(src.node, src.port).unwrap();
            let mut cur = f.switch_index(p.node).unwrap().ix();
            let sl = plan.sl(cur, dl);
            let mut prev: Option<(usize, u8, u8)> = None;
            let mut inp = p.port;
            let mut ok = false;
            for _ in 0..64 {
                let out = t.get(cur, dl);
                let Some(peer) = (out != NO_ROUTE)
                    .then(|| f.peer(f.switch_node(SwIdx(cur as u32)), out))
                    .flatten()
                else {
                    break;
                };
                if peer.node == dst.node && peer.port == dst.port {
                    ok = true;
                    break;
                }
                let Some(nx) = f.switch_index(peer.node) else {
                    break;
                };
                let vl = m.vl(cur, inp, out, sl);
                let c = node(&mut g, (cur, out, vl));
                if let Some(pc) = prev {
                    let pn = node(&mut g, pc);
                    g.update_edge(pn, c, ());
                }
                prev = Some((cur, out, vl));
                cur = nx.ix();
                inp = peer.port;
            }
            if !ok {
                unreachable += 1;
            }
        }
    }
    (unreachable, petgraph::algo::is_cyclic_directed(&g))
}

#[test]
fn agrees_with_per_pair_tracing_and_petgraph_on_random_fabrics() {
    let mut cyclic = 0;
    for seed in 0..150 {
        let (f, lids, t) = random_fabric(seed);
        // every other seed: a random two-lane SL2VL on each switch
        let mut m = Sl2Vl::identity();
        if seed % 2 == 1 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed + 1000);
            for s in 0..f.num_switches() {
                let salt: u32 = rng.random();
                m.set_switch(s, 12, |i, o, sl| {
                    sl + ((salt >> ((i as u32 * 7 + o as u32) % 31)) & 1) as u8
                });
            }
        }
        // every third seed: each (source switch, destination) path on a
        // random SL of two, so one destination's tree carries both
        let mut plan = VlPlan {
            sl2vl: m,
            ..VlPlan::single(&t)
        };
        if seed % 3 == 2 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed + 2000);
            for s in 0..f.num_switches() {
                for sl in plan.path_sl.row_mut(s) {
                    *sl = rng.random_range(0..2);
                }
            }
        }
        let opts = VerifyOptions {
            vl_plan: Some(plan.clone()),
            ..Default::default()
        };
        let v = verify_tables(&f, &lids, &t, &opts);
        let (unreachable, has_cycle) = brute_force(&f, &lids, &t, &plan);
        assert_eq!(
            v.stats.unreachable_pairs,
            unreachable,
            "seed {seed}: {}",
            v.render()
        );
        assert_eq!(
            v.count(Code::V020) > 0,
            has_cycle,
            "seed {seed}: {}",
            v.render()
        );
        cyclic += has_cycle as u32;
    }
    // the sample must exercise both answers
    assert!(cyclic > 10 && cyclic < 140, "{cyclic}");
}

#[test]
fn output_does_not_depend_on_thread_count() {
    let (f, lids, t) = fixture("s128", "minhop.lfts.dump");
    let ranks = roots_ranks(&f, "s128", "s128.roots");
    let opts = VerifyOptions {
        up_down_ranks: Some(ranks),
        all_paths: true,
        ..Default::default()
    };
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let a = one.install(|| verify_tables(&f, &lids, &t, &opts));
    let four = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let b = four.install(|| verify_tables(&f, &lids, &t, &opts));
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
}
