//! Test fabrics for the engines' unit tests: a hand-built one, and the
//! OpenSM fixtures' topologies.

use crate::model::{Fabric, FabricBuilder, Guid, NodeKind, NodeSpec};

/// s0 =(2 cables)= s1 - s2, and s3 alone; one host on s0 and one on s2.
pub fn line_with_island() -> Fabric {
    let mut b = FabricBuilder::new();
    let sw: Vec<_> = (1..=4)
        .map(|i| {
            b.add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(i),
                4,
                format!("s{}", i - 1),
            ))
            .unwrap()
        })
        .collect();
    b.connect(sw[0], 1, sw[1], 1).unwrap();
    b.connect(sw[0], 2, sw[1], 2).unwrap();
    b.connect(sw[1], 3, sw[2], 1).unwrap();
    for (i, &s) in sw.iter().enumerate() {
        b.port_mut(s, 0).unwrap().lid = i as u16 + 1;
    }
    for (h, s, lid) in [(0x100u64, 0usize, 5u16), (0x200, 2, 6)] {
        let n = b
            .add_node(NodeSpec::new(NodeKind::Ca, Guid(h), 1, format!("h{h:x}")))
            .unwrap();
        let p = b.port_mut(n, 1).unwrap();
        p.guid = Guid(h + 1);
        p.lid = lid;
        b.connect(n, 1, sw[s], 4).unwrap();
    }
    b.build()
}

/// The topology of an OpenSM fixture run (`fixtures/opensm/<case>/<run>/`),
/// from its `ibnetdiscover.txt`, which carries OpenSM's LIDs.
pub fn opensm_fixture(case: &str, run: &str) -> Fabric {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/opensm")
        .join(case)
        .join(run)
        .join("ibnetdiscover.txt");
    crate::parse::load_topology(&p, &crate::parse::LoadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .fabric
}

/// `engine`'s tables of the `heur` fixture routed on 1 and on 3 threads
/// (they must be the same bytes).
pub fn tables_on_1_and_3_threads(
    engine: &dyn crate::route::Engine,
) -> (crate::model::Lfts, crate::model::Lfts) {
    let f = opensm_fixture("heur", "minhop");
    let lids = crate::model::LidMap::new(&f).unwrap();
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let opts = crate::route::RouteOptions::default();
        pool.install(|| engine.route(&f, &lids, &opts).unwrap().lfts)
    };
    (run(1), run(3))
}
