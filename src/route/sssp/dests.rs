//! What the balanced engine routes, and in which order.
//!
//! Order matters: each tree's load changes the weights later trees see
//! (seed `myrinet-gm2-mapper.txt`, "Routing": costs grow with every route).
//! End ports are routed first: the `--node-order` ports in file order, then
//! every other end port by ascending base LID (a LID is fixed by the
//! topology or by routec's documented assignment, so the order does not
//! depend on the order of lines in the input). Switch LIDs come last and
//! move no weight (management traffic is light; OpenSM's minhop does not
//! count them either), so they can be routed in parallel.

use std::collections::{HashMap, HashSet};

use crate::model::{Fabric, Guid, Lid, LidMap, NodeIdx, PortNum};

/// One destination port: `count` consecutive LIDs from `lid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dest {
    pub lid: Lid,
    pub count: u16,
    /// The switch the port is, or is cabled to (`SwIdx` value).
    pub sw: u32,
    /// Port of `sw` that delivers (0 for the switch itself).
    pub port: PortNum,
}

/// Destinations in routing order.
#[derive(Clone, Debug, Default)]
pub struct Dests {
    /// End ports (CAs, routers): routed one after the other.
    pub ends: Vec<Dest>,
    /// Switches: routed last, independently.
    pub switches: Vec<Dest>,
    /// `--node-order` GUIDs that name no end port.
    pub unknown: Vec<Guid>,
}

/// The destinations of `fabric` under `lids`, in routing order.
pub fn collect(fabric: &Fabric, lids: &LidMap, node_order: Option<&[Guid]>) -> Dests {
    let mut out = Dests::default();
    let mut ends: Vec<(NodeIdx, PortNum, Dest)> = Vec::new();
    for (lid, owner) in lids.iter() {
        if owner.offset != 0 {
            continue;
        }
        let port = fabric.port(owner.node, owner.port);
        let count = port.lid_count();
        if let Some(s) = fabric.switch_index(owner.node) {
            out.switches.push(Dest {
                lid,
                count,
                sw: s.0,
                port: 0,
            });
        } else if let Some(peer) = port.peer
            && let Some(s) = fabric.switch_index(peer.node)
        {
            let d = Dest {
                lid,
                count,
                sw: s.0,
                port: peer.port,
            };
            ends.push((owner.node, owner.port, d));
        }
    }
    let by_port: HashMap<(NodeIdx, PortNum), Dest> =
        ends.iter().map(|&(n, p, d)| ((n, p), d)).collect();
    let mut first: HashSet<(NodeIdx, PortNum)> = HashSet::new();
    for &g in node_order.unwrap_or(&[]) {
        match fabric.port_by_guid(g) {
            Some((n, p)) if !fabric.is_switch(n) => {
                if first.insert((n, p))
                    && let Some(&d) = by_port.get(&(n, p))
                {
                    out.ends.push(d);
                }
            }
            _ => out.unknown.push(g),
        }
    }
    // `lids.iter()` is ascending, so the rest keep base-LID order.
    out.ends.extend(
        ends.iter()
            .filter(|e| !first.contains(&(e.0, e.1)))
            .map(|e| e.2),
    );
    out
}

/// End ports (routed sources) cabled to each switch, by `SwIdx`.
pub fn hosts_per_switch(fabric: &Fabric, dests: &Dests) -> Vec<u32> {
    let mut hosts = vec![0u32; fabric.num_switches()];
    for d in &dests.ends {
        hosts[d.sw as usize] += 1;
    }
    hosts
}
