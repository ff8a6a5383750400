//! One destination's in-tree: the GM-2 mapper's "one shortest path
//! breadth-first-search of the graph … for each set of routes" (seed
//! `myrinet-gm2-mapper.txt`, "Route Computation"), done from the
//! destination over reversed links so that one search gives every
//! switch's route to it, as an LFT column needs.
//!
//! The cost is (hops, penalty, load) in that order (`weights.rs`), so the
//! search is Dijkstra whose first key is the BFS level: walking switches in
//! BFS order from the destination, every switch on level L+1 has seen all
//! its level-L neighbours before it is itself expanded, and keeps the one
//! with the least (penalty, load) sum. No heap is needed, and a tree costs
//! one pass over the switch links.
//!
//! Ties (equal sums) go to the route whose most loaded link is less loaded
//! (the seed's "hot spot avoidance"; on tori this keeps the shift
//! permutations as balanced as OpenSM's sssp, where the plain sum does not),
//! then to the link whose far switch has the lower node GUID, then to the
//! lower port number: the seed's random port order replaced by a fixed one,
//! so the tables are reproducible.

use super::weights::Weights;
use crate::route::opensm::SwitchGraph;

/// Marks a switch the search has not reached, and "no parent link".
pub const NONE: u32 = u32::MAX;

/// The switch graph with what the search needs per link.
pub struct Graph<'a> {
    pub g: &'a SwitchGraph,
    /// Tie key of each port-end: (rank of the far switch by node GUID,
    /// local port), smaller wins.
    pub tie: Vec<u32>,
    /// End ports (routed sources) cabled to each switch.
    pub hosts: Vec<u32>,
    /// Links into each switch `v`, `incoming[g.start[v]..g.start[v + 1]]`:
    /// (the switch u they leave, u's port-end), one array for the search's
    /// inner loop.
    incoming: Vec<(u32, u32)>,
}

impl<'a> Graph<'a> {
    /// `guid_rank[s]` = position of switch `s` in ascending node GUID order.
    pub fn new(g: &'a SwitchGraph, guid_rank: &[u32], hosts: Vec<u32>) -> Self {
        let tie = (0..g.num_port_ends())
            .map(|e| (guid_rank[g.nbr[e] as usize] << 8) | u32::from(g.port[e]))
            .collect();
        let incoming = (0..g.num_port_ends())
            .map(|f| (g.nbr[f], g.rev[f]))
            .collect();
        Graph {
            g,
            tie,
            hosts,
            incoming,
        }
    }

    pub fn num_switches(&self) -> usize {
        self.g.num_switches()
    }
}

/// A computed in-tree and the scratch space to compute the next one.
pub struct Tree {
    /// BFS level (= switch hops to the destination switch), [`NONE`] if
    /// unreached.
    pub level: Vec<u32>,
    /// Least (penalty, load) sum to the destination.
    pub cost: Vec<u64>,
    /// Load of the most loaded link on the chosen route (set when the
    /// switch is expanded, its route final by then).
    pub peak: Vec<u64>,
    /// Port-end each switch forwards on ([`NONE`] at the root or unreached).
    pub via: Vec<u32>,
    /// Reached switches in BFS order (root first).
    pub order: Vec<u32>,
    /// Sources whose route crosses each switch (own hosts included).
    pub through: Vec<u64>,
}

impl Tree {
    pub fn new(switches: usize) -> Self {
        Tree {
            level: vec![NONE; switches],
            cost: vec![0; switches],
            peak: vec![0; switches],
            via: vec![NONE; switches],
            order: Vec::with_capacity(switches),
            through: vec![0; switches],
        }
    }

    /// The least-cost in-tree toward switch `root` under `w`.
    pub fn grow(&mut self, gr: &Graph, w: &Weights, root: u32) {
        let g = gr.g;
        for &s in &self.order {
            self.level[s as usize] = NONE;
            self.via[s as usize] = NONE;
        }
        self.order.clear();
        self.level[root as usize] = 0;
        self.cost[root as usize] = 0;
        self.peak[root as usize] = 0;
        self.order.push(root);
        let mut next = 0;
        while next < self.order.len() {
            let v = self.order[next] as usize;
            next += 1;
            if let Some(e) = Some(self.via[v] as usize).filter(|&e| e != NONE as usize) {
                self.peak[v] = self.peak[g.nbr[e] as usize].max(w.load(e));
            }
            let (lv, cv) = (self.level[v] + 1, self.cost[v]);
            for &(u, e) in &gr.incoming[g.ends(v)] {
                if e == NONE {
                    continue;
                }
                let u = u as usize;
                let c = cv + w.cost(e as usize);
                if self.level[u] == NONE {
                    self.level[u] = lv;
                    self.cost[u] = c;
                    self.via[u] = e;
                    self.order.push(u as u32);
                } else if self.level[u] == lv {
                    let cur = self.via[u] as usize;
                    let peak_via = |x: usize| self.peak[g.nbr[x] as usize].max(w.load(x));
                    if (c, peak_via(e as usize), gr.tie[e as usize])
                        < (self.cost[u], peak_via(cur), gr.tie[cur])
                    {
                        self.cost[u] = c;
                        self.via[u] = e;
                    }
                }
            }
        }
    }

    /// Counts the sources crossing every switch (leaves first) and, when
    /// `w` is given, adds them to the load of the links they take: the
    /// seed's cost increment, weighted by sources as OpenSM's sssp does.
    /// Returns nothing; `through` holds the counts afterwards.
    pub fn count_sources(&mut self, gr: &Graph, mut w: Option<&mut Weights>) {
        for &s in &self.order {
            self.through[s as usize] = u64::from(gr.hosts[s as usize]);
        }
        for i in (1..self.order.len()).rev() {
            let s = self.order[i] as usize;
            let e = self.via[s] as usize;
            let n = self.through[s];
            self.through[gr.g.nbr[e] as usize] += n;
            if n > 0
                && let Some(w) = w.as_deref_mut()
            {
                w.add_load(e, n);
            }
        }
    }

    /// Port-ends that carry at least one source's route.
    pub fn used_links(&self) -> impl Iterator<Item = usize> + '_ {
        self.order[1.min(self.order.len())..]
            .iter()
            .filter(|&&s| self.through[s as usize] > 0)
            .map(|&s| self.via[s as usize] as usize)
    }
}
