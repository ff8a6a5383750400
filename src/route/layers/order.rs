//! One virtual layer's channel dependency graph, kept acyclic as paths are
//! added: a dynamic topological order of the channels (Pearce & Kelly, "A
//! dynamic topological sort algorithm for directed acyclic graphs", ACM
//! JEA 11, 2006). Inserting a dependency that agrees with the order costs
//! nothing; one that does not searches only the channels between its two
//! ends in the order, and either finds the cycle it would close or shifts
//! those channels so the order holds again.

use super::paths::Turn;
use fixedbitset::FixedBitSet;

/// The dependency graph of one layer over `n` channels.
pub(super) struct Layer {
    /// Position of each channel in the order, and the channel at each position.
    ord: Vec<u32>,
    at: Vec<u32>,
    out: Vec<Vec<u32>>,
    inn: Vec<Vec<u32>>,
    /// Turns (dependencies) present, by dense turn id.
    present: FixedBitSet,
    /// Turns refused once: the graph only grows (a refused path's own
    /// turns go again, leaving it as it was), so a dependency that closed a
    /// cycle always will, and is refused again without a search.
    refused: FixedBitSet,
    /// Search scratch: visit stamps, parents, the two regions.
    seen: Vec<u32>,
    stamp: u32,
    parent: Vec<u32>,
    fwd: Vec<u32>,
    bwd: Vec<u32>,
    stack: Vec<u32>,
    bkeys: Vec<u64>,
    fkeys: Vec<u64>,
    slots: Vec<u32>,
    /// Source end ports routed on this layer (its load).
    pub load: u64,
}

impl Layer {
    /// An empty graph whose channels start in the order `first` (a
    /// permutation of the channels, `first[pos]` = channel): dependencies
    /// that agree with it cost no search.
    pub fn new(first: &[u32], turns: usize) -> Self {
        let channels = first.len();
        let mut ord = vec![0u32; channels];
        for (pos, &c) in first.iter().enumerate() {
            ord[c as usize] = pos as u32;
        }
        Layer {
            ord,
            at: first.to_vec(),
            out: vec![Vec::new(); channels],
            inn: vec![Vec::new(); channels],
            present: FixedBitSet::with_capacity(turns),
            refused: FixedBitSet::with_capacity(turns),
            seen: vec![0; channels],
            stamp: 0,
            parent: vec![u32::MAX; channels],
            fwd: Vec::new(),
            bwd: Vec::new(),
            stack: Vec::new(),
            bkeys: Vec::new(),
            fkeys: Vec::new(),
            slots: Vec::new(),
            load: 0,
        }
    }

    /// Whether dependency `turn` is in the graph.
    pub fn has(&self, turn: usize) -> bool {
        self.present.contains(turn)
    }

    /// Whether the layer takes dependency `t` with no search: present
    /// already, or agreeing with the order.
    pub fn takes(&self, t: &Turn) -> bool {
        self.has(t.id) || self.ord[t.from as usize] < self.ord[t.to as usize]
    }

    /// Whether dependency `turn` was refused before (and would be again).
    pub fn refuses(&self, turn: usize) -> bool {
        self.refused.contains(turn)
    }

    /// Adds dependency `turn` = channel `u` → channel `v`. Returns `false`
    /// (and changes nothing) when it would close a cycle.
    pub fn insert(&mut self, turn: usize, u: u32, v: u32) -> bool {
        if self.present.contains(turn) {
            return true;
        }
        if self.refused.contains(turn) {
            return false;
        }
        let (lb, ub) = (self.ord[v as usize], self.ord[u as usize]);
        if lb < ub {
            if !self.search_forward(v, ub) {
                self.refused.insert(turn);
                return false;
            }
            self.search_backward(u, lb);
            self.reorder();
        }
        self.present.insert(turn);
        self.out[u as usize].push(v);
        self.inn[v as usize].push(u);
        true
    }

    /// Removes dependency `turn` = `u` → `v` (the order stays valid). Only
    /// the turns of a path being refused are removed, which leaves the
    /// graph as it was before that path: refusals stay true.
    pub fn remove(&mut self, turn: usize, u: u32, v: u32) {
        if !self.present.contains(turn) {
            return;
        }
        self.present.set(turn, false);
        if let Some(i) = self.out[u as usize].iter().position(|&x| x == v) {
            self.out[u as usize].swap_remove(i);
        }
        if let Some(i) = self.inn[v as usize].iter().position(|&x| x == u) {
            self.inn[v as usize].swap_remove(i);
        }
    }

