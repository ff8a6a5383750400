//! The channel dependency graph and its cycles (Dally & Seitz 1987: a
//! deterministic routing is deadlock-free iff this graph is acyclic).
//! A channel is a directed switch-to-switch link on one VL; an edge is a
//! turn some route takes. Channels out of and into end ports cannot lie on
//! a cycle (end nodes do not forward), so they are left out.

use std::collections::{BTreeMap, VecDeque};

use fixedbitset::FixedBitSet;

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

fn key(topo: &Topo, sw: u32, port: PortNum, vl: u8) -> u64 {
    (u64::from(topo.base[sw as usize]) + u64::from(port)) << 4 | u64::from(vl & 15)
}

impl Cdg {
    /// Builds the graph from the turn bitsets of [`super::walk::Acc`].
    pub fn build(topo: &Topo, turns: &BTreeMap<(u8, u8), FixedBitSet>) -> Cdg {
        let mut edges: Vec<(u64, u64)> = Vec::new();
        let mut names: BTreeMap<u64, Channel> = BTreeMap::new();
        for (&(vin, vout), bits) in turns {
            for bit in bits.ones() {
                let (s, q, o) = topo.turn_of_bit(bit);
                let Some(Link::Switch(m, pm)) = topo.link(s, q) else {
                    continue;
                };
                let a = key(topo, m, pm, vin);
                let b = key(topo, s as u32, o, vout);
                names.entry(a).or_insert(Channel {
                    sw: m,
                    port: pm,
                    vl: vin,
                });
                names.entry(b).or_insert(Channel {
                    sw: s as u32,
                    port: o,
                    vl: vout,
                });
                edges.push((a, b));
            }
        }
        let keys: Vec<u64> = names.keys().copied().collect();
        let id = |k: u64| keys.binary_search(&k).unwrap_or(0) as u32;
        let mut e: Vec<(u32, u32)> = edges.iter().map(|&(a, b)| (id(a), id(b))).collect();
        e.sort_unstable();
        e.dedup();
        let mut start = vec![0u32; keys.len() + 1];
        for &(a, _) in &e {
            start[a as usize + 1] += 1;
        }
        for i in 0..keys.len() {
            start[i + 1] += start[i];
        }
        Cdg {
            nodes: names.into_values().collect(),
            start,
            adj: e.into_iter().map(|(_, b)| b).collect(),
        }
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
