//! Writes a fabric as routec YAML (`formats/topology-yaml.md`): one flow
//! mapping per node and one link per line, so that the file reads like a
//! cabling plan and diffs line by line.
//!
//! The writer is hand-rolled rather than serde-derived because the layout
//! (flow mappings inside block sequences, hex GUIDs, names in links) is the
//! point of the format. Everything it writes is read back to the same fabric
//! by [`crate::parse::yaml::parse_topology`].

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use crate::model::{Fabric, Guid, NodeIdx, NodeKind, PortNum, Speed, Width};

/// Writes `fabric` as YAML.
pub fn write(fabric: &Fabric, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(to_string(fabric).as_bytes())
}

/// The YAML text of `fabric`.
pub fn to_string(fabric: &Fabric) -> String {
    let names = node_names(fabric);
    let mut s = String::from("# routec topology (formats/topology-yaml.md)\n");
    for (kind, title) in [
        (NodeKind::Switch, "switches"),
        (NodeKind::Ca, "cas"),
        (NodeKind::Router, "routers"),
    ] {
        let nodes: Vec<NodeIdx> = fabric
            .node_indices()
            .filter(|&n| fabric.node(n).kind == kind)
            .collect();
        if nodes.is_empty() {
            continue;
        }
        let _ = writeln!(s, "{title}:");
        for n in nodes {
            let _ = writeln!(
                s,
                "  - {{{}}}",
                node_fields(fabric, n, names[n.ix()].as_deref())
            );
        }
    }
    let mut links = fabric.links().peekable();
    if links.peek().is_some() {
        s.push_str("links:\n");
    }
    for (a, pa, b, pb) in links {
        let end = |n: NodeIdx, p: PortNum| match &names[n.ix()] {
            Some(name) => scalar(&format!("{name}/{p}")),
            None => format!("{}/{p}", hex(fabric.node(n).guid)),
        };
        let _ = write!(s, "  - [{}, {}", end(a, pa), end(b, pb));
        let (ra, rb) = (rate(fabric, a, pa), rate(fabric, b, pb));
        match (ra, rb) {
            (None, None) => {}
            (ra, rb) if ra == rb => {
                let _ = write!(s, ", {}", rate_scalar(&ra.unwrap_or_default()));
            }
            (ra, rb) => {
                let unknown = format!("{}{}", Width::Unknown, Speed::Unknown);
                let _ = write!(
                    s,
                    ", {}, {}",
                    rate_scalar(&ra.unwrap_or_else(|| unknown.clone())),
                    rate_scalar(&rb.unwrap_or(unknown))
                );
            }
        }
        s.push_str("]\n");
    }
    s
}

/// `guid: 0x…, name: …, ports: N, …` for one node.
fn node_fields(fabric: &Fabric, n: NodeIdx, name: Option<&str>) -> String {
    let node = fabric.node(n);
    let mut f = vec![format!("guid: {}", hex(node.guid))];
    if let Some(name) = name {
        f.push(format!("name: {}", scalar(name)));
    }
    if name != Some(node.desc.as_str()) && !(name.is_none() && node.desc.is_empty()) {
        f.push(format!("desc: {}", scalar(&node.desc)));
    }
    f.push(format!("ports: {}", node.num_ports));
    let ports = fabric.ports(n);
    if node.kind == NodeKind::Switch {
        let p0 = &ports[0];
        if p0.lid != 0 {
            f.push(format!("lid: {}", p0.lid));
        }
        if p0.lmc != 0 {
            f.push(format!("lmc: {}", p0.lmc));
        }
        if p0.guid != node.guid && p0.guid.0 != 0 {
            f.push(format!("port_guids: {{0: {}}}", hex(p0.guid)));
        }
    } else {
        end_port_fields(fabric, n, &mut f);
    }
    if let Some(g) = node.sysimg_guid {
        f.push(format!("sysimgguid: {}", hex(g)));
    }
    if let Some(v) = node.vendor_id {
        f.push(format!("vendid: {v:#x}"));
    }
    if let Some(v) = node.device_id {
        f.push(format!("devid: {v:#x}"));
    }
    if let Some(e) = node.enhanced_port0 {
        f.push(format!("enhanced: {e}"));
    }
    if let Some(v) = node.op_vls {
        f.push(format!("vls: {v}"));
    }
    f.join(", ")
}

