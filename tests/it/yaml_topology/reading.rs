//! What the reader makes of a file: the hand-written two-level fixture's
//! nodes, LIDs, port GUIDs and rates, and the defaults it fills in when
//! a file leaves them out.

use routec::model::{Guid, NodeKind, Speed, Width};
use routec::parse::yaml::parse_topology;

use super::{fixture, node};

#[test]
fn fixture_counts_lids_and_port_guids() {
    let (_, f) = fixture();
    let kinds = |k| f.nodes().iter().filter(|n| n.kind == k).count();
    assert_eq!(
        (
            kinds(NodeKind::Switch),
            kinds(NodeKind::Ca),
            kinds(NodeKind::Router)
        ),
        (4, 4, 1)
    );
    assert_eq!(f.links().count(), 11);
    let spine2 = node(&f, 0x200001);
    assert_eq!(
        f.switch_links(spine2).count(),
        3,
        "spine2 has a parallel pair to leaf2"
    );
    assert_eq!(f.switch_lid(spine2), 2);
    let leaf1 = node(&f, 0x200002);
    assert_eq!(f.node(leaf1).desc, "MF0;leaf1:SX6036/U1");
    assert_eq!(
        f.node(node(&f, 0x200000)).desc,
        "spine1",
        "desc defaults to the name"
    );
    assert_eq!(f.node(node(&f, 0x200003)).enhanced_port0, Some(true));
    assert_eq!(f.port(leaf1, 1).width, Width::X4);
    assert_eq!(
        f.port(node(&f, 0x200000), 1).speed,
        Speed::Edr,
        "the rate applies to both ends"
    );
    assert_eq!(f.port(leaf1, 5).width, Width::Unknown);
    let h1 = node(&f, 0x100000);
    assert_eq!(
        f.port(h1, 1).guid,
        Guid(0x100001),
        "default port GUID = node GUID + port"
    );
    assert_eq!(f.port(h1, 1).lid, 10);
    assert_eq!(f.node(node(&f, 0x100010)).num_ports, 1);
    assert_eq!(f.port(node(&f, 0x100020), 1).guid, Guid(0xabc));
    let h4 = node(&f, 0x100030);
    assert_eq!((f.port(h4, 1).lid, f.port(h4, 1).lmc), (16, 2));
    assert_eq!((f.port(h4, 2).lid, f.port(h4, 2).lmc), (20, 2));
    assert_eq!(f.port_by_guid(Guid(0x100032)), Some((h4, 2)));
    let r = node(&f, 0x300000);
    assert_eq!(f.node(r).desc, "gateway router");
    assert_eq!(
        f.peer(r, 1).map(|p| (p.node, p.port)),
        Some((node(&f, 0x200003), 8))
    );
}

#[test]
fn empty_and_comment_only_files_are_empty_fabrics() {
    assert_eq!(parse_topology("e", "").unwrap().num_nodes(), 0);
    assert_eq!(parse_topology("e", "# nothing\n").unwrap().num_nodes(), 0);
    let f = parse_topology("e", "switches:\n  - {guid: 0x1}\n").unwrap();
    assert_eq!(
        f.node(routec::model::NodeIdx(0)).num_ports,
        1,
        "ports default to the highest used, at least 1"
    );
}

#[test]
fn ports_default_to_the_highest_port_cabled() {
    let f = parse_topology(
        "t",
        "switches:\n  - {guid: 0x1, name: a}\n  - {guid: 0x2, name: b}\nlinks:\n  - [a/7, b/3]\n",
    )
    .unwrap();
    assert_eq!(f.node(node(&f, 1)).num_ports, 7);
    assert_eq!(f.node(node(&f, 2)).num_ports, 3);
}
