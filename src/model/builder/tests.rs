//! The builder: cables, growth of a node's ports, rebuilds.

use super::*;
use crate::model::SwIdx;

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
