//! Freezing a builder into a [`Fabric`]: ports made contiguous, switch
//! port GUIDs set, the look-ups by node and port GUID built.

use super::FabricBuilder;
use crate::model::GuidMap;
use crate::model::fabric::{Fabric, NodeKind};
use crate::model::ids::{NodeIdx, PortNum};

impl FabricBuilder {
    /// Freezes the fabric. Switch ports inherit the port-0 GUID (the node
    /// GUID when the input gave none), as on real switches.
    pub fn build(mut self) -> Fabric {
        let total = self.nodes.iter().map(|n| n.num_ports as usize + 1).sum();
        if self.ports.len() != total {
            self.compact(total);
        }
        let mut port_start = self.port_start;
        port_start.push(self.ports.len() as u32);
        let mut ports = self.ports;
        let mut switches = Vec::new();
        let mut switch_of = Vec::with_capacity(self.nodes.len());
        let mut by_port_guid =
            GuidMap::with_capacity_and_hasher(self.nodes.len(), Default::default());
        for (i, node) in self.nodes.iter().enumerate() {
            let n = NodeIdx(i as u32);
            let node_ports = &mut ports[port_start[i] as usize..port_start[i + 1] as usize];
            if node.kind == NodeKind::Switch {
                switch_of.push(switches.len() as u32);
                switches.push(n);
                let g = if node_ports[0].guid.0 == 0 {
                    node.guid
                } else {
                    node_ports[0].guid
                };
                node_ports.iter_mut().for_each(|p| p.guid = g);
                by_port_guid.insert(g, (n, 0));
            } else {
                switch_of.push(u32::MAX);
                for (p, port) in node_ports.iter().enumerate().skip(1) {
                    if port.guid.0 != 0 {
                        by_port_guid.entry(port.guid).or_insert((n, p as PortNum));
                    }
                }
            }
        }
        Fabric {
            nodes: self.nodes,
            port_start,
            ports,
            switches,
            switch_of,
            by_guid: self.by_guid,
            by_port_guid,
        }
    }

    /// Drops the slots [`FabricBuilder::add_ports`] left behind: every
    /// node's ports in node order, contiguous.
    fn compact(&mut self, total: usize) {
        let mut ports = Vec::with_capacity(total);
        for i in 0..self.nodes.len() {
            let range = self.port_range(NodeIdx(i as u32));
            self.port_start[i] = ports.len() as u32;
            ports.extend_from_slice(&self.ports[range]);
        }
        self.ports = ports;
    }
}