    /// The channels of the cycle `u` → `v` would close: `v`, ..., `u`
    /// (a path in the graph from `v` back to `u`).
    pub fn cycle_through(&mut self, u: u32, v: u32) -> Vec<u32> {
        let ub = self.ord[u as usize];
        if self.search_forward(v, ub.max(self.ord[v as usize])) {
            return Vec::new();
        }
        let mut path = vec![u];
        let mut c = u;
        while c != v {
            c = self.parent[c as usize];
            path.push(c);
        }
        path.reverse();
        path
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Depth-first from `v` over channels ordered before `ub`: `false` when
    /// it reaches the channel at `ub` (a cycle), else the region in `fwd`.
    fn search_forward(&mut self, v: u32, ub: u32) -> bool {
        let stamp = self.next_stamp();
        let Layer {
            out,
            ord,
            seen,
            parent,
            fwd,
            stack,
            ..
        } = self;
        fwd.clear();
        stack.clear();
        stack.push(v);
        seen[v as usize] = stamp;
        while let Some(w) = stack.pop() {
            fwd.push(w);
            for &x in &out[w as usize] {
                let ox = ord[x as usize];
                if ox == ub {
                    parent[x as usize] = w;
                    return false;
                }
                if ox < ub && seen[x as usize] != stamp {
                    seen[x as usize] = stamp;
                    parent[x as usize] = w;
                    stack.push(x);
                }
            }
        }
        true
    }

    /// Depth-first backwards from `u` over channels ordered after `lb`.
    fn search_backward(&mut self, u: u32, lb: u32) {
        let stamp = self.next_stamp();
        let Layer {
            inn,
            ord,
            seen,
            bwd,
            stack,
            ..
        } = self;
        bwd.clear();
        stack.clear();
        stack.push(u);
        seen[u as usize] = stamp;
        while let Some(w) = stack.pop() {
            bwd.push(w);
            for &x in &inn[w as usize] {
                if ord[x as usize] > lb && seen[x as usize] != stamp {
                    seen[x as usize] = stamp;
                    stack.push(x);
                }
            }
        }
    }

    /// Gives the backward region, then the forward one, the positions both
    /// held, each keeping its own relative order. Regions are sorted as
    /// packed (position, channel) words, and the positions they free are
    /// the merge of the two sorted lists.
    fn reorder(&mut self) {
        let pack = |ord: &[u32], v: &[u32], out: &mut Vec<u64>| {
            out.clear();
            out.extend(
                v.iter()
                    .map(|&w| u64::from(ord[w as usize]) << 32 | u64::from(w)),
            );
            out.sort_unstable();
        };
        pack(&self.ord, &self.bwd, &mut self.bkeys);
        pack(&self.ord, &self.fwd, &mut self.fkeys);
        self.slots.clear();
        let (mut i, mut j) = (0, 0);
        while i < self.bkeys.len() || j < self.fkeys.len() {
            let take_b =
                j == self.fkeys.len() || (i < self.bkeys.len() && self.bkeys[i] < self.fkeys[j]);
            let k = if take_b { &mut i } else { &mut j };
            let key = if take_b {
                self.bkeys[*k]
            } else {
                self.fkeys[*k]
            };
            *k += 1;
            self.slots.push((key >> 32) as u32);
        }
        for (key, &pos) in self.bkeys.iter().chain(&self.fkeys).zip(&self.slots) {
            let w = *key as u32;
            self.ord[w as usize] = pos;
            self.at[pos as usize] = w;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_dag_and_refuses_the_closing_edge() {
        let mut g = Layer::new(&[0, 1, 2, 3], 16);
        let t = |u: u32, v: u32| (u * 4 + v) as usize;
        // 3 -> 2 -> 1 -> 0: every edge against the initial order
        assert!(g.insert(t(3, 2), 3, 2));
        assert!(g.insert(t(2, 1), 2, 1));
        assert!(g.insert(t(1, 0), 1, 0));
        assert!(g.ord[3] < g.ord[2] && g.ord[2] < g.ord[1] && g.ord[1] < g.ord[0]);
        assert!(!g.insert(t(0, 3), 0, 3), "0 -> 3 closes 3 -> 2 -> 1 -> 0");
        assert!(!g.has(t(0, 3)));
        assert_eq!(g.cycle_through(0, 3), [3, 2, 1, 0]);
        assert!(g.refuses(t(0, 3)), "a refusal is remembered");
        g.remove(t(2, 1), 2, 1);
        assert!(g.insert(t(2, 0), 2, 0), "agrees with the order");
        for (pos, &w) in g.at.iter().enumerate() {
            assert_eq!(g.ord[w as usize] as usize, pos);
        }
    }
}
