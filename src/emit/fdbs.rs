//! `opensm.fdbs` and `opensm-subnet.lst` as OpenSM's `dump_ucast_routes` and
//! `dump_topology_node` write them (formats.md §5.2, §5.5; opensm/osm_dump.c),
//! the pair `ibdmchk -s opensm-subnet.lst -f opensm.fdbs` verifies.
//! Spec: `formats/fdbs.md`.

use std::io::{self, Write};

use crate::model::hops::{NO_HOPS, SwitchHops};
use crate::model::{Fabric, Lfts, LidMap, NO_ROUTE, NodeIdx, NodeKind, Speed};

const NO_PATH: u16 = u16::MAX;

/// Switches (and, for the subnet file, nodes) in OpenSM's iteration order:
/// its tables are keyed by the network-order GUID (algorithms.md §2.0).
fn opensm_order(fabric: &Fabric, nodes: impl Iterator<Item = NodeIdx>) -> Vec<NodeIdx> {
    let mut v: Vec<NodeIdx> = nodes.collect();
    v.sort_unstable_by_key(|&n| fabric.node(n).guid.opensm_key());
    v
}

/// Writes `opensm.fdbs`: per switch, one row per LID 1..=max LID with the
/// port, the hop count through it and whether it is a shortest path.
pub fn write_fdbs(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    out: &mut dyn Write,
) -> io::Result<()> {
    let dist = SwitchHops::compute(fabric);
    // Per LID: the switch it sits on (or behind) and the hops beyond it.
    let target: Vec<Option<(usize, u16, NodeIdx, u8)>> = (0..=lids.max_lid())
        .map(|l| {
            let o = lids.owner(l)?;
            if let Some(s) = fabric.switch_index(o.node) {
                return Some((s.ix(), 0, o.node, o.port));
            }
            let peer = fabric.peer(o.node, o.port)?;
            Some((fabric.switch_index(peer.node)?.ix(), 1, o.node, o.port))
        })
        .collect();
    let mut line = String::with_capacity(64);
    // A switch with no cable is in no line of `opensm-subnet.lst`, and
    // ibdmchk rejects an FDB file naming a switch it does not know.
    for n in fabric
        .opensm_switch_order()
        .into_iter()
        .map(|s| fabric.switch_node(s))
        .filter(|&n| fabric.ports(n).iter().any(|p| p.peer.is_some()))
    {
        let s = fabric.switch_index(n).map_or(0, |s| s.ix());
        let node = fabric.node(n);
        writeln!(out, "dump_ucast_routes: Switch {}", node.guid)?;
        writeln!(out, "LID    : Port : Hops : Optimal")?;
        let hops_via = |p: u8, t: (usize, u16, NodeIdx, u8)| -> u16 {
            if p == 0 {
                return if t.2 == n { 0 } else { NO_PATH };
            }
            match fabric.peer(n, p) {
                Some(peer) if peer.node == t.2 && peer.port == t.3 => 1,
                Some(peer) => match fabric.switch_index(peer.node) {
                    Some(v) if dist.get(v.ix(), t.0) != NO_HOPS && peer.node != n => {
                        1 + u16::from(dist.get(v.ix(), t.0)) + t.1
                    }
                    _ => NO_PATH,
                },
                None => NO_PATH,
            }
        };
        for lid in 1..=lids.max_lid() {
            line.clear();
            let port = if lid <= lfts.top() {
                lfts.get(s, lid)
            } else {
                NO_ROUTE
            };
            if port == NO_ROUTE || port > node.num_ports {
                writeln!(out, "0x{lid:04X} : UNREACHABLE")?;
                continue;
            }
            let hops = target[lid as usize].map_or(NO_PATH, |t| hops_via(port, t));
            if hops == NO_PATH {
                writeln!(out, "0x{lid:04X} : {port:03}  : HOPS UNKNOWN")?;
                continue;
            }
            let t = target[lid as usize].unwrap_or((0, 0, n, 0));
            let (best, best_port) = (0..=node.num_ports)
                .map(|p| (hops_via(p, t), p))
                .min()
                .unwrap_or((hops, port));
            if best == hops {
                writeln!(out, "0x{lid:04X} : {port:03}  : {hops:02}   : yes")?;
            } else {
                writeln!(
                    out,
                    "0x{lid:04X} : {port:03}  : {hops:02}   : No {best} hop path possible via port {best_port}!"
                )?;
            }
        }
    }
    Ok(())
}

fn speed_str(s: Speed) -> &'static str {
    match s {
        Speed::Sdr => "2.5",
        Speed::Ddr => "5",
        Speed::Qdr => "10",
        Speed::Fdr10 => "FDR10",
        Speed::Fdr => "14",
        Speed::Edr => "25",
        Speed::Hdr => "50",
        _ => "??",
    }
}

/// One `{ ... }` end of a link; `ven_width` is 6 on the left, 8 on the right.
fn end(fabric: &Fabric, n: NodeIdx, p: u8, ven_width: usize) -> String {
    let node = fabric.node(n);
    let (ty, lid_port) = match node.kind {
        NodeKind::Switch => ("SW", 0),
        NodeKind::Ca => ("CA", p),
        NodeKind::Router => ("Rt", p),
    };
    let port = fabric.port(n, lid_port);
    format!(
        "{{ {ty} Ports:{:02X} SystemGUID:{:016x} NodeGUID:{:016x} PortGUID:{:016x} VenID:{:0w$X} DevID:{:04X} Rev:{:08X} {{{}}} LID:{:04X} PN:{:02X} }}",
        node.num_ports,
        node.sysimg_guid.unwrap_or(node.guid).0,
        node.guid.0,
        fabric.port(n, p).guid.0,
        node.vendor_id.unwrap_or(0),
        node.device_id.unwrap_or(0) & 0xFFFF,
        0,
        node.desc,
        port.lid,
        p,
        w = ven_width,
    )
}

/// Writes `opensm-subnet.lst`: every cable twice, once from each end.
pub fn write_subnet_lst(fabric: &Fabric, out: &mut dyn Write) -> io::Result<()> {
    for n in opensm_order(fabric, fabric.node_indices()) {
        for p in 1..=fabric.node(n).num_ports {
            let Some(peer) = fabric.peer(n, p) else {
                continue;
            };
            let port = fabric.port(n, p);
            writeln!(
                out,
                "{} {} PHY={} LOG=ACT SPD={}",
                end(fabric, n, p, 6),
                end(fabric, peer.node, peer.port, 8),
                port.width,
                speed_str(port.speed)
            )?;
        }
    }
    Ok(())
}
