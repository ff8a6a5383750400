//! The verifier's unit-test fabric: a ring of switches with chords and two
//! hosts per switch, small enough to walk by hand, irregular enough for
//! loops, detours and credit loops (`quality/tests.rs`,
//! `walk_fast_tests.rs`), and where its tests' tables deliver a LID.

use crate::model::lids::{LidOwner, assign_missing_lids};
use crate::model::{Fabric, FabricBuilder, Guid, NodeKind, NodeSpec, PortNum};

/// `n` switches in a ring (port 3 → next, 4 → previous), a chord on port 5
/// from switch `i` to `i + n/2` where `chord(i)`, and hosts on ports 1–2 of
/// every switch where `hosts(i)`. LIDs assigned.
pub fn ring(n: usize, chord: impl Fn(usize) -> bool, hosts: impl Fn(usize) -> bool) -> Fabric {
    let mut b = FabricBuilder::new();
    let sw: Vec<_> = (0..n as u64)
        .map(|i| {
            let spec = NodeSpec::new(NodeKind::Switch, Guid(0x10 + i), 5, format!("s{i}"));
            b.add_node(spec).unwrap()
        })
        .collect();
    for i in 0..n {
        b.connect(sw[i], 3, sw[(i + 1) % n], 4).unwrap();
        if chord(i) {
            b.connect(sw[i], 5, sw[i + n / 2], 5).unwrap();
        }
        for p in (1..=2u8).filter(|_| hosts(i)) {
            let g = 0x100 + 2 * i as u64 + p as u64;
            let h = b
                .add_node(NodeSpec::new(NodeKind::Ca, Guid(g), 1, format!("h{g:x}")))
                .unwrap();
            b.port_mut(h, 1).unwrap().guid = Guid(g + 0x1000);
            b.connect(h, 1, sw[i], p).unwrap();
        }
    }
    let mut f = b.build();
    assign_missing_lids(&mut f).unwrap();
    f
}

/// Where a LID is delivered: its owner's switch and port 0, or the switch
/// its CA port is cabled to and that switch's port (the tests' hand-made
/// tables end every route there).
pub fn home(f: &Fabric, o: LidOwner) -> (usize, PortNum) {
    match f.switch_index(o.node) {
        Some(s) => (s.ix(), 0),
        None => {
            let q = f.peer(o.node, o.port).unwrap();
            (f.switch_index(q.node).unwrap().ix(), q.port)
        }
    }
}
