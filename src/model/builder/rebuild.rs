//! A builder from a built fabric, less some nodes (faults, `--previous`
//! runs that drop nodes), and unlinking one cable in place.

use super::FabricBuilder;
use crate::model::fabric::{Fabric, Peer, Port};
use crate::model::ids::{NodeIdx, PortNum};

impl Fabric {
    /// A builder holding a copy of this fabric's nodes and cables, except the
    /// nodes for which `keep` is false (their cables go with them).
    pub fn rebuild_retaining(&self, keep: impl Fn(NodeIdx) -> bool) -> FabricBuilder {
        let mut b = FabricBuilder::new();
        let mut new_idx = vec![u32::MAX; self.num_nodes()];
        for n in self.node_indices().filter(|&n| keep(n)) {
            new_idx[n.ix()] = b.nodes.len() as u32;
            b.by_guid
                .insert(self.node(n).guid, NodeIdx(b.nodes.len() as u32));
            b.nodes.push(self.node(n).clone());
            b.port_start.push(b.ports.len() as u32);
            b.ports
                .extend(self.ports(n).iter().map(|p| Port { peer: None, ..*p }));
        }
        for n in self.node_indices() {
            let nn = new_idx[n.ix()];
            if nn == u32::MAX {
                continue;
            }
            for (p, port) in self.ports(n).iter().enumerate() {
                if let Some(peer) = port.peer {
                    let pn = new_idx[peer.node.ix()];
                    if pn != u32::MAX {
                        let at = b.port_start[nn as usize] as usize + p;
                        b.ports[at].peer = Some(Peer {
                            node: NodeIdx(pn),
                            port: peer.port,
                        });
                    }
                }
            }
        }
        b
    }

    /// Removes the cable on port `p` of node `n` (both ends), if any.
    pub(crate) fn unlink(&mut self, n: NodeIdx, p: PortNum) {
        if let Some(peer) = self.port(n, p).peer {
            self.port_mut(peer.node, peer.port).peer = None;
            self.port_mut(n, p).peer = None;
        }
    }
}
