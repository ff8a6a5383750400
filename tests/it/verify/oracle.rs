//! The brute-force oracle (per-pair tracing + a petgraph CDG, as ibdmchk
//! does) on random fabrics with random SLs and SL2VL tables; other test
//! modules use it as `crate::verify::{brute_force, random_fabric}`.

use petgraph::graph::DiGraph;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use routec::model::rank::bfs_ranks;
use routec::model::{
    Fabric, FabricBuilder, Guid, Lfts, LidMap, NO_ROUTE, NodeKind, NodeSpec, SwIdx,
};
use routec::model::{Sl2Vl, VlPlan};
use routec::verify::{Code, VerifyOptions, verify_tables};

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
