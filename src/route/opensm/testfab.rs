//! Test fabrics: hand-built ones, and a loader for OpenSM's
//! `opensm-subnet.lst` (formats.md §5.5) so the engines can be compared with
//! the OpenSM fixtures without the ibnetdiscover parser.

use crate::model::{Fabric, FabricBuilder, Guid, NodeKind, NodeSpec};

/// s0 =(2 cables)= s1 - s2, and s3 alone; one host on s0 and one on s2.
pub fn line_with_island() -> Fabric {
    let mut b = FabricBuilder::new();
    let sw: Vec<_> = (1..=4)
        .map(|i| b.add_node(NodeSpec::new(NodeKind::Switch, Guid(i), 4, format!("s{}", i - 1))).unwrap())
        .collect();
    b.connect(sw[0], 1, sw[1], 1).unwrap();
    b.connect(sw[0], 2, sw[1], 2).unwrap();
    b.connect(sw[1], 3, sw[2], 1).unwrap();
    for (i, &s) in sw.iter().enumerate() {
        b.port_mut(s, 0).unwrap().lid = i as u16 + 1;
    }
    for (h, s, lid) in [(0x100u64, 0usize, 5u16), (0x200, 2, 6)] {
        let n = b.add_node(NodeSpec::new(NodeKind::Ca, Guid(h), 1, format!("h{h:x}"))).unwrap();
        let p = b.port_mut(n, 1).unwrap();
        p.guid = Guid(h + 1);
        p.lid = lid;
        b.connect(n, 1, sw[s], 4).unwrap();
    }
    b.build()
}

/// One end of an `opensm-subnet.lst` line.
struct End<'a> {
    kind: NodeKind,
    ports: u8,
    node_guid: Guid,
    port_guid: Guid,
    desc: &'a str,
    lid: u16,
    pn: u8,
}

fn field<'a>(s: &'a str, key: &str) -> &'a str {
    let at = s.find(key).expect("field") + key.len();
    let rest = &s[at..];
    &rest[..rest.find([' ', '}']).unwrap_or(rest.len())]
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s, 16).expect("hex")
}

fn end(s: &str) -> End<'_> {
    let kind = match s.trim_start_matches("{ ").split([' ', '-']).next() {
        Some("SW") => NodeKind::Switch,
        Some("Rt") => NodeKind::Router,
        _ => NodeKind::Ca,
    };
    let d0 = s.find("Rev:").unwrap();
    let d1 = s[d0..].find(" {").unwrap() + d0 + 2;
    let d2 = s.rfind("} LID:").unwrap();
    End {
        kind,
        ports: hex(field(s, "Ports:")) as u8,
        node_guid: Guid(hex(field(s, "NodeGUID:"))),
        port_guid: Guid(hex(field(s, "PortGUID:"))),
        desc: &s[d1..d2],
        lid: hex(field(&s[d2..], "LID:")) as u16,
        pn: hex(field(&s[d2..], "PN:")) as u8,
    }
}

/// Loads an `opensm-subnet.lst`: nodes, cables, GUIDs and OpenSM's LIDs.
pub fn from_subnet_lst(text: &str) -> Fabric {
    let mut b = FabricBuilder::new();
    for line in text.lines().filter(|l| l.starts_with("{ ")) {
        let split = line.find("} { ").expect("two ends") + 2;
        let ends = [end(&line[..split]), end(&line[split..])];
        let mut idx = Vec::new();
        for e in &ends {
            let n = match b.node_by_guid(e.node_guid) {
                Some(n) => n,
                None => b.add_node(NodeSpec::new(e.kind, e.node_guid, e.ports, e.desc)).unwrap(),
            };
            let port = if e.kind == NodeKind::Switch { 0 } else { e.pn };
            let p = b.port_mut(n, port).unwrap();
            p.guid = e.port_guid;
            p.lid = e.lid;
            idx.push(n);
        }
        b.connect(idx[0], ends[0].pn, idx[1], ends[1].pn).unwrap();
    }
    b.build()
}

/// `(switch GUID, LID, port)` of every entry of an `opensm-lfts.dump`.
pub fn dump_entries(text: &str) -> Vec<(u64, u16, u8)> {
    let mut out = Vec::new();
    let mut sw = 0;
    for line in text.lines() {
        if let Some(at) = line.find(" guid 0x") {
            sw = hex(&line[at + 8..at + 24]);
        } else if let Some(rest) = line.strip_prefix("0x") {
            out.push((sw, hex(&rest[..4]) as u16, rest[5..8].parse().unwrap()));
        }
    }
    out
}
