//! Route quality (issue 6 check 4): hand-worked loads on a 2-leaf, 2-spine
//! fat tree, Dmodc on full-bisection PGFTs, agreement with the pair-by-pair
//! tracer of `verify::congestion`, and `routec report` on OpenSM tables.

mod cli;
mod pair_tracer;
mod tiny_tree;

use routec::model::lids::assign_missing_lids;
use routec::model::{Fabric, FabricBuilder, Guid, Lfts, LidMap, NodeKind, NodeSpec};
use routec::verify::congestion::EndPort;
use routec::verify::quality::{QualityOptions, QualityReport, evaluate};

/// Leaves 0x10, 0x11 (ports 1–2: hosts, 3: spine 0x20, 4: spine 0x21);
/// spines' port 1 → leaf 0x10, port 2 → leaf 0x11. Hosts h0..h3 (node GUID
/// 0x100+i, port GUID 0x200+i): h0, h1 on leaf 0x10, h2, h3 on leaf 0x11,
/// so the topological order is h0, h1, h2, h3.
fn tiny() -> Fabric {
    let mut b = FabricBuilder::new();
    let mut add = |k, g: u64, ports| {
        b.add_node(NodeSpec::new(k, Guid(g), ports, format!("n{g:x}")))
            .unwrap()
    };
    let l = [
        add(NodeKind::Switch, 0x10, 4),
        add(NodeKind::Switch, 0x11, 4),
    ];
    let s = [
        add(NodeKind::Switch, 0x20, 2),
        add(NodeKind::Switch, 0x21, 2),
    ];
    let h: Vec<_> = (0..4).map(|i| add(NodeKind::Ca, 0x100 + i, 1)).collect();
    for i in 0..4 {
        b.port_mut(h[i], 1).unwrap().guid = Guid(0x200 + i as u64);
        b.connect(h[i], 1, l[i / 2], 1 + (i % 2) as u8).unwrap();
    }
    for (li, &leaf) in l.iter().enumerate() {
        for (si, &spine) in s.iter().enumerate() {
            b.connect(leaf, 3 + si as u8, spine, 1 + li as u8).unwrap();
        }
    }
    let mut f = b.build();
    assign_missing_lids(&mut f).unwrap();
    f
}

fn sw(f: &Fabric, g: u64) -> usize {
    f.switch_index(f.node_by_guid(Guid(g)).unwrap())
        .unwrap()
        .ix()
}

fn host_lid(f: &Fabric, i: u64) -> u16 {
    f.port(f.node_by_guid(Guid(0x100 + i)).unwrap(), 1).lid
}

/// Tables where host d leaves its source leaf by the port `up(d)` (3 or 4)
/// and goes down the obvious way. D-mod-k with 2 spines: `up(d) = 3 + d % 2`.
fn tables(f: &Fabric, up: impl Fn(u64) -> u8) -> Lfts {
    let lids = LidMap::new(f).unwrap();
    let mut t = Lfts::new(f.num_switches(), lids.max_lid());
    for d in 0..4u64 {
        let lid = host_lid(f, d);
        let (home, port) = (d / 2, 1 + (d % 2) as u8);
        for leaf in 0..2u64 {
            let p = if leaf == home { port } else { up(d) };
            t.set(sw(f, 0x10 + leaf), lid, p);
        }
        for spine in [0x20, 0x21] {
            t.set(sw(f, spine), lid, 1 + home as u8);
        }
    }
    t
}

fn report(f: &Fabric, t: &Lfts, nodes: &[EndPort]) -> QualityReport {
    let lids = LidMap::new(f).unwrap();
    let opts = QualityOptions {
        samples: 20,
        ..Default::default()
    };
    evaluate(f, &lids, t, nodes, "topological", &opts)
}
