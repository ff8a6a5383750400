//! The switch graph the multicast algorithms walk: CSR adjacency between
//! switches and the all-pairs switch hop matrix (one BFS per switch, in
//! parallel). The hop matrix plays the role of OpenSM's min-hop tables
//! (seed:mr4lms Def. 8) restricted to switch destinations; an end port is
//! one hop beyond its switch.

use std::collections::VecDeque;

use rayon::prelude::*;

use crate::model::{Fabric, PortNum, SwIdx};

/// No path between two switches.
pub const UNREACHABLE: u8 = u8::MAX;

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
    hops: Vec<u8>,
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
        let mut g = SwitchGraph {
            num_sw,
            adj_start,
            adj,
            port_base,
            hops: Vec::new(),
        };
        g.hops = g.all_pairs_hops();
        g
    }

    fn all_pairs_hops(&self) -> Vec<u8> {
        let s = self.num_sw;
        let mut hops = vec![UNREACHABLE; s * s];
        if s == 0 {
            return hops;
        }
        hops.par_chunks_mut(s).enumerate().for_each(|(src, row)| {
            let mut queue = VecDeque::with_capacity(s);
            row[src] = 0;
            queue.push_back(src as u32);
            while let Some(u) = queue.pop_front() {
                let d = row[u as usize];
                for a in self.neighbours(SwIdx(u)) {
                    let v = a.peer.ix();
                    if row[v] == UNREACHABLE {
                        row[v] = d.saturating_add(1).min(UNREACHABLE - 1);
                        queue.push_back(v as u32);
                    }
                }
            }
        });
        hops
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
        self.hops[a.ix() * self.num_sw + b.ix()]
    }

    /// Hops from every switch to `b` (the matrix is symmetric).
    pub fn hop_row(&self, b: SwIdx) -> &[u8] {
        &self.hops[b.ix() * self.num_sw..(b.ix() + 1) * self.num_sw]
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
