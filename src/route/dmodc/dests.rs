//! Destinations: the node numbering `d` of formulas (3)–(4) and, for every
//! target switch (column of the cost matrix), the LIDs routed through it.
//!
//! * Compute nodes (end ports of CAs and routers cabled to a leaf) are
//!   numbered `0..N`: by default in ascending (leaf switch GUID, leaf port)
//!   order — PGFT label order for fabrics numbered as `routec gen pgft` does;
//!   `RouteOptions.node_order` (port GUIDs) puts the listed ports first, in
//!   file order, and the others after them in the default order.
//! * Switch `t` (internal index) is destination `N + t`; end ports that are
//!   not compute nodes (SHARP aggregation nodes) share their switch's `d`.

use std::collections::HashMap;

use crate::model::lids::is_assigned;
use crate::model::rank::is_compute_endpoint;
use crate::model::{Fabric, Guid, Lid};

use super::groups::Ranked;

/// One LID range routed like one destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dest {
    /// Index in the node order (formulas (3)–(4)).
    pub d: u32,
    pub lid: Lid,
    /// LIDs owned (2^LMC); the base port holds for all but `lmc::spread`.
    pub nlids: u16,
    /// Port of the target switch that reaches it (0: the switch itself).
    pub local_port: u8,
}

/// Destinations grouped by target switch (internal index).
#[derive(Clone, Debug)]
pub struct Dests {
    pub start: Vec<u32>,
    pub list: Vec<Dest>,
    /// Number of compute nodes N.
    pub num_nodes: usize,
    /// Node-order GUIDs that name no compute port of the fabric.
    pub unknown_order_guids: Vec<Guid>,
}

impl Dests {
    /// The destinations reached through target switch `t`.
    pub fn of(&self, t: usize) -> &[Dest] {
        &self.list[self.start[t] as usize..self.start[t + 1] as usize]
    }
}

struct EndPort {
    target: u32,
    sw_guid: Guid,
    sw_port: u8,
    port_guid: Guid,
    lid: Lid,
    nlids: u16,
    compute: bool,
}

/// End ports cabled to a ranked switch, with an assigned LID.
fn end_ports(fabric: &Fabric, r: &Ranked) -> Vec<EndPort> {
    let mut out = Vec::new();
    for n in fabric.node_indices().filter(|&n| fabric.is_endpoint(n)) {
        let compute = is_compute_endpoint(fabric, n);
        for port in fabric.ports(n).iter().skip(1) {
            let Some(peer) = port.peer else { continue };
            let Some(sw) = fabric.switch_index(peer.node) else {
                continue;
            };
            let target = r.internal[sw.ix()];
            if target == u32::MAX || !is_assigned(port.lid) {
                continue;
            }
            out.push(EndPort {
                target,
                sw_guid: r.guid[target as usize],
                sw_port: peer.port,
                port_guid: port.guid,
                lid: port.lid,
                nlids: port.lid_count(),
                compute,
            });
        }
    }
    out
}

/// Numbers the destinations and groups them by target switch.
pub fn build(fabric: &Fabric, r: &Ranked, order: Option<&[Guid]>) -> Dests {
    let mut ports = end_ports(fabric, r);
    ports.sort_by_key(|e| (!e.compute, e.sw_guid, e.sw_port));
    let num_nodes = ports.iter().filter(|e| e.compute).count();
    // rank_in_order[i] = d of compute port i (default order = sorted order).
    let mut d_of: Vec<u32> = (0..num_nodes as u32).collect();
    let mut unknown_order_guids = Vec::new();
    if let Some(order) = order {
        let by_guid: HashMap<Guid, usize> =
            (0..num_nodes).map(|i| (ports[i].port_guid, i)).collect();
        let mut placed = vec![false; num_nodes];
        let mut sequence = Vec::with_capacity(num_nodes);
        for g in order {
            match by_guid.get(g) {
                Some(&i) if !placed[i] => {
                    placed[i] = true;
                    sequence.push(i);
                }
                Some(_) => {}
                None => unknown_order_guids.push(*g),
            }
        }
        sequence.extend((0..num_nodes).filter(|&i| !placed[i]));
        for (d, i) in sequence.into_iter().enumerate() {
            d_of[i] = d as u32;
        }
    }
    let n = r.len();
    let mut per_target: Vec<Vec<Dest>> = vec![Vec::new(); n];
    for (i, e) in ports.iter().enumerate() {
        let d = if e.compute {
            d_of[i]
        } else {
            (num_nodes + e.target as usize) as u32
        };
        per_target[e.target as usize].push(Dest {
            d,
            lid: e.lid,
            nlids: e.nlids,
            local_port: e.sw_port,
        });
    }
    for (t, list) in per_target.iter_mut().enumerate() {
        let sw = fabric.switch_node(r.order[t]);
        let port0 = fabric.port(sw, 0);
        if is_assigned(port0.lid) {
            list.push(Dest {
                d: (num_nodes + t) as u32,
                lid: port0.lid,
                nlids: port0.lid_count(),
                local_port: 0,
            });
        }
    }
    let mut start = Vec::with_capacity(n + 1);
    let mut list = Vec::with_capacity(ports.len() + n);
    for l in per_target {
        start.push(list.len() as u32);
        list.extend(l);
    }
    start.push(list.len() as u32);
    Dests {
        start,
        list,
        num_nodes,
        unknown_order_guids,
    }
}
