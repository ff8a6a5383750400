//! Tree-building primitives shared by FBTC, FCTB and Merge: candidate roots
//! (§3.1.1), the bottom-up min-hop build (Alg. 2), BFS in a colour subgraph
//! G_color (§3.2); the Dijkstra build keeping old trees (Alg. 5) is in
//! [`super::dijkstra`].

use std::collections::VecDeque;

use crate::model::SwIdx;

use super::state::{ColourState, NO_TREE, TreeId, TreeNode};
use super::topo::{SwitchGraph, UNREACHABLE};
use crate::model::Member;

/// Candidate roots of a group in G: the switches minimising the maximum
/// hop count to the members (§3.1.1), in switch order.
#[derive(Clone, Debug)]
pub struct Candidates {
    /// That minimum (the best possible tree height).
    pub ecc: u8,
    pub roots: Vec<SwIdx>,
}

/// Distinct (leaf, extra) attachments of `members`, in member order.
pub fn attachments(members: &[Member]) -> Vec<(SwIdx, u8)> {
    let mut v: Vec<(SwIdx, u8)> = members.iter().map(|m| (m.leaf, m.extra)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Max hops from every switch to `members` in G (one vector pass per leaf).
pub fn eccentricities(graph: &SwitchGraph, members: &[Member]) -> Vec<u8> {
    let mut ecc = vec![0u8; graph.num_switches()];
    for (leaf, extra) in attachments(members) {
        for (e, &h) in ecc.iter_mut().zip(graph.hop_row(leaf)) {
            *e = (*e).max(h.saturating_add(extra));
        }
    }
    ecc
}

/// Candidate roots, or `None` when the members are not connected.
pub fn candidate_roots(graph: &SwitchGraph, members: &[Member]) -> Option<Candidates> {
    let ecc = eccentricities(graph, members);
    let best = *ecc.iter().min()?;
    if best >= UNREACHABLE - 1 {
        return None;
    }
    let roots = (0..ecc.len())
        .filter(|&s| ecc[s] == best)
        .map(|s| SwIdx(s as u32))
        .collect();
    Some(Candidates { ecc: best, roots })
}

/// `roots` ordered by load (trees through them), ties by switch index;
/// roots whose MFT is full are left out (§3.1.1).
pub fn order_by_load(state: &ColourState, roots: &[SwIdx]) -> Vec<SwIdx> {
    let mut v: Vec<SwIdx> = roots
        .iter()
        .copied()
        .filter(|&s| !state.switch_full(s))
        .collect();
    v.sort_by_key(|&s| (state.sw_load[s.ix()], s));
    v
}

/// Reusable buffers (generation-stamped so nothing is cleared per group).
#[derive(Debug, Default)]
pub struct Scratch {
    stamp: Vec<u32>,
    generation: u32,
    pub used: Vec<bool>,
    queue: VecDeque<u32>,
    /// BFS depths, valid where `stamp` holds the current generation.
    depth: Vec<u8>,
}

impl Scratch {
    /// Buffers for `n` switches.
    pub fn new(n: usize) -> Self {
        Scratch {
            stamp: vec![0; n],
            depth: vec![0; n],
            ..Default::default()
        }
    }

    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.generation
    }
}

/// Alg. 2: from each member walk towards `root` along min-hop ports,
/// taking the least-loaded link (ties: lowest port), stopping at a switch
/// already in the tree. Returns the nodes sorted by (depth, switch).
pub fn build_bottom_up(
    graph: &SwitchGraph,
    state: &ColourState,
    members: &[Member],
    root: SwIdx,
    scratch: &mut Scratch,
) -> Vec<TreeNode> {
    let generation = scratch.next_generation();
    let mut nodes = vec![TreeNode {
        sw: root,
        up: None,
        depth: 0,
    }];
    scratch.stamp[root.ix()] = generation;
    for (leaf, _) in attachments(members) {
        let mut curr = leaf;
        while scratch.stamp[curr.ix()] != generation {
            scratch.stamp[curr.ix()] = generation;
            let h = graph.hops(curr, root);
            let best = graph
                .neighbours(curr)
                .iter()
                .filter(|a| graph.hops(a.peer, root) + 1 == h)
                .min_by_key(|a| (state.link_load[graph.port_slot(curr, a.port)], a.port));
            let Some(a) = best else { break };
            nodes.push(TreeNode {
                sw: curr,
                up: Some((a.port, a.peer, a.peer_port)),
                depth: h,
            });
            curr = a.peer;
        }
    }
    nodes.sort_by_key(|n| (n.depth, n.sw));
    nodes
}

/// The switches of G_color for one group: free on `colour`, or owned by
/// one of the trees `own` being merged into it.
#[derive(Clone, Copy)]
pub struct Avail<'a> {
    pub state: &'a ColourState,
    pub colour: u16,
    /// Sorted.
    pub own: &'a [TreeId],
}

