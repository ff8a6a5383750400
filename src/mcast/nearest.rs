//! The nearest live tree by the group distance of seed:mr4lms §3.3.1,
//! equation (1): the mean, over the members of both sets, of each member's
//! shortest distance to the other set (0 for a member of both).
//!
//! Alg. 4 l.① evaluates it against every existing tree, and the paper
//! notes its cost (§3.3.1, last paragraph). [`Proximity`] keeps, for each
//! live tree, its distance vector (hops + member link from every switch to
//! the nearest tree member, from the hop matrix) and which trees hold each
//! member port. One evaluation is then a pass over the two member lists
//! instead of a pass over all member pairs, and the trees are scanned in
//! parallel. The index is only built at the first merge, so runs that never
//! merge pay nothing.

use std::collections::HashMap;

use rayon::prelude::*;

use super::state::{ColourState, TreeId};
use super::topo::SwitchGraph;
use crate::model::Member;
use crate::model::PortNum;

/// Per-tree data for equation (1), kept in step with the live trees.
#[derive(Debug, Default)]
pub struct Proximity {
    active: bool,
    /// `to_tree[t][s]`: min over members m of tree t of hops(s, m.leaf) +
    /// m.extra (saturating); `None` for dead trees.
    to_tree: Vec<Option<Box<[u8]>>>,
    /// Per node: (port, live tree) for every live tree having that member.
    holders: Vec<Vec<(PortNum, TreeId)>>,
}

/// Min hops (member link included) from every switch to `members`.
pub fn distance_vector(graph: &SwitchGraph, members: &[Member]) -> Box<[u8]> {
    let mut d = vec![u8::MAX; graph.num_switches()];
    for (leaf, extra) in super::walk::attachments(members) {
        for (e, &h) in d.iter_mut().zip(graph.hop_row(leaf)) {
            *e = (*e).min(h.saturating_add(extra));
        }
    }
    d.into_boxed_slice()
}

impl Proximity {
    /// Records tree `id`, just committed (no-op until the first merge).
    pub fn added(&mut self, graph: &SwitchGraph, state: &ColourState, id: TreeId) {
        if self.active {
            self.insert(
                id,
                state,
                distance_vector(graph, &state.trees[id as usize].members),
            );
        }
    }

    /// Forgets tree `id`, just retired.
    pub fn removed(&mut self, state: &ColourState, id: TreeId) {
        if !self.active {
            return;
        }
        if let Some(slot) = self.to_tree.get_mut(id as usize) {
            *slot = None;
        }
        for m in &state.trees[id as usize].members {
            if let Some(v) = self.holders.get_mut(m.node.ix()) {
                v.retain(|&(_, t)| t != id);
            }
        }
    }

    fn insert(&mut self, id: TreeId, state: &ColourState, v: Box<[u8]>) {
        let i = id as usize;
        if self.to_tree.len() <= i {
            self.to_tree.resize(i + 1, None);
        }
        self.to_tree[i] = Some(v);
        for m in &state.trees[i].members {
            let n = m.node.ix();
            if self.holders.len() <= n {
                self.holders.resize_with(n + 1, Vec::new);
            }
            self.holders[n].push((m.port, id));
        }
    }

    /// Builds the index over every live tree (at the first merge).
    fn activate(&mut self, graph: &SwitchGraph, state: &ColourState) {
        self.active = true;
        let vectors: Vec<(TreeId, Box<[u8]>)> = state
            .trees
            .par_iter()
            .enumerate()
            .filter(|(_, t)| t.alive)
            .map(|(id, t)| (id as TreeId, distance_vector(graph, &t.members)))
            .collect();
        for (id, v) in vectors {
            self.insert(id, state, v);
        }
    }

    /// Alg. 4 l.①: the live tree nearest to `group` by equation (1); ties
    /// to the older tree (lower id). Exact: the same choice as comparing
    /// every member pair.
    pub fn nearest(
        &mut self,
        graph: &SwitchGraph,
        state: &ColourState,
        group: &[Member],
    ) -> Option<TreeId> {
        if !self.active {
            self.activate(graph, state);
        }
        let to_group = distance_vector(graph, group);
        let shared = self.shared(group, &to_group);
        let this = &*self;
        let to_group = &to_group;
        let best = state
            .trees
            .par_iter()
            .enumerate()
            .with_min_len(64)
            .filter_map(|(id, t)| {
                let to_tree = this.to_tree.get(id)?.as_deref()?;
                let group_half: u64 = group
                    .iter()
                    .map(|a| to_tree[a.leaf.ix()] as u64 + a.extra as u64)
                    .sum();
                let tree_half: u64 = t
                    .members
                    .iter()
                    .map(|b| to_group[b.leaf.ix()] as u64 + b.extra as u64)
                    .sum();
                let overlap = shared.get(&(id as TreeId)).copied().unwrap_or(0);
                let num = group_half + tree_half - overlap;
                let den = (group.len() + t.members.len()) as u64;
                Some((num, den, id as TreeId))
            })
            .min_by(|a, b| (a.0 * b.1).cmp(&(b.0 * a.1)).then(a.2.cmp(&b.2)));
        best.map(|b| b.2)
    }

    /// For each tree sharing members with `group`, what the full sums
    /// over-count: a shared member is at distance 0 from both sets.
    fn shared(&self, group: &[Member], to_group: &[u8]) -> HashMap<TreeId, u64> {
        let mut over: HashMap<TreeId, u64> = HashMap::new();
        for a in group {
            let held = self.holders.get(a.node.ix()).map_or(&[][..], Vec::as_slice);
            for &(_, t) in held.iter().filter(|h| h.0 == a.port) {
                let to_tree = self.to_tree[t as usize].as_deref().unwrap_or(&[]);
                let near = to_tree.get(a.leaf.ix()).copied().unwrap_or(0);
                *over.entry(t).or_default() +=
                    near as u64 + to_group[a.leaf.ix()] as u64 + 2 * a.extra as u64;
            }
        }
        over
    }
}
