//! The immutable fabric: nodes, a contiguous port array and lookups.
//!
//! Port `p` of node `n` lives at `ports[port_start[n] + p]`, port 0
//! included for every node (a CA's port 0 is an unused slot), so a port is
//! reached with one addition and parallel cables stay separate ports.

use super::ids::{Guid, GuidMap, Lid, NodeIdx, PortNum, SwIdx};
use super::link::{Speed, Width};

/// What a node is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    Switch,
    Ca,
    Router,
}

/// A switch, CA or router.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// Node GUID.
    pub guid: Guid,
    /// System image GUID (`sysimgguid=`), when the input gives one.
    pub sysimg_guid: Option<Guid>,
    pub vendor_id: Option<u32>,
    pub device_id: Option<u32>,
    /// NumPorts (port 0 not counted).
    pub num_ports: u8,
    /// NodeDescription (free text, up to 64 bytes in IB).
    pub desc: String,
    /// The id the input used for this node when it is not derived from the
    /// GUID (ibsim's `"Switch1"`); kept for messages.
    pub source_id: Option<String>,
    /// SwitchInfo EnhancedPort0 (`enhanced`/`base`), switches only.
    pub enhanced_port0: Option<bool>,
    /// Operational data VLs of the switch's ports (YAML `vls:`), when the
    /// input tells; otherwise the command line's `--vls` holds.
    pub op_vls: Option<u8>,
    /// A CA that is not a compute node although its description does not
    /// say "Aggregation Node" (`--service-nodes FILE`): like an aggregation
    /// node, it never makes its switch a leaf (`model::rank`).
    pub service: bool,
}

/// Where a cable leads: the remote node and port.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Peer {
    pub node: NodeIdx,
    pub port: PortNum,
}

/// One port of a node.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Port {
    /// Port GUID (a switch's ports share the port-0 GUID). 0 when unknown.
    pub guid: Guid,
    /// Base LID (switches: port 0 only). 0 = unassigned.
    pub lid: Lid,
    /// LID mask control: the port owns `2^lmc` LIDs from `lid`.
    pub lmc: u8,
    /// The cable on this port, if any.
    pub peer: Option<Peer>,
    pub width: Width,
    pub speed: Speed,
}

/// A routed-or-not InfiniBand subnet. Build one with [`super::FabricBuilder`].
#[derive(Clone, Debug)]
pub struct Fabric {
    pub(super) nodes: Vec<Node>,
    pub(super) port_start: Vec<u32>,
    pub(super) ports: Vec<Port>,
    pub(super) switches: Vec<NodeIdx>,
    pub(super) switch_of: Vec<u32>,
    pub(super) by_guid: GuidMap<NodeIdx>,
    pub(super) by_port_guid: GuidMap<(NodeIdx, PortNum)>,
}

const NOT_A_SWITCH: u32 = u32::MAX;

/// LIDs owned by a port with LID mask control `lmc`: `2^lmc`, LMC capped
/// at IB's 7.
pub fn lids_per_port(lmc: u8) -> u16 {
    1 << lmc.min(7)
}

impl Port {
    /// How many LIDs the port owns from its base LID.
    pub fn lid_count(&self) -> u16 {
        lids_per_port(self.lmc)
    }

    /// Whether `lid` is one of the port's LIDs.
    pub fn owns_lid(&self, lid: Lid) -> bool {
        self.lid != 0
            && self.lid <= lid
            && u32::from(lid) < u32::from(self.lid) + u32::from(self.lid_count())
    }
}

impl Fabric {
    /// All nodes, in input order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Number of nodes.
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Node `n`.
    pub fn node(&self, n: NodeIdx) -> &Node {
        &self.nodes[n.ix()]
    }

