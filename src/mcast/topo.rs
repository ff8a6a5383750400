//! The switch graph the multicast algorithms walk: CSR adjacency between
//! switches and the all-pairs switch hop matrix (`model::hops`). The hop matrix plays the role of OpenSM's min-hop tables
//! (seed:mr4lms Def. 8) restricted to switch destinations; an end port is
//! one hop beyond its switch.

use crate::model::hops::SwitchHops;
use crate::model::{Fabric, PortNum, SwIdx};

/// No path between two switches.
pub const UNREACHABLE: u8 = crate::model::hops::NO_HOPS;

/// One switch-to-switch cable seen from one end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Adj {
    pub port: PortNum,
    pub peer: SwIdx,
    pub peer_port: PortNum,
}

/// Switch adjacency, per-port indexing and hop counts.
#[derive(Clone, Debug)]
pub struct SwitchGraph {
    num_sw: usize,
    adj_start: Vec<u32>,
    adj: Vec<Adj>,
    port_base: Vec<u32>,
    hops: SwitchHops,
}

impl SwitchGraph {
    /// Builds the adjacency (port order) and the hop matrix of `fabric`.
    pub fn new(fabric: &Fabric) -> Self {
        let num_sw = fabric.num_switches();
        let mut adj_start = Vec::with_capacity(num_sw + 1);
        let mut adj = Vec::new();
        let mut port_base = Vec::with_capacity(num_sw + 1);
        let mut base = 0u32;
        for &n in fabric.switches() {
            adj_start.push(adj.len() as u32);
            port_base.push(base);
            base += fabric.node(n).num_ports as u32 + 1;
            for (port, peer) in fabric.switch_links(n) {
                if let Some(sw) = fabric.switch_index(peer.node) {
                    adj.push(Adj {
                        port,
                        peer: sw,
                        peer_port: peer.port,
                    });
                }
            }
        }
        adj_start.push(adj.len() as u32);
        port_base.push(base);
        SwitchGraph {
            num_sw,
            adj_start,
            adj,
            port_base,
            hops: SwitchHops::compute(fabric),
        }
    }

    /// Number of switches.
    pub fn num_switches(&self) -> usize {
        self.num_sw
    }

    /// Switch neighbours of `s`, in port order (parallel cables separately).
    pub fn neighbours(&self, s: SwIdx) -> &[Adj] {
        let a = self.adj_start[s.ix()] as usize;
        let b = self.adj_start[s.ix() + 1] as usize;
        &self.adj[a..b]
    }

    /// Hops between two switches ([`UNREACHABLE`] when disconnected).
    pub fn hops(&self, a: SwIdx, b: SwIdx) -> u8 {
        self.hops.get(a.ix(), b.ix())
    }

    /// Hops from every switch to `b` (the matrix is symmetric).
    pub fn hop_row(&self, b: SwIdx) -> &[u8] {
        self.hops.row(b.ix())
    }

    /// Dense index of port `p` of switch `s`, for per-port arrays.
    pub fn port_slot(&self, s: SwIdx, p: PortNum) -> usize {
        self.port_base[s.ix()] as usize + p as usize
    }

    /// Size of per-port arrays.
    pub fn num_port_slots(&self) -> usize {
        self.port_base.last().copied().unwrap_or(0) as usize
    }
}
