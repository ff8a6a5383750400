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
use super::fas::{positions, topological};
use super::order::Layer;
use super::paths::{PathWalk, Turn};
use super::tree::{Memo, fresh_turns};
use crate::model::Lid;

/// What the destinations' paths bring to the base layer so far.
struct Share {
    seen: FixedBitSet,
    turns: Vec<Turn>,
    load: u64,
    pending: Vec<PathRef>,
    /// The turns of the pending paths (to see whether the routing closes
    /// any cycle at all).
    other_seen: FixedBitSet,
    other: Vec<Turn>,
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

    /// Both shares, `self`'s destinations first.
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
pub(super) fn base_layer(walk: &PathWalk) -> (Layer, Vec<PathRef>) {
    let order = walk.first_order();
    let pos = positions(order);
    let lids: Vec<Lid> = walk.destinations().collect();
    let n = walk.turns();
    let agrees = |t: &Turn, rest: bool| rest && pos[t.from as usize] < pos[t.to as usize];
    let share = lids
        .par_iter()
        .fold(
            || (Share::new(n), Memo::default(), Vec::new()),
            |(mut share, mut memo, mut marks), &lid| {
                memo.reset(walk.switches());
                marks.clear();
                marks.resize(walk.switches(), 0u16);
                for (src, w) in walk.sources(lid) {
                    if memo.of(walk, lid, src, true, false, agrees) {
                        fresh_turns(walk, lid, src, &mut marks, 0, |t| {
                            if !share.seen.put(t.id) {
                                share.turns.push(t);
                            }
                        });
                        share.load += w;
                    } else {
                        fresh_turns(walk, lid, src, &mut marks, 1, |t| {
                            if !share.other_seen.put(t.id) {
                                share.other.push(t);
                            }
                        });
                        share.pending.push((src, lid, w));
                    }
                }
                (share, memo, marks)
            },
        )
        .map(|(share, _, _)| share)
        .reduce(|| Share::new(n), Share::join);
    let mut turns = share.turns;
    if !share.pending.is_empty() {
        let seen = &share.seen;
        turns.extend(share.other.iter().filter(|t| !seen.contains(t.id)));
        turns.sort_unstable_by_key(|t| t.id);
        let edges: Vec<(u32, u32)> = turns.iter().map(|t| (t.from, t.to)).collect();
        if let Some(topo) = topological(order.len(), &edges) {
            // The routing closes no cycle at all: one layer takes every
            // path, in an order they all agree with.
            let load = share.load + share.pending.iter().map(|p| p.2).sum::<u64>();
            return (layer_of(walk, &topo, &turns, load), Vec::new());
        }
        turns.retain(|t| seen.contains(t.id));
    }
    turns.sort_unstable_by_key(|t| t.id);
    (layer_of(walk, order, &turns, share.load), share.pending)
}

/// A layer in `order` holding `turns`, which all agree with it.
fn layer_of(walk: &PathWalk, order: &[u32], turns: &[Turn], load: u64) -> Layer {
    let mut layer = walk.layer_in(order);
    for t in turns {
        layer.insert(t.id, t.from, t.to);
    }
    layer.load = load;
    layer
}
