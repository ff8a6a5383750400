//! The channel dependency graph and its cycles (Dally & Seitz 1987: a
//! deterministic routing is deadlock-free iff this graph is acyclic).
//! A channel is a directed switch-to-switch link on one VL; an edge is a
//! turn some route takes. Channels out of and into end ports cannot lie on
//! a cycle (end nodes do not forward), so they are left out.

use std::collections::{BTreeMap, VecDeque};

use fixedbitset::FixedBitSet;

use super::cdg_csr::{ChannelIds, number_channels, sort_dedup_rows};
use super::topo::{Link, Topo};
use crate::model::PortNum;

/// A channel: the flat switch-port index (its sending end) and a VL.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct Channel {
    pub sw: u32,
    pub port: PortNum,
    pub vl: u8,
}

/// The graph in CSR form over the channels that have an edge.
pub(crate) struct Cdg {
    pub nodes: Vec<Channel>,
    pub start: Vec<u32>,
    pub adj: Vec<u32>,
}

/// The turns used, as one bitset of [`Topo::turn_bit`]s per (VL in, VL out).
/// Few pairs ever occur (one under the identity SL2VL), so a short list
/// searched linearly beats a map in the per-turn hot path of the walk.
pub(crate) struct TurnSets {
    nbits: usize,
    sets: Vec<((u8, u8), FixedBitSet)>,
}

impl TurnSets {
    pub fn new(nbits: usize) -> Self {
        TurnSets {
            nbits,
            sets: Vec::new(),
        }
    }

    fn slot(&mut self, key: (u8, u8)) -> &mut FixedBitSet {
        let i = match self.sets.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.sets
                    .push((key, FixedBitSet::with_capacity(self.nbits)));
                self.sets.len() - 1
            }
        };
        &mut self.sets[i].1
    }

    pub fn insert(&mut self, key: (u8, u8), bit: usize) {
        self.slot(key).insert(bit);
    }

    pub fn merge(&mut self, o: TurnSets) {
        for (k, b) in o.sets {
            self.slot(k).union_with(&b);
        }
    }

    /// The sets as they are, in no particular order.
    pub fn sets(&self) -> &[((u8, u8), FixedBitSet)] {
        &self.sets
    }

    /// The sets in (VL in, VL out) order, for a deterministic graph.
    pub fn sorted(mut self) -> Vec<((u8, u8), FixedBitSet)> {
        self.sets.sort_by_key(|(k, _)| *k);
        self.sets
    }
}

/// A channel's dense key: flat switch-port index and 4-bit VL. Keys sort
/// in (switch, port, VL) order, which fixes the channel numbering.
fn key(topo: &Topo, sw: u32, port: PortNum, vl: u8) -> u32 {
    (topo.base[sw as usize] + u32::from(port)) << 4 | u32::from(vl & 15)
}

