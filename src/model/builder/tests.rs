//! The builder: cables, growth of a node's ports, rebuilds.

use super::*;
use crate::model::{Fabric, SwIdx};

fn two_switches() -> (FabricBuilder, NodeIdx, NodeIdx) {
    let mut b = FabricBuilder::new();
    let s1 = b
        .add_node(NodeSpec::new(NodeKind::Switch, Guid(1), 4, "s1"))
        .unwrap();
    let s2 = b
        .add_node(NodeSpec::new(NodeKind::Switch, Guid(2), 4, "s2"))
        .unwrap();
    (b, s1, s2)
}

#[test]
fn connect_twice_is_idempotent_but_conflicts_are_errors() {
    let (mut b, s1, s2) = two_switches();
    assert_eq!(b.connect(s1, 1, s2, 1), Ok(Linked::New));
    assert_eq!(b.connect(s2, 1, s1, 1), Ok(Linked::AlreadyThere));
    assert!(matches!(
        b.connect(s1, 1, s2, 2),
        Err(BuildError::PortBusy { port: 1, .. })
    ));
    assert!(matches!(
        b.connect(s1, 5, s2, 2),
        Err(BuildError::PortOutOfRange { port: 5, .. })
    ));
    assert!(matches!(
        b.add_node(NodeSpec::new(NodeKind::Ca, Guid(2), 1, "dup")),
        Err(BuildError::DuplicateGuid { .. })
    ));
}

/// [`two_switches`] and a CA `h` (GUID 10, port GUID 11), uncabled.
fn two_switches_and_a_host() -> (FabricBuilder, NodeIdx, NodeIdx, NodeIdx) {
    let (mut b, s1, s2) = two_switches();
    let h = b
        .add_node(NodeSpec::new(NodeKind::Ca, Guid(10), 1, "h"))
        .unwrap();
    b.port_mut(h, 1).unwrap().guid = Guid(11);
    (b, s1, s2, h)
}

#[test]
fn build_indexes_switches_links_and_port_guids() {
    let (mut b, s1, s2, h) = two_switches_and_a_host();
    b.connect(s1, 1, s2, 1).unwrap();
    b.connect(s1, 2, s2, 2).unwrap(); // parallel cable
    b.connect(s2, 3, s2, 4).unwrap(); // self-loop
    b.connect(h, 1, s1, 3).unwrap();
    let f = b.build();
    assert_eq!(f.num_switches(), 2);
    assert_eq!(f.switch_index(s2), Some(SwIdx(1)));
    assert_eq!(f.switch_index(h), None);
    assert_eq!(f.links().count(), 4);
    assert_eq!(f.switch_links(s2).count(), 2);
    assert_eq!(f.port_by_guid(Guid(11)), Some((h, 1)));
    assert_eq!(f.port_by_guid(Guid(2)), Some((s2, 0)));
    assert_eq!(f.port(s2, 3).guid, Guid(2));
}

/// A node that grows after others were added keeps its cables and
/// attributes, and the others theirs (its ports move to the end of the
/// flat vector, then `build` closes the hole).
#[test]
fn ports_added_to_an_early_node_keep_every_cable() {
    let (mut b, s1, s2, h) = two_switches_and_a_host();
    b.connect(s1, 1, s2, 1).unwrap();
    b.connect(h, 1, s2, 4).unwrap();
    b.add_ports(s1, 2).unwrap();
    b.port_mut(s1, 3).unwrap().lid = 7;
    b.connect(s1, 6, s2, 2).unwrap();
    b.add_ports(s2, 1).unwrap();
    b.connect(s2, 5, s1, 5).unwrap();
    assert_eq!(b.port(s1, 7), None);
    let f = b.build();
    assert_eq!(f.ports(s1).len(), 7);
    assert_eq!(f.ports(s2).len(), 6);
    assert_eq!(f.ports(h).len(), 2);
    assert_eq!(f.port(s1, 3).lid, 7);
    assert_eq!(f.port_by_guid(Guid(11)), Some((h, 1)));
    let links: Vec<_> = f.links().collect();
    assert_eq!(
        links,
        vec![
            (s1, 1, s2, 1),
            (s1, 5, s2, 5),
            (s1, 6, s2, 2),
            (s2, 4, h, 1)
        ]
    );
}

#[test]
fn rebuild_drops_node_and_its_cables() {
    let (mut b, s1, s2) = two_switches();
    b.connect(s1, 1, s2, 1).unwrap();
    let f = b.build();
    let g = f.rebuild_retaining(|n| n != s1).build();
    assert_eq!(g.num_nodes(), 1);
    assert_eq!(g.links().count(), 0);
    assert_eq!(g.node_by_guid(Guid(2)), Some(NodeIdx(0)));
}

/// A node as `add_node` makes it from a spec.
fn plain_node(kind: NodeKind, guid: u64, num_ports: u8, desc: &str) -> Node {
    Node {
        kind,
        guid: Guid(guid),
        sysimg_guid: None,
        vendor_id: None,
        device_id: None,
        num_ports,
        desc: desc.to_string(),
        source_id: None,
        enhanced_port0: None,
        op_vls: None,
        service: false,
    }
}