/// LIDs, LMC and port GUIDs of a CA or router. A single-port node writes
/// `lid:`; port GUIDs equal to the default (node GUID + port for a cabled
/// port, none for a free one) are left out.
fn end_port_fields(fabric: &Fabric, n: NodeIdx, f: &mut Vec<String>) {
    let node = fabric.node(n);
    let ports = &fabric.ports(n)[1..];
    let with_lid: Vec<(usize, u16)> = ports
        .iter()
        .enumerate()
        .filter(|(_, p)| p.lid != 0)
        .map(|(i, p)| (i + 1, p.lid))
        .collect();
    match with_lid.as_slice() {
        [] => {}
        [(1, lid)] if node.num_ports == 1 => f.push(format!("lid: {lid}")),
        many => {
            let m: Vec<String> = many.iter().map(|(p, l)| format!("{p}: {l}")).collect();
            f.push(format!("lids: {{{}}}", m.join(", ")));
        }
    }
    let lmc = ports.iter().find(|p| p.lid != 0).map_or(0, |p| p.lmc);
    if lmc != 0 {
        f.push(format!("lmc: {lmc}"));
    }
    let guids: Vec<String> = ports
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let port = i + 1;
            let default = if p.peer.is_some() {
                Guid(node.guid.0.wrapping_add(port as u64))
            } else {
                Guid(0)
            };
            (p.guid != default).then(|| format!("{port}: {}", hex(p.guid)))
        })
        .collect();
    if !guids.is_empty() {
        f.push(format!("port_guids: {{{}}}", guids.join(", ")));
    }
}

/// `4xHDR` for a port whose width or speed is known.
fn rate(fabric: &Fabric, n: NodeIdx, p: PortNum) -> Option<String> {
    let port = fabric.port(n, p);
    (port.width != Width::Unknown || port.speed != Speed::Unknown)
        .then(|| format!("{}{}", port.width, port.speed))
}

/// A name for each node, used in links: its description when that is a
/// plain word (letters, digits, `_ . -`, not starting with `0x`) that no
/// other node uses; otherwise none, and links name the node by GUID.
fn node_names(fabric: &Fabric) -> Vec<Option<String>> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for node in fabric.nodes() {
        *count.entry(node.desc.as_str()).or_default() += 1;
    }
    fabric
        .nodes()
        .iter()
        .map(|node| {
            let d = node.desc.as_str();
            (count[d] == 1 && is_plain_name(d)).then(|| d.to_string())
        })
        .collect()
}

fn is_plain_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && !s.starts_with("0x")
        && !s.starts_with("0X")
        && !is_yaml_keyword(s)
}

/// Words that YAML (1.1 or 1.2) reads as something other than a string.
fn is_yaml_keyword(s: &str) -> bool {
    matches!(
        s.to_ascii_lowercase().as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null" | "nan" | "inf"
    )
}

fn hex(g: Guid) -> String {
    format!("{:#x}", g.0)
}

/// `4xHDR` is a plain scalar; `4x???` needs quotes (`?` is an indicator).
fn rate_scalar(s: &str) -> String {
    if s.contains('?') {
        scalar(s)
    } else {
        s.to_string()
    }
}

/// A YAML scalar: plain when it is a word starting with a letter (with `/`
/// allowed after it, for link ends), so YAML cannot read it as a number,
/// boolean or null; double-quoted otherwise.
fn scalar(s: &str) -> String {
    let mut chars = s.chars();
    let plain = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'))
        && !is_yaml_keyword(s);
    if plain {
        return s.to_string();
    }
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            '\t' => q.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(q, "\\u{:04x}", c as u32);
            }
            c => q.push(c),
        }
    }
    q.push('"');
    q
}
