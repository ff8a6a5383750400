//! Unit tests of the balanced engine on hand-built fabrics.

use super::*;
use crate::model::{FabricBuilder, Guid, NodeKind, NodeSpec, SwIdx};

/// Same bytes whatever the thread count (switch LIDs run in parallel).
#[test]
fn thread_count_does_not_matter() {
    let f = crate::route::opensm::testfab::opensm_fixture("heur", "minhop");
    let lids = LidMap::new(&f).unwrap();
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            Sssp.route(&f, &lids, &RouteOptions::default())
                .unwrap()
                .lfts
        })
    };
    assert_eq!(run(1), run(3));
}

/// A ring of four switches (GUIDs 1..4, ring s0-s1-s2-s3-s0 on ports 1
/// and 2), one host on each (port 3). Worked by hand in
/// `tests/it/sssp.rs`'s twin; here only the first tree: toward h0 (LID 5,
/// first by LID), s2 has two 2-hop routes (via s1 or s3), both unloaded,
/// so the GUID tie-break picks s1 (GUID 2 < 4): s2 → port 1.
#[test]
fn first_tree_breaks_ties_by_guid() {
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
        p.lid = i as u16 + 5;
        b.connect(h, 1, s, 3).unwrap();
    }
    let f = b.build();
    let lids = LidMap::new(&f).unwrap();
    let r = Sssp.route(&f, &lids, &RouteOptions::default()).unwrap();
    let s = |i: u32| {
        f.switch_index(f.switches()[i as usize])
            .unwrap_or(SwIdx(i))
            .ix()
    };
    // toward h0 (LID 5): s0 delivers on 3, s1 → port 1 (to s0), s3 → port 2
    // (to s0), s2 → port 1 (to s1, lower GUID than s3).
    assert_eq!([0, 1, 2, 3].map(|i| r.lfts.get(s(i), 5)), [3, 1, 1, 2]);
}