impl Avail<'_> {
    /// Whether switch `s` is in G_color.
    pub fn ok(&self, s: SwIdx) -> bool {
        let t = self.state.owner(s, self.colour);
        t == NO_TREE || self.own.binary_search(&t).is_ok()
    }
}

/// BFS hop counts from `src` inside G_color (UNREACHABLE outside).
pub fn bfs_in(graph: &SwitchGraph, avail: Avail, src: SwIdx, scratch: &mut Scratch) -> Vec<u8> {
    let mut dist = vec![UNREACHABLE; graph.num_switches()];
    if !avail.ok(src) {
        return dist;
    }
    dist[src.ix()] = 0;
    scratch.queue.clear();
    scratch.queue.push_back(src.0);
    while let Some(u) = scratch.queue.pop_front() {
        let d = dist[u as usize];
        for a in graph.neighbours(SwIdx(u)) {
            let v = a.peer.ix();
            if dist[v] == UNREACHABLE && avail.ok(a.peer) {
                dist[v] = d.saturating_add(1).min(UNREACHABLE - 1);
                scratch.queue.push_back(v as u32);
            }
        }
    }
    dist
}

/// Whether all members attach to G_color switches connected to each other
/// (Alg. 3 l.③–④, Alg. 4 l.④).
pub fn connected_in(
    graph: &SwitchGraph,
    avail: Avail,
    members: &[Member],
    scratch: &mut Scratch,
) -> bool {
    let Some(first) = members.first() else {
        return true;
    };
    if members.iter().any(|m| !avail.ok(m.leaf)) {
        return false;
    }
    let dist = bfs_in(graph, avail, first.leaf, scratch);
    members.iter().all(|m| dist[m.leaf.ix()] != UNREACHABLE)
}

/// Per-switch member link length of `members` (the largest when several
/// members share a switch; [`UNREACHABLE`] where no member attaches) and
/// the number of attachment switches: the target set of [`ecc_within`].
pub fn attachment_map(n: usize, members: &[Member]) -> (Vec<u8>, usize) {
    let mut extra = vec![UNREACHABLE; n];
    let mut count = 0;
    for m in members {
        let e = &mut extra[m.leaf.ix()];
        if *e == UNREACHABLE {
            count += 1;
            *e = m.extra;
        } else {
            *e = (*e).max(m.extra);
        }
    }
    (extra, count)
}

/// The eccentricity of `src` in G_color (max over the attachments of
/// hops + member link, saturating as [`eccentricities_in`] does), when it
/// is at most `limit`; `None` otherwise. One BFS from `src` that stops at
/// depth `limit` or when every attachment is reached, so it equals the
/// per-leaf BFS value at `src` (G_color is undirected) at a fraction of
/// the cost.
pub fn ecc_within(
    graph: &SwitchGraph,
    avail: Avail,
    src: SwIdx,
    targets: (&[u8], usize),
    limit: u8,
    scratch: &mut Scratch,
) -> Option<u8> {
    let (extra, count) = targets;
    if !avail.ok(src) {
        return None;
    }
    if count == 0 {
        return Some(0);
    }
    let generation = scratch.next_generation();
    scratch.stamp[src.ix()] = generation;
    scratch.depth[src.ix()] = 0;
    scratch.queue.clear();
    scratch.queue.push_back(src.0);
    let (mut found, mut ecc) = (0, 0u8);
    while let Some(u) = scratch.queue.pop_front() {
        let d = scratch.depth[u as usize];
        let e = extra[u as usize];
        if e != UNREACHABLE {
            ecc = ecc.max(d.saturating_add(e));
            found += 1;
            if ecc > limit {
                return None;
            }
            if found == count {
                return Some(ecc);
            }
        }
        if d >= limit {
            continue;
        }
        for a in graph.neighbours(SwIdx(u)) {
            let v = a.peer.ix();
            if scratch.stamp[v] != generation && avail.ok(a.peer) {
                scratch.stamp[v] = generation;
                scratch.depth[v] = d.saturating_add(1).min(UNREACHABLE - 1);
                scratch.queue.push_back(v as u32);
            }
        }
    }
    None
}

/// Max hops in G_color from every switch to the members (one BFS per
/// distinct leaf); UNREACHABLE where some member cannot be reached.
pub fn eccentricities_in(
    graph: &SwitchGraph,
    avail: Avail,
    members: &[Member],
    scratch: &mut Scratch,
) -> Vec<u8> {
    let mut ecc = vec![0u8; graph.num_switches()];
    for (leaf, extra) in attachments(members) {
        let dist = bfs_in(graph, avail, leaf, scratch);
        for (e, &h) in ecc.iter_mut().zip(&dist) {
            *e = (*e).max(h.saturating_add(extra));
        }
    }
    ecc
}
