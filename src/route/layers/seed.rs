//! The seed order of the layers above the base one ([`super::pending`]):
//! the dependencies of the paths waiting for them, each weighed by the
//! paths through it, and whichever start — the up*/down* order or the DFS
//! seed of [`fas`] — puts less of that weight against itself.

use super::paths::{Block, Col, PathWalk, Turn};
use super::tails::SeedTree;
use super::{PathRef, fas};

/// The seed order of the layers above the base one, from the dependencies
/// of the paths waiting for them: the up*/down* order or the DFS seed of
/// [`fas`], by the path weight that goes against each.
///
/// Toward one LID a turn is fixed by the channel it arrives on (the next
/// switch has one entry for the LID), so the paths of a LID add their
/// weight per switch of their in-tree, each switch walked once
/// ([`SeedTree`]), and each channel's turn takes the sum once: one update
/// of the turn-indexed weights per channel used instead of one per hop of
/// every path (a cache miss each, over 7 M turn ids on the 27,648-host
/// RLFT). The turns come out in the order of their first appearance along
/// the paths, as a walk path by path lists them.
pub(super) fn pending_seed(walk: &PathWalk, pending: &[PathRef]) -> Vec<u32> {
    let edges = seed_edges(walk, pending);
    fas::better_than(walk.first_order(), &edges).unwrap_or_else(|| walk.first_order().to_vec())
}

/// The distinct dependencies of `pending`, in order of first appearance,
/// each with the path weight through it.
fn seed_edges(walk: &PathWalk, pending: &[PathRef]) -> Vec<fas::Edge> {
    let mut weight = vec![0u64; walk.turns()];
    let mut distinct: Vec<Turn> = Vec::new();
    let mut tree = SeedTree::new(walk.switches());
    let mut blk = Block::default();
    for run in pending.chunk_by(|a, b| a.1 == b.1) {
        let col = walk.col(&mut blk, run[0].1);
        if !tree.run(walk, col, run, &mut weight, &mut distinct) {
            seed_run_path_by_path(walk, col, run, &mut weight, &mut distinct);
        }
    }
    distinct
        .iter()
        .map(|t| (t.from, t.to, weight[t.id]))
        .collect()
}

/// [`SeedTree::run`] path by path, for a run with a looping or over-long
/// path (whose walk the hop limit cuts).
fn seed_run_path_by_path(
    walk: &PathWalk,
    col: Col,
    run: &[PathRef],
    weight: &mut [u64],
    distinct: &mut Vec<Turn>,
) {
    let mut seed = LidWeights::new(walk.channels());
    let mut turns = Vec::new();
    for &(src, _, w) in run {
        turns.clear();
        walk.path_turns(col, src, &mut turns);
        for t in &turns {
            seed.add(t, w);
        }
    }
    seed.flush(weight, distinct);
}

/// The pending paths' weight per arriving channel toward one LID, with
/// the turn of each channel in order of first appearance.
struct LidWeights {
    by_channel: Vec<u64>,
    turns: Vec<Turn>,
}

impl LidWeights {
    fn new(channels: usize) -> Self {
        LidWeights {
            by_channel: vec![0; channels],
            turns: Vec::new(),
        }
    }

    fn add(&mut self, t: &Turn, w: u64) {
        let c = &mut self.by_channel[t.from as usize];
        if *c == 0 {
            self.turns.push(*t);
        }
        *c += w;
    }

    /// Adds the LID's sums to the turns' weights (`distinct` gets the turns
    /// seen for the first time) and forgets them.
    fn flush(&mut self, weight: &mut [u64], distinct: &mut Vec<Turn>) {
        for t in self.turns.drain(..) {
            let c = std::mem::take(&mut self.by_channel[t.from as usize]);
            if weight[t.id] == 0 {
                distinct.push(t);
            }
            weight[t.id] += c;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::layers::pending::tests::pending_of_minhop;

    /// The seed's dependencies as a walk path by path lists them: every
    /// turn of every path in order, weights summed per turn.
    fn walked_one_by_one(walk: &PathWalk, pending: &[PathRef]) -> Vec<fas::Edge> {
        let mut order: Vec<Turn> = Vec::new();
        let mut weight = std::collections::HashMap::new();
        let (mut turns, mut blk) = (Vec::new(), Block::default());
        for &(src, lid, w) in pending {
            turns.clear();
            walk.path_turns(walk.col(&mut blk, lid), src, &mut turns);
            for t in &turns {
                let e = weight.entry(t.id).or_insert(0u64);
                if *e == 0 {
                    order.push(*t);
                }
                *e += w;
            }
        }
        order
            .iter()
            .map(|t| (t.from, t.to, weight[&t.id]))
            .collect()
    }

    #[test]
    fn seed_sums_per_channel_as_walking_every_path() {
        let (f, lids, lfts) = pending_of_minhop();
        let walk = PathWalk::new(&f, &lids, &lfts);
        let (_, pending) = super::super::base::base_layer(&walk, false, false);
        let want = walked_one_by_one(&walk, &pending);
        assert!(want.len() > 10, "pending dependencies: {}", want.len());
        assert_eq!(seed_edges(&walk, &pending), want);
        // LIDs that come back later in the list start a fresh sum.
        let mut mixed = pending.clone();
        mixed.reverse();
        let third = mixed.len() / 3;
        mixed.rotate_left(third);
        assert_eq!(seed_edges(&walk, &mixed), walked_one_by_one(&walk, &mixed));
    }
}
