//! First fit for the paths the base layer does not take: each goes on the
//! first layer above the base that takes all its dependencies without
//! closing a cycle (a Pearce–Kelly search per dependency that disagrees
//! with the layer's order, [`super::order`]), opening layers up to the
//! limit.
//!
//! First fit tries layer 1 first for every path, so layer 1 evolves from
//! the paths alone, and the layers above it from the paths layer 1
//! refuses, in the same order. The two run as a pipeline on two threads
//! (layer 1 does three quarters of the searches on the production-like
//! fabric), with exactly the result of one loop.

use std::sync::mpsc;

use super::order::Layer;
use super::paths::{Block, PathWalk, Turn};
use super::seed::pending_seed;
use super::tails::Tails;
use super::{PathRef, Placement};

/// Places `pending` (in order) on layers 1 .. `max` − 1 of `p`.
pub(super) fn place_pending(walk: &PathWalk, p: &mut Placement, pending: &[PathRef], max: usize) {
    let Some(&(src, lid, _)) = pending.first() else {
        return;
    };
    if max < 2 {
        // no layer above the base: every such path stays there, unplaced
        let (mut turns, mut blk) = (Vec::new(), Block::default());
        walk.path_turns(walk.col(&mut blk, lid), src, &mut turns);
        p.unplaced = pending.len() as u64;
        p.stuck = Some((0, turns.first().copied().unwrap_or_default()));
        p.layers[0].load += pending.iter().map(|x| x.2).sum::<u64>();
        return;
    }
    let start = pending_seed(walk, pending);
    let mut first = walk.layer_in(&start);
    let mut upper = Upper::new(&start, 2, max - 2);
    let taken = if rayon::current_num_threads() > 1 {
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|sc| {
            let one = sc.spawn(|| {
                // the sender ends with this thread, and with it the loop below
                let tx = tx;
                first_pass(walk, &mut first, pending, |i, t| {
                    let _ = tx.send((i, t));
                })
            });
            for (i, t) in rx {
                upper.place(walk, i, pending[i], (1, t));
            }
            one.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
        })
    } else {
        first_pass(walk, &mut first, pending, |i, t| {
            upper.place(walk, i, pending[i], (1, t))
        })
    };
    for i in taken {
        first.load += pending[i].2;
        p.sl.set(pending[i].0 as usize, pending[i].1, 1);
    }
    for &(i, layer) in &upper.assigned {
        let (src, lid, w) = pending[i];
        p.sl.set(src as usize, lid, layer as u8);
        if layer == 1 {
            first.load += w;
        }
    }
    p.layers.push(first);
    p.layers.extend(upper.layers);
    (p.unplaced, p.stuck) = (upper.unplaced, upper.stuck);
}

/// Layer 1's pass: the indices of the paths it takes; each path it
/// refuses goes to `refused` with the turn it refused.
fn first_pass(
    walk: &PathWalk,
    layer: &mut Layer,
    pending: &[PathRef],
    mut refused: impl FnMut(usize, Turn),
) -> Vec<usize> {
    let (mut turns, mut added, mut taken) = (Vec::new(), Vec::new(), Vec::new());
    let (mut blk, mut tails) = (Block::default(), Tails::new(walk.switches()));
    for (i, &(src, lid, _)) in pending.iter().enumerate() {
        turns.clear();
        tails.head_turns(walk, walk.col(&mut blk, lid), lid, src, &mut turns);
        match try_insert(layer, &turns, &mut added) {
            Ok(()) => {
                tails.taken();
                taken.push(i);
            }
            Err(t) => refused(i, turns[t]),
        }
    }
    taken
}

/// Layers `first` and up, filled by first fit: layers 2 and up fed the
/// paths layer 1 refused, or layers 1 and up fed the paths that do not
/// stay on their previous layer (`keep.rs`).
pub(super) struct Upper<'s> {
    /// Layers `first`, `first` + 1, … (some may be given filled).
    pub layers: Vec<Layer>,
    start: &'s [u32],
    first: usize,
    /// How many layers it may hold.
    room: usize,
    /// (pending index, layer) of every path placed or left here.
    pub assigned: Vec<(usize, usize)>,
    pub unplaced: u64,
    pub stuck: Option<(usize, Turn)>,
    turns: Vec<Turn>,
    added: Vec<usize>,
    blk: Block,
}

impl<'s> Upper<'s> {
    pub fn new(start: &'s [u32], first: usize, room: usize) -> Self {
        Upper {
            layers: Vec::new(),
            start,
            first,
            room,
            assigned: Vec::new(),
            unplaced: 0,
            stuck: None,
            turns: Vec::new(),
            added: Vec::new(),
            blk: Block::default(),
        }
    }