    /// Node indices `0..num_nodes`.
    pub fn node_indices(&self) -> impl ExactSizeIterator<Item = NodeIdx> + '_ {
        (0..self.nodes.len() as u32).map(NodeIdx)
    }

    /// Ports 0..=num_ports of node `n`.
    pub fn ports(&self, n: NodeIdx) -> &[Port] {
        let s = self.port_start[n.ix()] as usize;
        let e = self.port_start[n.ix() + 1] as usize;
        &self.ports[s..e]
    }

    /// Port `p` of node `n`; panics if `p > num_ports` (callers hold valid ports).
    pub fn port(&self, n: NodeIdx, p: PortNum) -> &Port {
        &self.ports[self.port_start[n.ix()] as usize + p as usize]
    }

    /// Port `p` of node `n`, or `None` when the node has no such port.
    pub fn get_port(&self, n: NodeIdx, p: PortNum) -> Option<&Port> {
        self.ports(n).get(p as usize)
    }

    pub(crate) fn port_mut(&mut self, n: NodeIdx, p: PortNum) -> &mut Port {
        let i = self.port_start[n.ix()] as usize + p as usize;
        &mut self.ports[i]
    }

    /// The far end of the cable on port `p` of node `n`.
    pub fn peer(&self, n: NodeIdx, p: PortNum) -> Option<Peer> {
        self.get_port(n, p).and_then(|port| port.peer)
    }

    /// Switches in fabric order; `SwIdx(i)` is `switches()[i]`.
    pub fn switches(&self) -> &[NodeIdx] {
        &self.switches
    }

    /// Number of switches.
    pub fn num_switches(&self) -> usize {
        self.switches.len()
    }

    /// The node of switch `s`.
    pub fn switch_node(&self, s: SwIdx) -> NodeIdx {
        self.switches[s.ix()]
    }

    /// Switches in OpenSM's `sw_guid_tbl` order: its maps are keyed by the
    /// network-order GUID, so on x86 they iterate by ascending byte-swapped
    /// GUID (algorithms.md §2.0). Dumps, port assignment and multicast
    /// baselines that must match OpenSM all walk switches in this order.
    pub fn opensm_switch_order(&self) -> Vec<SwIdx> {
        let mut order: Vec<SwIdx> = (0..self.switches.len() as u32).map(SwIdx).collect();
        order.sort_by_key(|&s| self.node(self.switch_node(s)).guid.opensm_key());
        order
    }

    /// The switch index of node `n`, if it is a switch.
    pub fn switch_index(&self, n: NodeIdx) -> Option<SwIdx> {
        let s = self.switch_of[n.ix()];
        (s != NOT_A_SWITCH).then_some(SwIdx(s))
    }

    /// Whether node `n` is a switch.
    pub fn is_switch(&self, n: NodeIdx) -> bool {
        self.switch_of[n.ix()] != NOT_A_SWITCH
    }

    /// The node whose node GUID is `g`.
    pub fn node_by_guid(&self, g: Guid) -> Option<NodeIdx> {
        self.by_guid.get(&g).copied()
    }

    /// The port whose port GUID is `g` (a switch answers with port 0).
    pub fn port_by_guid(&self, g: Guid) -> Option<(NodeIdx, PortNum)> {
        self.by_port_guid.get(&g).copied()
    }

    /// The LID of switch node `n` (its port-0 LID).
    pub fn switch_lid(&self, n: NodeIdx) -> Lid {
        self.port(n, 0).lid
    }

    /// Every cable once: `(a, pa, b, pb)` with `(a, pa) < (b, pb)`.
    /// Self-loop cables (two ports of one switch) are included.
    pub fn links(&self) -> impl Iterator<Item = (NodeIdx, PortNum, NodeIdx, PortNum)> + '_ {
        self.node_indices().flat_map(move |n| {
            self.ports(n)
                .iter()
                .enumerate()
                .filter_map(move |(p, port)| {
                    let peer = port.peer?;
                    ((n, p as PortNum) < (peer.node, peer.port)).then_some((
                        n,
                        p as PortNum,
                        peer.node,
                        peer.port,
                    ))
                })
        })
    }

    /// Switch-to-switch neighbours of switch node `n`: `(local port, peer)`,
    /// in port order. Self-loops are left out: they carry no route.
    pub fn switch_links(&self, n: NodeIdx) -> impl Iterator<Item = (PortNum, Peer)> + '_ {
        self.ports(n)
            .iter()
            .enumerate()
            .filter_map(move |(p, port)| {
                let peer = port.peer?;
                (peer.node != n && self.is_switch(peer.node)).then_some((p as PortNum, peer))
            })
    }

    /// Whether node `n` is a CA or router (an end port owner).
    pub fn is_endpoint(&self, n: NodeIdx) -> bool {
        !self.is_switch(n)
    }

    /// End ports (CA or router, compute or not) cabled to node `n`.
    pub fn end_ports_on(&self, n: NodeIdx) -> usize {
        self.ports(n)
            .iter()
            .filter(|p| p.peer.is_some_and(|q| self.is_endpoint(q.node)))
            .count()
    }

    /// Marks CA `n` as a service node, not a compute node (`Node::service`).
    pub fn mark_service(&mut self, n: NodeIdx) {
        self.nodes[n.0 as usize].service = true;
    }

    /// Sets the LID of a port (LID assignment before routing).
    pub fn set_lid(&mut self, n: NodeIdx, p: PortNum, lid: Lid, lmc: u8) {
        let port = self.port_mut(n, p);
        port.lid = lid;
        port.lmc = lmc;
    }
}
