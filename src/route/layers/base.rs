//! The base layer: every path that agrees with the up*/down* channel order
//! (every path of a fat tree routed up then down). A layer whose order is
//! never changed takes such paths with no search, so whether a path
//! belongs here depends on the path alone (worked out along each
//! destination's in-tree, [`super::tree`]), and the destinations are
//! checked in parallel; the layer is then built from the union of their
//! dependencies, in turn-id order, so that it is the same for any thread
//! count.

use fixedbitset::FixedBitSet;
use rayon::prelude::*;

use super::PathRef;
use super::fas::{self, positions, topological};
use super::order::Layer;
use super::paths::{Block, PathWalk, Turn};
use super::tree::{Memo, fresh_turns};
use crate::model::Lid;

/// What the destinations' paths bring to the base layer so far.
pub(super) struct Share {
    pub seen: FixedBitSet,
    pub turns: Vec<Turn>,
    pub load: u64,
    pub pending: Vec<PathRef>,
    /// The turns of the pending paths (to see whether the routing closes
    /// any cycle at all).
    pub other_seen: FixedBitSet,
    pub other: Vec<Turn>,
}

impl Share {
    fn new(turns: usize) -> Self {
        Share {
            seen: FixedBitSet::with_capacity(turns),
            turns: Vec::new(),
            load: 0,
            pending: Vec::new(),
            other_seen: FixedBitSet::with_capacity(turns),
            other: Vec::new(),
        }
    }

    /// Both shares, `self`'s destinations first. The shares of a pass
    /// are joined left to right once they are all in (rather than pairwise
    /// up rayon's tree, which moved the pending paths — 2.9 M on the
    /// 27,648-host RLFT with aggregation nodes — once per level).
    fn join(mut self, o: Share) -> Share {
        for t in o.turns {
            if !self.seen.put(t.id) {
                self.turns.push(t);
            }
        }
        for t in o.other {
            if !self.other_seen.put(t.id) {
                self.other.push(t);
            }
        }
        self.load += o.load;
        self.pending.extend(o.pending);
        self
    }
}

/// The base layer, and the paths it does not take in (LID, source) order.
/// The up*/down* order first; where paths disagree with it, the whole
/// routing's dependencies decide: none closing a cycle puts every path on
/// the base layer, and a DFS order that fewer dependencies disagree with
/// (tori, where up*/down* means little) is tried in its place unless
/// `other_orders` is false. Without `other_orders`, the layer's graph is
/// built only if `graph` (a path left on it names the cycle it closes).
pub(super) fn base_layer(
    walk: &PathWalk,
    other_orders: bool,
    graph: bool,
) -> (Layer, Vec<PathRef>) {
    let order = walk.first_order();
    let share = pass(walk, order, &walk.destination_blocks());
    if share.pending.is_empty() {
        return (
            layer_of(walk, order, share.turns, share.load),
            share.pending,
        );
    }
    let mut all = share.turns.clone();
    all.extend(share.other.iter().filter(|t| !share.seen.contains(t.id)));
    all.sort_unstable_by_key(|t| t.id);
    let edges: Vec<(u32, u32)> = all.iter().map(|t| (t.from, t.to)).collect();
    if let Some(topo) = topological(order.len(), &edges) {
        // The routing closes no cycle at all: one layer takes every path,
        // in an order they all agree with.
        let load = share.load + share.pending.iter().map(|p| p.2).sum::<u64>();
        return (layer_of(walk, &topo, all, load), Vec::new());
    }
    if !other_orders {
        // Dmodc keeps its up*/down* paths on VL 0 whatever another order
        // would take, so no other order is searched (a DFS and two
        // weighings over every dependency). Unless `graph`, nothing reads
        // this layer's graph afterwards (first fit starts at layer 1, no
        // balancing follows), so only its load is kept.
        if graph {
            return (
                layer_of(walk, order, share.turns, share.load),
                share.pending,
            );
        }
        let mut layer = walk.layer_in(order);
        layer.load = share.load;
        return (layer, share.pending);
    }
    let weighted: Vec<fas::Edge> = edges.iter().map(|&(u, v)| (u, v, 1)).collect();
    if let Some(dfs) = fas::better_than(order, &weighted) {
        let other = pass(walk, &dfs, &walk.destination_blocks());
        if other.pending.len() < share.pending.len() {
            return (layer_of(walk, &dfs, other.turns, other.load), other.pending);
        }
    }
    (
        layer_of(walk, order, share.turns, share.load),
        share.pending,
    )
}

/// One parallel pass over the destinations, a block of LIDs per task: the
/// paths that agree with `order`, their dependencies and load, and the
/// others.
pub(super) fn pass(walk: &PathWalk, order: &[u32], blocks: &[Vec<Lid>]) -> Share {
    let pos = positions(order);
    let n = walk.turns();
    let agrees = |t: &Turn, rest: bool| rest && pos[t.from as usize] < pos[t.to as usize];
    blocks
        .par_iter()
        .fold(
            || (Share::new(n), Memo::default(), Vec::new(), Block::default()),
            |(mut share, mut memo, mut marks, mut blk), lids| {
                for &lid in lids {
                    let col = walk.col(&mut blk, lid);
                    memo.reset(walk.switches());
                    marks.clear();
                    marks.resize(walk.switches(), 0u16);
                    for (src, w) in walk.sources(lid) {
                        if memo.of(walk, col, src, true, false, agrees) {
                            fresh_turns(walk, col, src, &mut marks, 0, |t| {
                                if !share.seen.put(t.id) {
                                    share.turns.push(t);
                                }
                            });
                            share.load += w;
                        } else {
                            fresh_turns(walk, col, src, &mut marks, 1, |t| {
                                if !share.other_seen.put(t.id) {
                                    share.other.push(t);
                                }
                            });
                            share.pending.push((src, lid, w));
                        }
                    }
                }
                (share, memo, marks, blk)
            },
        )
        .map(|(share, ..)| share)
        .collect::<Vec<_>>()
        .into_iter()
        .reduce(|a, b| a.join(b))
        .unwrap_or_else(|| Share::new(n))
}

/// A layer in `order` holding `turns`, which all agree with it.
fn layer_of(walk: &PathWalk, order: &[u32], mut turns: Vec<Turn>, load: u64) -> Layer {
    turns.sort_unstable_by_key(|t| t.id);
    let mut layer = walk.layer_in(order);
    for t in &turns {
        layer.insert(t.id, t.from, t.to);
    }
    layer.load = load;
    layer
}