    /// First fit for path `i`, last refused by layer `refused.0` (below
    /// `first`) at turn `refused.1`; layer numbers count the base layer.
    pub fn place(
        &mut self,
        walk: &PathWalk,
        i: usize,
        (src, lid, w): PathRef,
        mut refused: (usize, Turn),
    ) {
        self.turns.clear();
        walk.path_turns(walk.col(&mut self.blk, lid), src, &mut self.turns);
        let first = self.first;
        let (turns, added) = (&self.turns, &mut self.added);
        let chosen = (0..self.layers.len()).find(|&l| {
            let r = try_insert(&mut self.layers[l], turns, added);
            if let Err(t) = r {
                refused = (l + first, turns[t]);
            }
            r.is_ok()
        });
        let layer = match chosen {
            Some(l) => l + first,
            None if self.layers.len() < self.room => {
                let mut fresh = walk.layer_in(self.start);
                // A fresh layer takes any path: a path that does not loop
                // never depends on itself.
                let _ = try_insert(&mut fresh, turns, added);
                self.layers.push(fresh);
                self.layers.len() - 1 + first
            }
            None => {
                self.unplaced += 1;
                self.stuck.get_or_insert(refused);
                refused.0
            }
        };
        if layer >= first {
            self.layers[layer - first].load += w;
        }
        self.assigned.push((i, layer));
    }
}

/// Adds every dependency of a path to `layer`, or none of them: on a
/// refusal the turns this path added go again (turns other paths brought
/// stay) and the index of the refused turn is returned.
pub(super) fn try_insert(
    layer: &mut Layer,
    turns: &[Turn],
    added: &mut Vec<usize>,
) -> Result<(), usize> {
    added.clear();
    if let Some(i) = turns.iter().position(|t| layer.refuses(t.id)) {
        return Err(i);
    }
    for (i, t) in turns.iter().enumerate() {
        if layer.has(t.id) {
            continue;
        }
        if !layer.insert(t.id, t.from, t.to) {
            for &j in added.iter() {
                layer.remove(turns[j].id, turns[j].from, turns[j].to);
            }
            return Err(i);
        }
        added.push(i);
    }
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::generate::features::{Features, apply};
    use crate::generate::pgft::{PgftSpec, pgft};
    use crate::model::LidMap;
    use crate::route::{RouteOptions, engine_by_name};

    /// Layer 1's pass walking every path whole: the paths it takes and
    /// those it refuses, with the refused turn.
    fn first_pass_whole_paths(
        walk: &PathWalk,
        pending: &[PathRef],
    ) -> (Vec<usize>, Vec<(usize, Turn)>) {
        let mut layer = walk.layer_in(walk.first_order());
        let (mut turns, mut added, mut blk) = (Vec::new(), Vec::new(), Block::default());
        let (mut taken, mut refused) = (Vec::new(), Vec::new());
        for (i, &(src, lid, _)) in pending.iter().enumerate() {
            turns.clear();
            walk.path_turns(walk.col(&mut blk, lid), src, &mut turns);
            match try_insert(&mut layer, &turns, &mut added) {
                Ok(()) => taken.push(i),
                Err(t) => refused.push((i, turns[t])),
            }
        }
        (taken, refused)
    }

    /// The aggregation-node PGFT routed by min-hop, its walk and the paths
    /// its base layer leaves.
    pub(in crate::route::layers) fn pending_of_minhop()
    -> (crate::model::Fabric, LidMap, crate::model::Lfts) {
        // Aggregation nodes on a 3-level PGFT: the paths toward the CAs of
        // spines and cores with no common ancestor go down then up.
        let spec = PgftSpec::new(3, &[4, 4, 4], &[1, 4, 2], None);
        let feat = Features {
            aggregation_nodes: true,
            ..Features::default()
        };
        let f = apply(&spec, &pgft(&spec).unwrap(), &feat).unwrap();
        let lids = LidMap::new(&f).unwrap();
        let opts = RouteOptions {
            vls: 15,
            ..Default::default()
        };
        let r = engine_by_name("minhop")
            .unwrap()
            .route(&f, &lids, &opts)
            .unwrap();
        (f, lids, r.lfts)
    }

    #[test]
    fn first_pass_over_shared_tails_as_over_whole_paths() {
        let (f, lids, lfts) = pending_of_minhop();
        let walk = PathWalk::new(&f, &lids, &lfts);
        let (_, pending) = super::super::base::base_layer(&walk, false, false);
        let mut orders = vec![pending.clone(), pending.clone()];
        orders[1].reverse();
        for p in &orders {
            let want = first_pass_whole_paths(&walk, p);
            assert!(!want.0.is_empty() && !want.1.is_empty(), "{want:?}");
            let mut layer = walk.layer_in(walk.first_order());
            let mut refused = Vec::new();
            let taken = first_pass(&walk, &mut layer, p, |i, t| refused.push((i, t)));
            assert_eq!((taken, refused), want);
        }
    }
}