impl Cdg {
    /// Builds the graph from the turn bitsets of [`super::walk::Acc`].
    /// Channel keys are dense, so a bitset and an index array replace
    /// maps, and a counting sort by source channel replaces a global sort
    /// of the edges (millions on a 27k-host fat-tree).
    pub fn build(topo: &Topo, turns: &[((u8, u8), FixedBitSet)]) -> Cdg {
        let mut used = FixedBitSet::with_capacity(topo.link.len() << 4);
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for_each_edge(topo, turns, |a, b| {
            used.insert(a as usize);
            used.insert(b as usize);
            edges.push((a, b));
        });
        let nodes = number_channels(topo, &used);
        let id = ChannelIds::new(&used);
        let mut start = vec![0u32; nodes.len() + 1];
        for &(a, _) in &edges {
            start[id.get(a) as usize + 1] += 1;
        }
        for i in 0..nodes.len() {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut adj = vec![0u32; edges.len()];
        for &(a, b) in &edges {
            let f = &mut fill[id.get(a) as usize];
            adj[*f as usize] = id.get(b);
            *f += 1;
        }
        let (start, adj) = sort_dedup_rows(start, adj);
        Cdg { nodes, start, adj }
    }

    pub fn num_edges(&self) -> usize {
        self.adj.len()
    }

    fn succ(&self, v: u32) -> &[u32] {
        &self.adj[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }

    /// Strongly connected components (iterative Tarjan): the component id
    /// of every node and the number of components.
    pub fn scc(&self) -> (Vec<u32>, u32) {
        const NONE: u32 = u32::MAX;
        let n = self.nodes.len();
        let (mut index, mut low, mut comp) = (vec![NONE; n], vec![0u32; n], vec![NONE; n]);
        let mut on_stack = vec![false; n];
        let (mut stack, mut call): (Vec<u32>, Vec<(u32, u32)>) = (Vec::new(), Vec::new());
        let (mut next_index, mut ncomp) = (0u32, 0u32);
        for root in 0..n as u32 {
            if index[root as usize] != NONE {
                continue;
            }
            call.push((root, 0));
            while let Some(&mut (v, ref mut i)) = call.last_mut() {
                let vi = v as usize;
                if *i == 0 && index[vi] == NONE {
                    index[vi] = next_index;
                    low[vi] = next_index;
                    next_index += 1;
                    stack.push(v);
                    on_stack[vi] = true;
                }
                let succ = self.succ(v);
                if (*i as usize) < succ.len() {
                    let w = succ[*i as usize];
                    *i += 1;
                    if index[w as usize] == NONE {
                        call.push((w, 0));
                    } else if on_stack[w as usize] {
                        low[vi] = low[vi].min(index[w as usize]);
                    }
                    continue;
                }
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u as usize] = low[u as usize].min(low[vi]);
                }
                if low[vi] == index[vi] {
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp[w as usize] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
        (comp, ncomp)
    }

    /// One shortest cycle through the lowest channel of each cyclic
    /// component (size > 1, or a self-loop), components in channel order.
    pub fn cycles(&self) -> (usize, Vec<Vec<Channel>>) {
        let (comp, ncomp) = self.scc();
        let mut size = vec![0u32; ncomp as usize];
        for &c in &comp {
            size[c as usize] += 1;
        }
        let mut seen = vec![false; ncomp as usize];
        let mut out = Vec::new();
        for v in 0..self.nodes.len() as u32 {
            let c = comp[v as usize] as usize;
            let cyclic = size[c] > 1 || self.succ(v).contains(&v);
            if seen[c] || !cyclic {
                continue;
            }
            seen[c] = true;
            out.push(
                self.cycle_through(v, &comp)
                    .iter()
                    .map(|&u| self.nodes[u as usize])
                    .collect(),
            );
        }
        (out.len(), out)
    }

    /// BFS inside `v`'s component back to `v`.
    fn cycle_through(&self, v: u32, comp: &[u32]) -> Vec<u32> {
        let c = comp[v as usize];
        let mut parent: BTreeMap<u32, u32> = BTreeMap::new();
        let mut q = VecDeque::from([v]);
        while let Some(u) = q.pop_front() {
            for &w in self.succ(u) {
                if w == v {
                    let mut path = vec![u];
                    let mut x = u;
                    while x != v {
                        x = parent[&x];
                        path.push(x);
                    }
                    path.reverse();
                    return path;
                }
                if comp[w as usize] == c && !parent.contains_key(&w) {
                    parent.insert(w, u);
                    q.push_back(w);
                }
            }
        }
        vec![v]
    }
}

/// The size of the graph [`Cdg::build`] would make of `turns` — channels,
/// edges, and the VLs of its channels as a bit set — without making it,
/// for turn sets already known to be acyclic (`verify_with`). Edges need
/// no dedup: a turn bit is one (in channel, out channel) pair, since a
/// switch port is cabled to one peer port.
pub(crate) fn census(topo: &Topo, turns: &[((u8, u8), FixedBitSet)]) -> (usize, usize, u16) {
    let mut used = FixedBitSet::with_capacity(topo.link.len() << 4);
    let mut edges = 0usize;
    let mut vls = 0u16;
    for_each_edge(topo, turns, |a, b| {
        used.insert(a as usize);
        used.insert(b as usize);
        vls |= 1 << (a & 15) | 1 << (b & 15);
        edges += 1;
    });
    (used.count_ones(..), edges, vls)
}

/// Calls `f(a, b)` with the channel keys of every turn in `turns` whose in
/// port leads to another switch (channels from end ports are left out).
fn for_each_edge(topo: &Topo, turns: &[((u8, u8), FixedBitSet)], mut f: impl FnMut(u32, u32)) {
    for ((vin, vout), bits) in turns {
        let mut s = 0usize;
        for bit in bits.ones() {
            while topo.tbase[s + 1] <= bit {
                s += 1;
            }
            let off = bit - topo.tbase[s];
            let n = topo.num_ports(s);
            let (q, o) = ((off / n) as PortNum, (off % n) as PortNum);
            let Some(Link::Switch(m, pm)) = topo.link(s, q) else {
                continue;
            };
            f(key(topo, m, pm, *vin), key(topo, s as u32, o, *vout));
        }
    }
}
