//! Builds a [`Fabric`](super::Fabric) in one pass: add nodes, set ports, connect cables.

mod freeze;
mod rebuild;

use rayon::prelude::*;
use thiserror::Error;

use super::fabric::{Node, NodeKind, Peer, Port};
use super::ids::{Guid, NodeIdx, PortNum};
use crate::model::GuidMap;

/// A node to add.
#[derive(Clone, Debug)]
pub struct NodeSpec {
    pub kind: NodeKind,
    pub guid: Guid,
    pub num_ports: u8,
    pub desc: String,
}

impl NodeSpec {
    /// A node of `kind` with `num_ports` ports.
    pub fn new(kind: NodeKind, guid: Guid, num_ports: u8, desc: impl Into<String>) -> Self {
        NodeSpec {
            kind,
            guid,
            num_ports,
            desc: desc.into(),
        }
    }
}

/// Why a node or cable cannot be added.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum BuildError {
    #[error("duplicate node GUID {guid}")]
    DuplicateGuid { guid: Guid, first: NodeIdx },
    #[error("port {port} is out of range (the node has {num_ports} ports)")]
    PortOutOfRange { port: PortNum, num_ports: u8 },
    #[error("port {port} of {guid} is already cabled to {other_guid} port {other_port}")]
    PortBusy {
        guid: Guid,
        port: PortNum,
        other_guid: Guid,
        other_port: PortNum,
    },
    #[error("a cable cannot join a port to itself")]
    SamePort,
}

/// Whether [`FabricBuilder::connect`] added a cable or found it already there
/// (ibnetdiscover lists every cable from both ends).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Linked {
    New,
    AlreadyThere,
}

/// Accumulates nodes and cables; [`FabricBuilder::build`] freezes them.
///
/// Ports live in one flat vector, as in [`Fabric`](super::Fabric): node `n`'s ports
/// 0..=num_ports from `port_start[n]` (issue 17: a vector per node was
/// 30,528 allocations for the 27,648-host RLFT and a copy of every port at
/// `build`). A node that grows ([`FabricBuilder::add_ports`]) and is not the
/// last one moves its ports to the end, leaving a hole that `build` drops
/// (there is one exactly when the vector is longer than the nodes' ports).
#[derive(Default, Debug)]
pub struct FabricBuilder {
    nodes: Vec<Node>,
    port_start: Vec<u32>,
    ports: Vec<Port>,
    by_guid: GuidMap<NodeIdx>,
}

