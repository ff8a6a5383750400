//! A builder from a built fabric, less some nodes (faults, `--previous`
//! runs that drop nodes) or in another node order (the canonical order of
//! a parsed topology), and unlinking one cable in place.

use super::FabricBuilder;
use crate::model::fabric::{Fabric, Peer, Port};
use crate::model::ids::{NodeIdx, PortNum};

impl Fabric {
    /// A builder holding a copy of this fabric's nodes and cables, except the
    /// nodes for which `keep` is false (their cables go with them).
    pub fn rebuild_retaining(&self, keep: impl Fn(NodeIdx) -> bool) -> FabricBuilder {
        self.rebuild_in(self.node_indices().filter(|&n| keep(n)))
    }

    /// This fabric with its nodes in ascending node GUID order, whatever the
    /// order of the file it was read from: node and switch indices, and with
    /// them every order-sensitive stage (virtual-lane layering, the image's
    /// switch directory, the state, the order findings and cycles are
    /// reported in), then depend on the cabling alone, so a topology
    /// printed in another discovery order compiles to the same bytes. A fabric already in that order (every
    /// generated one) is returned as it is.
    pub fn into_guid_order(self) -> Fabric {
        if self.nodes.windows(2).all(|w| w[0].guid < w[1].guid) {
            return self;
        }
        let mut order: Vec<NodeIdx> = self.node_indices().collect();
        order.sort_by_key(|&n| self.node(n).guid);
        self.rebuild_in(order.into_iter()).build()
    }

    /// A builder holding a copy of the nodes `order` lists, in that order,
    /// and of the cables between them.
    fn rebuild_in(&self, order: impl Iterator<Item = NodeIdx>) -> FabricBuilder {
        let mut b = FabricBuilder::new();
        let mut new_idx = vec![u32::MAX; self.num_nodes()];
        for n in order {
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