/// `add_nodes` gives the fabric `add_node` one by one gives: the same
/// nodes, ports (unconnected, port 0 included) and GUID lookups, also
/// after nodes added one by one; a repeated GUID is answered at its
/// position with the nodes before it kept.
#[test]
fn add_nodes_agrees_with_add_node_one_by_one() {
    let specs = [
        (NodeKind::Switch, 7, 3, "s"),
        (NodeKind::Ca, 9, 2, "h1"),
        (NodeKind::Router, 4, 1, "r"),
        (NodeKind::Ca, 12, 1, "h2"),
    ];
    let mut one = FabricBuilder::new();
    let mut bulk = FabricBuilder::new();
    one.add_node(NodeSpec::new(NodeKind::Switch, Guid(1), 2, "first"))
        .unwrap();
    bulk.add_node(NodeSpec::new(NodeKind::Switch, Guid(1), 2, "first"))
        .unwrap();
    for &(k, g, p, d) in &specs {
        one.add_node(NodeSpec::new(k, Guid(g), p, d)).unwrap();
    }
    let nodes = specs.iter().map(|&(k, g, p, d)| plain_node(k, g, p, d));
    assert_eq!(bulk.add_nodes(nodes.collect()), Ok(()));
    assert_eq!(bulk.num_nodes(), 5);
    // 1 + 2 + (3 + 1) + (2 + 1) + (1 + 1) + (1 + 1) ports, port 0 included
    assert_eq!(bulk.ports.len(), 3 + 4 + 3 + 2 + 2);
    for i in 0..5u32 {
        assert_eq!(bulk.node(NodeIdx(i)), one.node(NodeIdx(i)));
        assert_eq!(bulk.port_range(NodeIdx(i)), one.port_range(NodeIdx(i)));
    }
    assert_eq!(bulk.node_by_guid(Guid(4)), Some(NodeIdx(3)));
    assert_eq!(bulk.port(NodeIdx(1), 3), Some(&Port::default()));
    assert_eq!(bulk.port(NodeIdx(1), 4), None);
    // GUID 9 again, third in the list: two nodes added, then the error
    let again = [(NodeKind::Ca, 20, 1, "a"), (NodeKind::Ca, 21, 1, "b")]
        .iter()
        .chain(&[(NodeKind::Ca, 9, 1, "dup"), (NodeKind::Ca, 22, 1, "c")])
        .map(|&(k, g, p, d)| plain_node(k, g, p, d))
        .collect();
    assert_eq!(
        bulk.add_nodes(again),
        Err((
            2,
            BuildError::DuplicateGuid {
                guid: Guid(9),
                first: NodeIdx(2)
            }
        ))
    );
    assert_eq!(bulk.num_nodes(), 7);
    assert_eq!(bulk.node_by_guid(Guid(21)), Some(NodeIdx(6)));
    assert_eq!(bulk.node_by_guid(Guid(22)), None);
    assert_eq!(bulk.build().ports(NodeIdx(6)).len(), 2);
}

/// A fabric read in another order comes out numbered by node GUID with
/// every node, port and cable as it was: a CA (GUID 9) and two switches
/// (GUIDs 7 and 3) cabled in a chain, added in descending GUID order.
#[test]
fn into_guid_order_renumbers_and_keeps_everything() {
    let mut b = FabricBuilder::new();
    let h = b
        .add_node(NodeSpec::new(NodeKind::Ca, Guid(9), 2, "h"))
        .unwrap();
    let s7 = b
        .add_node(NodeSpec::new(NodeKind::Switch, Guid(7), 4, "s7"))
        .unwrap();
    let s3 = b
        .add_node(NodeSpec::new(NodeKind::Switch, Guid(3), 4, "s3"))
        .unwrap();
    b.port_mut(h, 2).unwrap().guid = Guid(11);
    b.port_mut(h, 2).unwrap().lid = 5;
    b.port_mut(s7, 0).unwrap().lid = 2;
    b.connect(h, 2, s7, 3).unwrap();
    b.connect(s7, 1, s3, 4).unwrap();
    let f = b.build();
    let describe = |f: &Fabric| {
        let mut links: Vec<_> = f
            .links()
            .map(|(a, pa, b, pb)| (f.node(a).guid, pa, f.node(b).guid, pb))
            .map(|(ga, pa, gb, pb)| {
                if ga < gb {
                    (ga, pa, gb, pb)
                } else {
                    (gb, pb, ga, pa)
                }
            })
            .collect();
        links.sort();
        let mut ports: Vec<_> = f
            .node_indices()
            .flat_map(|n| f.ports(n).iter().enumerate().map(move |(i, p)| (n, i, p)))
            .map(|(n, i, p)| (f.node(n).guid, i, p.guid, p.lid, p.lmc))
            .collect();
        ports.sort();
        (links, ports)
    };
    let g = f.clone().into_guid_order();
    let guids: Vec<u64> = g.nodes().iter().map(|n| n.guid.0).collect();
    assert_eq!(guids, [3, 7, 9]);
    assert_eq!(describe(&g), describe(&f));
    assert_eq!(g.node_by_guid(Guid(9)), Some(NodeIdx(2)));
    assert_eq!(g.port_by_guid(Guid(11)), Some((NodeIdx(2), 2)));
    assert_eq!(g.switch_index(NodeIdx(0)), Some(SwIdx(0)));
    assert_eq!(g.node(g.switch_node(SwIdx(1))).desc, "s7");
    assert_eq!(g.switch_lid(g.switch_node(SwIdx(1))), 2);
    // Already in order: the same fabric back.
    let again = g.clone().into_guid_order();
    assert_eq!(describe(&again), describe(&g));
    assert_eq!(
        again.nodes().iter().map(|n| n.guid.0).collect::<Vec<_>>(),
        guids
    );
}