impl FabricBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty builder with room for `nodes` nodes, for a parser that
    /// knows the count: growing the node vectors and the GUID map node by
    /// node was a third of building the 27,648-host RLFT (issue 17).
    pub fn with_capacity(nodes: usize) -> Self {
        FabricBuilder {
            nodes: Vec::with_capacity(nodes),
            port_start: Vec::with_capacity(nodes),
            ports: Vec::new(),
            by_guid: GuidMap::with_capacity_and_hasher(nodes, Default::default()),
        }
    }

    /// Room for `ports` more ports (port 0 included), for a parser that
    /// knows the count: growing the flat vector node by node copied it
    /// again and again (issue 17).
    pub fn reserve_ports(&mut self, ports: usize) {
        self.ports.reserve(ports);
    }

    /// Number of nodes added so far.
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Adds a node; its ports start unconnected, with no GUID and no LID.
    pub fn add_node(&mut self, spec: NodeSpec) -> Result<NodeIdx, BuildError> {
        if let Some(&first) = self.by_guid.get(&spec.guid) {
            return Err(BuildError::DuplicateGuid {
                guid: spec.guid,
                first,
            });
        }
        let idx = NodeIdx(self.nodes.len() as u32);
        self.by_guid.insert(spec.guid, idx);
        self.push_ports(spec.num_ports as usize + 1);
        self.nodes.push(Node {
            kind: spec.kind,
            guid: spec.guid,
            sysimg_guid: None,
            vendor_id: None,
            device_id: None,
            num_ports: spec.num_ports,
            desc: spec.desc,
            source_id: None,
            enhanced_port0: None,
            op_vls: None,
            service: false,
        });
        Ok(idx)
    }

    /// Adds `nodes` in order, as [`FabricBuilder::add_node`] would one by
    /// one, for a parser that has every node at hand (issue 17: node by
    /// node, on one thread, this was a tenth of parsing the 27,648-host
    /// RLFT): the caller builds the nodes in parallel, and their ports are
    /// laid out in parallel here; only the GUID map is filled in order.
    /// On a duplicate GUID, answers the position in `nodes` of the first
    /// node repeating one, with the nodes before it added.
    pub fn add_nodes(&mut self, nodes: Vec<Node>) -> Result<(), (usize, BuildError)> {
        use std::collections::hash_map::Entry;
        let base = self.nodes.len();
        self.by_guid.reserve(nodes.len());
        let mut dup = None;
        for (i, n) in nodes.iter().enumerate() {
            match self.by_guid.entry(n.guid) {
                Entry::Occupied(o) => {
                    let first = *o.get();
                    dup = Some((
                        i,
                        BuildError::DuplicateGuid {
                            guid: n.guid,
                            first,
                        },
                    ));
                    break;
                }
                Entry::Vacant(v) => {
                    v.insert(NodeIdx((base + i) as u32));
                }
            }
        }
        let mut nodes = nodes;
        if let Some((i, _)) = dup {
            nodes.truncate(i);
        }
        let mut end = self.ports.len();
        self.port_start.reserve(nodes.len());
        for n in &nodes {
            self.port_start.push(end as u32);
            end += n.num_ports as usize + 1;
        }
        let more = end - self.ports.len();
        self.ports
            .par_extend(rayon::iter::repeat_n(Port::default(), more));
        if self.nodes.is_empty() {
            self.nodes = nodes;
        } else {
            self.nodes.extend(nodes);
        }
        dup.map_or(Ok(()), Err)
    }

    /// The node with GUID `g`, if added.
    pub fn node_by_guid(&self, g: Guid) -> Option<NodeIdx> {
        self.by_guid.get(&g).copied()
    }

    /// Mutable access to a node's attributes.
    pub fn node_mut(&mut self, n: NodeIdx) -> &mut Node {
        &mut self.nodes[n.ix()]
    }

    /// Gives node `n` `extra` more ports, unconnected (generators that add
    /// a port to an existing switch: an aggregation node's, say).
    pub fn add_ports(&mut self, n: NodeIdx, extra: u8) -> Result<(), BuildError> {
        let node = &mut self.nodes[n.ix()];
        let total = node.num_ports as u16 + extra as u16;
        if total > 254 {
            return Err(BuildError::PortOutOfRange {
                port: 254,
                num_ports: node.num_ports,
            });
        }
        let old = node.num_ports as usize + 1;
        node.num_ports = total as u8;
        let start = self.port_start[n.ix()] as usize;
        if start + old != self.ports.len() {
            // not the last ports: move them to the end
            self.ports.extend_from_within(start..start + old);
            self.port_start[n.ix()] = (self.ports.len() - old) as u32;
        }
        self.ports.resize(
            self.ports.len() + (total as usize + 1 - old),
            Port::default(),
        );
        Ok(())
    }

    /// Starts the next node's ports: `count` unconnected ports at the end.
    fn push_ports(&mut self, count: usize) {
        self.port_start.push(self.ports.len() as u32);
        self.ports.resize(self.ports.len() + count, Port::default());
    }

    /// The ports of node `n` in the flat vector.
    fn port_range(&self, n: NodeIdx) -> std::ops::Range<usize> {
        let start = self.port_start[n.ix()] as usize;
        start..start + self.nodes[n.ix()].num_ports as usize + 1
    }

    /// A node's attributes.
    pub fn node(&self, n: NodeIdx) -> &Node {
        &self.nodes[n.ix()]
    }

    /// Mutable access to port `p` of node `n` (GUID, LID, width, speed).
    pub fn port_mut(&mut self, n: NodeIdx, p: PortNum) -> Result<&mut Port, BuildError> {
        let num_ports = self.nodes[n.ix()].num_ports;
        let range = self.port_range(n);
        self.ports[range]
            .get_mut(p as usize)
            .ok_or(BuildError::PortOutOfRange { port: p, num_ports })
    }

    /// Port `p` of node `n`.
    pub fn port(&self, n: NodeIdx, p: PortNum) -> Option<&Port> {
        self.ports[self.port_range(n)].get(p as usize)
    }

    /// Cables port `pa` of `a` to port `pb` of `b`. Connecting a cable that
    /// is already there is not an error (it answers [`Linked::AlreadyThere`]);
    /// connecting a port that leads elsewhere is.
    pub fn connect(
        &mut self,
        a: NodeIdx,
        pa: PortNum,
        b: NodeIdx,
        pb: PortNum,
    ) -> Result<Linked, BuildError> {
        if a == b && pa == pb {
            return Err(BuildError::SamePort);
        }
        let peer_a = self.port_mut(a, pa)?.peer;
        let peer_b = self.port_mut(b, pb)?.peer;
        let want_a = Peer { node: b, port: pb };
        let want_b = Peer { node: a, port: pa };
        if peer_a == Some(want_a) && peer_b == Some(want_b) {
            return Ok(Linked::AlreadyThere);
        }
        for (n, p, cur) in [(a, pa, peer_a), (b, pb, peer_b)] {
            if let Some(other) = cur {
                return Err(BuildError::PortBusy {
                    guid: self.nodes[n.ix()].guid,
                    port: p,
                    other_guid: self.nodes[other.node.ix()].guid,
                    other_port: other.port,
                });
            }
        }
        self.port_mut(a, pa)?.peer = Some(want_a);
        self.port_mut(b, pb)?.peer = Some(want_b);
        Ok(Linked::New)
    }
}

#[cfg(test)]
mod tests;
