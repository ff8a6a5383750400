//! Machinery shared by the OpenSM-identical engines (`minhop`, `updn`):
//! OpenSM's table orders, the switch graph, least-hop distances, the
//! port-order list and the counter-balanced LFT assignment
//! (algorithms.md §2.0–2.2; `opensm/osm_ucast_mgr.c`, `osm_switch.c`).

pub mod assign;
mod blocks;
mod fill;
pub mod hops;
mod lmc;
pub mod order;
mod sets;

use crate::model::{Fabric, PortNum, SwIdx};

/// Marks "no path" in hop tables (OpenSM's `OSM_NO_PATH`).
pub const NO_PATH: u8 = 0xFF;

/// The switch-to-switch cabling as a CSR array, in OpenSM's terms: for every
/// switch, its ports that lead to another switch, in ascending port order
/// (parallel cables stay separate port-ends; self-loops carry no route).
#[derive(Clone, Debug)]
pub struct SwitchGraph {
    /// Port-ends of switch `s` are `start[s]..start[s + 1]`.
    pub start: Vec<u32>,
    /// Local port number of each port-end.
    pub port: Vec<PortNum>,
    /// Switch at the far end.
    pub nbr: Vec<u32>,
    /// The port-end of the same cable seen from the far end.
    pub rev: Vec<u32>,
    /// Switches in OpenSM's `sw_guid_tbl` order: ascending byte-swapped
    /// node GUID (the qmap is keyed by the network-order GUID, §2.0).
    pub guid_order: Vec<SwIdx>,
}

impl SwitchGraph {
    /// Builds the graph of `fabric`'s switches.
    pub fn new(fabric: &Fabric) -> Self {
        let n = fabric.num_switches();
        let mut start = Vec::with_capacity(n + 1);
        let (mut port, mut nbr) = (Vec::new(), Vec::new());
        let mut remote_port = Vec::new();
        for &node in fabric.switches() {
            start.push(port.len() as u32);
            for (p, peer) in fabric.switch_links(node) {
                let Some(r) = fabric.switch_index(peer.node) else {
                    continue;
                };
                port.push(p);
                nbr.push(r.0);
                remote_port.push(peer.port);
            }
        }
        start.push(port.len() as u32);
        let rev = (0..port.len())
            .map(|e| {
                let r = nbr[e] as usize;
                (start[r]..start[r + 1])
                    .find(|&f| port[f as usize] == remote_port[e])
                    .unwrap_or(u32::MAX)
            })
            .collect();
        let guid_order = fabric.opensm_switch_order();
        SwitchGraph {
            start,
            port,
            nbr,
            rev,
            guid_order,
        }
    }

    /// Number of switches.
    pub fn num_switches(&self) -> usize {
        self.start.len() - 1
    }

    /// Number of switch-to-switch port-ends (twice the cables).
    pub fn num_port_ends(&self) -> usize {
        self.port.len()
    }

    /// The port-ends of switch `s`.
    pub fn ends(&self, s: usize) -> std::ops::Range<usize> {
        self.start[s] as usize..self.start[s + 1] as usize
    }
}

#[cfg(test)]
pub(crate) mod testfab;
