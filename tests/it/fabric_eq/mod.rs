//! Compares two fabrics node by node and port by port, by GUID (node
//! indices may differ between formats), with a readable diff on failure.

#![allow(dead_code)]

use routec::model::{Fabric, NodeKind, Speed, Width};

/// One port, its cable named by the far node's GUID.
#[derive(Debug, PartialEq)]
pub struct PortView {
    pub num: u8,
    pub guid: u64,
    pub lid: u16,
    pub lmc: u8,
    pub peer: Option<(u64, u8)>,
    pub width: Width,
    pub speed: Speed,
}

/// One node with its ports.
#[derive(Debug, PartialEq)]
pub struct NodeView {
    pub guid: u64,
    pub kind: NodeKind,
    pub desc: String,
    pub num_ports: u8,
    pub sysimg_guid: Option<u64>,
    pub vendor_id: Option<u32>,
    pub device_id: Option<u32>,
    pub enhanced_port0: Option<bool>,
    pub op_vls: Option<u8>,
    pub ports: Vec<PortView>,
}

/// Nodes sorted by GUID. `lids_only` keeps LMC only where a LID is set
/// (formats with one LMC per node cannot tell the LMC of a port without LID).
pub fn view(f: &Fabric) -> Vec<NodeView> {
    let mut v: Vec<NodeView> = f
        .node_indices()
        .map(|n| {
            let node = f.node(n);
            let ports = f
                .ports(n)
                .iter()
                .enumerate()
                .map(|(i, p)| PortView {
                    num: i as u8,
                    guid: p.guid.0,
                    lid: p.lid,
                    lmc: if p.lid == 0 { 0 } else { p.lmc },
                    peer: p.peer.map(|q| (f.node(q.node).guid.0, q.port)),
                    width: p.width,
                    speed: p.speed,
                })
                .collect();
            NodeView {
                guid: node.guid.0,
                kind: node.kind,
                desc: node.desc.clone(),
                num_ports: node.num_ports,
                sysimg_guid: node.sysimg_guid.map(|g| g.0),
                vendor_id: node.vendor_id,
                device_id: node.device_id,
                enhanced_port0: node.enhanced_port0,
                op_vls: node.op_vls,
                ports,
            }
        })
        .collect();
    v.sort_by_key(|n| n.guid);
    v
}

/// Asserts that `a` and `b` describe the same fabric, node by node.
pub fn assert_same_fabric(a: &Fabric, b: &Fabric) {
    assert_same_views(&view(a), &view(b));
    assert_eq!(a.links().count(), b.links().count(), "link counts differ");
}

fn assert_same_views(va: &[NodeView], vb: &[NodeView]) {
    assert_eq!(va.len(), vb.len(), "node counts differ");
    for (x, y) in va.iter().zip(vb) {
        assert_eq!(x, y, "node {:#x} differs", x.guid);
    }
}

/// Like [`assert_same_fabric`], but ignores what ibnetdiscover cannot
/// carry: the GUID, LID and rate of a CA or router port with no cable (it
/// prints connected ports only).
pub fn assert_same_cabled_fabric(a: &Fabric, b: &Fabric) {
    let strip = |f: &Fabric| {
        let mut v = view(f);
        for n in v.iter_mut().filter(|n| n.kind != NodeKind::Switch) {
            for p in n.ports.iter_mut().filter(|p| p.peer.is_none()) {
                (p.guid, p.lid, p.lmc, p.width, p.speed) =
                    (0, 0, 0, Width::Unknown, Speed::Unknown);
            }
        }
        v
    };
    assert_same_views(&strip(a), &strip(b));
}

/// Like [`assert_same_fabric`], but only what both OpenSM's
/// `opensm-subnet.lst` and ibnetdiscover carry: node kinds, descriptions
/// and port counts, port GUIDs, LIDs and cables (not rates, LMC or the
/// node's vendor data).
pub fn assert_same_wiring(a: &Fabric, b: &Fabric) {
    let strip = |f: &Fabric| {
        let mut v = view(f);
        for n in &mut v {
            (n.sysimg_guid, n.vendor_id, n.device_id, n.enhanced_port0) = (None, None, None, None);
            for p in &mut n.ports {
                (p.lmc, p.width, p.speed) = (0, Width::Unknown, Speed::Unknown);
            }
        }
        v
    };
    assert_same_views(&strip(a), &strip(b));
}
