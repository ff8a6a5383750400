//! Field values as read: tiny's node and port attributes, ibsim's GUID
//! allocation and directives.

use routec::model::{Guid, NodeKind, Speed, Width};

use super::load;

#[test]
fn tiny_fields() {
    let f = load("ibnetdiscover/tiny.ibnetdiscover").fabric;
    let spine = f.node_by_guid(Guid(0x10)).unwrap();
    let node = f.node(spine);
    assert_eq!(node.desc, r#"spine "A" #1"#);
    assert_eq!(
        (node.enhanced_port0, node.vendor_id, node.device_id),
        (Some(true), Some(0x2c9), Some(0xd2f0))
    );
    assert_eq!(node.sysimg_guid, Some(Guid(0x10)));
    assert_eq!(f.port(spine, 0).lid, 1);
    assert_eq!(f.peer(spine, 7).map(|p| (p.node, p.port)), Some((spine, 8)));
    let leaf = f.node_by_guid(Guid(0x20)).unwrap();
    assert_eq!(
        (f.node(leaf).enhanced_port0, f.node(leaf).sysimg_guid),
        (Some(false), None)
    );
    let h1 = f.node_by_guid(Guid(0x100)).unwrap();
    assert_eq!(f.node(h1).num_ports, 2);
    let p2 = f.port(h1, 2);
    assert_eq!(
        (p2.guid, p2.lid, p2.lmc, p2.width, p2.speed),
        (Guid(0x102), 4, 0, Width::X4, Speed::Hdr)
    );
    assert_eq!(f.port_by_guid(Guid(0x101)), Some((h1, 1)));
    let h2 = f.node_by_guid(Guid(0x200)).unwrap();
    assert_eq!(
        (f.port(h2, 1).lid, f.port(h2, 1).speed),
        (65535, Speed::Unknown)
    );
    let rt = f.node_by_guid(Guid(0x300)).unwrap();
    assert_eq!(f.node(rt).kind, NodeKind::Router);
    assert_eq!(
        (f.port(rt, 1).width, f.peer(rt, 1).map(|p| p.port)),
        (Width::Unknown, Some(5))
    );
}

#[test]
fn ibsim_guids_are_allocated_as_ibsim_does() {
    // ibsim-net-example: Switch1, Switch2 from 0x200000; Hca1 (2 ports) from
    // 0x100000 takes 3 GUIDs, so Hca2 is 0x100003; port GUID = node + port.
    // GUIDs follow the file's order; the fabric is then numbered by GUID.
    let f = load("real/ibsim-net-example.ibsim.net").fabric;
    let ids: Vec<(String, u64)> = f
        .nodes()
        .iter()
        .map(|n| (n.source_id.clone().unwrap(), n.guid.0))
        .collect();
    let want = [
        ("Hca1", 0x100000),
        ("Hca2", 0x100003),
        ("Switch1", 0x200000),
        ("Switch2", 0x200001),
    ];
    assert_eq!(ids, want.map(|(s, g)| (s.to_string(), g)));
    assert_eq!(
        f.port_by_guid(Guid(0x100005)),
        Some((f.node_by_guid(Guid(0x100003)).unwrap(), 2))
    );
    // Directives: switchguid=0x500 then +1 each; caguid=0x1000, h1 has 2 ports.
    let f = load("ibnetdiscover/ibsim-directives.ibsim.net").fabric;
    let guid = |id: &str| {
        f.nodes()
            .iter()
            .find(|n| n.source_id.as_deref() == Some(id))
            .unwrap()
            .guid
            .0
    };
    assert_eq!(
        [guid("spine"), guid("leaf-a"), guid("leaf-b")],
        [0x500, 0x501, 0x502]
    );
    assert_eq!(
        [guid("h1"), guid("h2"), guid("h3")],
        [0x1000, 0x1003, 0x1005]
    );
    let leaf_a = f.node_by_guid(Guid(0x501)).unwrap();
    assert_eq!(
        (f.node(leaf_a).desc.as_str(), f.port(leaf_a, 0).lid),
        ("leaf A", 2)
    );
    // `"h1"` without `[n]` is port 1; the link listed once has both ends.
    let h1 = f.node_by_guid(Guid(0x1000)).unwrap();
    assert_eq!(f.peer(h1, 1).map(|p| (p.node, p.port)), Some((leaf_a, 1)));
    assert_eq!(f.node(f.node_by_guid(Guid(0x1003)).unwrap()).desc, "h2");
}
