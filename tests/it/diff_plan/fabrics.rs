//! The fabrics and tables the plan tests start from: ft2 with a cable or a
//! switch gone, small fabrics by hand, tables by hand or by an engine.

use std::path::Path;

use routec::model::faults::{Fault, PortRef};
use routec::model::{
    Fabric, FabricBuilder, Guid, Lfts, LidMap, NodeIdx, NodeKind, NodeSpec, TableSet,
};
use routec::parse::{LoadOptions, load_topology};
use routec::route::{RootSpec, RouteOptions, engine_by_name};

use crate::common;

/// `f` without the cable on port `port` of node `guid`.
pub(crate) fn without_cable(f: &Fabric, guid: u64, port: u8) -> Fabric {
    let cut = Fault::Link {
        end: PortRef {
            guid: Guid(guid),
            port,
        },
        other: None,
    };
    f.apply_faults(&[cut]).unwrap().0
}

pub(crate) fn ft2() -> Fabric {
    load_topology(Path::new(common::FT2), &LoadOptions::default())
        .unwrap()
        .fabric
}

pub(crate) fn route(f: &Fabric, lids: &LidMap, engine: &str, roots: RootSpec) -> Option<TableSet> {
    let opts = RouteOptions {
        roots,
        ..Default::default()
    };
    let r = engine_by_name(engine)?.route(f, lids, &opts).ok()?;
    Some(TableSet::from_routing(f, lids, &r.lfts))
}

/// A small fabric by hand: switches with `ports` ports, cables
/// `(a, pa, b, pb)`, one host on port `host_port` of each switch. LIDs:
/// switches 1..=S, hosts S+1..=2S.
pub(crate) fn hand_fabric(
    nsw: usize,
    ports: u8,
    cables: &[(usize, u8, usize, u8)],
    host_port: u8,
) -> (Fabric, LidMap) {
    let mut b = FabricBuilder::new();
    let sw = switches(&mut b, nsw, ports);
    for &(a, pa, c, pc) in cables {
        b.connect(sw[a], pa, sw[c], pc).unwrap();
    }
    for (i, &s) in sw.iter().enumerate() {
        b.port_mut(s, 0).unwrap().lid = 1 + i as u16;
        let h = b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(0x100 + i as u64),
                1,
                format!("h{i}"),
            ))
            .unwrap();
        b.port_mut(h, 1).unwrap().lid = 1 + (nsw + i) as u16;
        b.connect(h, 1, s, host_port).unwrap();
    }
    let f = b.build();
    let lids = LidMap::new(&f).unwrap();
    (f, lids)
}

/// Switches `S0`.. of `ports` ports, GUIDs 0x10 and up.
pub(crate) fn switches(b: &mut FabricBuilder, nsw: usize, ports: u8) -> Vec<NodeIdx> {
    (0..nsw)
        .map(|i| {
            let spec = NodeSpec::new(
                NodeKind::Switch,
                Guid(0x10 + i as u64),
                ports,
                format!("S{i}"),
            );
            b.add_node(spec).unwrap()
        })
        .collect()
}

/// Tables from `(switch, lid, port)` triples.
pub(crate) fn hand_tables(f: &Fabric, lids: &LidMap, entries: &[(usize, u16, u8)]) -> TableSet {
    let mut t = Lfts::new(f.num_switches(), lids.max_lid());
    for &(s, l, p) in entries {
        t.set(s, l, p);
    }
    TableSet::from_routing(f, lids, &t)
}
