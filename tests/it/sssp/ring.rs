//! The four-switch ring worked by hand (formats/sssp.md): each tree's link
//! loads and the resulting tables, and the LMC offset that parts from the
//! first.

use routec::model::{Fabric, FabricBuilder, Guid, Lfts, LidMap, NO_ROUTE, NodeKind, NodeSpec};
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
