//! OpenSM's "port order list": the order in which destinations are routed,
//! which decides how the port counters balance (algorithms.md §2.2;
//! `osm_ucast_mgr.c`: `ucast_mgr_build_lfts`, `sort_ports_by_switch_load`,
//! `add_port_to_order_list`).

use std::collections::HashSet;

use super::SwitchGraph;
use crate::model::lids::is_assigned;
use crate::model::{Fabric, Guid, Lid, NodeIdx, PortNum};

/// No switch leads to this destination (a CA cabled to a CA).
pub const NO_SWITCH: u32 = u32::MAX;

/// One destination port, as the LFT assignment needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Base LID.
    pub lid: Lid,
    /// LID mask control: the port owns `2^lmc` LIDs.
    pub lmc: u8,
    /// The switch whose hop row leads to it: the switch itself, or the
    /// switch its cable ends on ([`NO_SWITCH`] if none).
    pub sw: u32,
    /// Port of `sw` to take once there (0 for the switch itself).
    pub port: PortNum,
    /// Switch LIDs do not move the port counters
    /// (`port_profile_switch_nodes` is off by default).
    pub is_switch: bool,
}

/// The routing order and the `node_order` GUIDs that matched no port.
#[derive(Clone, Debug)]
pub struct PortOrder {
    pub targets: Vec<Target>,
    pub unknown: Vec<Guid>,
}

/// Builds the order: the `guid_routing_order_file` ports first (file order,
/// duplicates ignored), then the end ports of every switch (switches stably
/// sorted by decreasing number of end-port cables, ports ascending), then
/// every port not yet listed in `port_guid_tbl` order (ascending byte-swapped
/// port GUID; this is where switch LIDs come).
pub fn port_order(fabric: &Fabric, g: &SwitchGraph, node_order: Option<&[Guid]>) -> PortOrder {
    let mut listed: HashSet<(NodeIdx, PortNum)> = HashSet::new();
    let mut out = PortOrder {
        targets: Vec::new(),
        unknown: Vec::new(),
    };
    let mut push = |out: &mut PortOrder, n: NodeIdx, p: PortNum| {
        if listed.insert((n, p))
            && let Some(t) = target(fabric, n, p)
        {
            out.targets.push(t);
        }
    };
    for &guid in node_order.unwrap_or(&[]) {
        match fabric.port_by_guid(guid) {
            Some((n, p)) => push(&mut out, n, p),
            None => out.unknown.push(guid),
        }
    }
    let mut by_load = g.guid_order.clone();
    by_load.sort_by_key(|&s| std::cmp::Reverse(end_port_links(fabric, fabric.switch_node(s))));
    for s in by_load {
        let node = fabric.switch_node(s);
        for port in &fabric.ports(node)[1..] {
            if let Some(peer) = port.peer
                && !fabric.is_switch(peer.node)
            {
                push(&mut out, peer.node, peer.port);
            }
        }
    }
    let mut rest: Vec<(u64, NodeIdx, PortNum)> = Vec::new();
    for n in fabric.node_indices() {
        if fabric.is_switch(n) {
            rest.push((fabric.port(n, 0).guid.opensm_key(), n, 0));
        } else {
            for (p, port) in fabric.ports(n).iter().enumerate().skip(1) {
                if port.peer.is_some() {
                    rest.push((port.guid.opensm_key(), n, p as PortNum));
                }
            }
        }
    }
    rest.sort_unstable();
    for (_, n, p) in rest {
        push(&mut out, n, p);
    }
    out
}

/// Number of ports of switch node `n` cabled to a CA or router.
fn end_port_links(fabric: &Fabric, n: NodeIdx) -> usize {
    fabric.ports(n)[1..]
        .iter()
        .filter(|p| p.peer.is_some_and(|q| !fabric.is_switch(q.node)))
        .count()
}

/// The destination for port `p` of node `n`, if it has a LID.
fn target(fabric: &Fabric, n: NodeIdx, p: PortNum) -> Option<Target> {
    let port = fabric.get_port(n, p)?;
    if !is_assigned(port.lid) {
        return None;
    }
    let (sw, local, is_switch) = match fabric.switch_index(n) {
        Some(s) => (s.0, 0, true),
        None => match port.peer.and_then(|q| Some((fabric.switch_index(q.node)?, q.port))) {
            Some((s, q)) => (s.0, q, false),
            None => (NO_SWITCH, 0, false),
        },
    };
    Some(Target {
        lid: port.lid,
        lmc: port.lmc,
        sw,
        port: local,
        is_switch,
    })
}
