//! The base layer of a routing that names the only destinations whose
//! paths may disagree with up*/down* (Dmodc with escape paths,
//! [`super::assign_layers_keeping_up_down`]): only those destinations'
//! paths are walked, the others go on the base layer by their number.
//!
//! One walk per destination does all of it: along the in-tree
//! ([`super::tree`]) each switch's rest of path is worked out once —
//! whether it agrees with the order, and how many turns it has — and the
//! turn it starts with is taken into the dependencies the cycle check
//! reads at that moment, since every switch the memo walks lies on some
//! source's path. (The general pass, [`super::base`], walks the paths a
//! second time to gather the turns of agreeing and disagreeing paths
//! apart, which only a layer built from them needs.)

use fixedbitset::FixedBitSet;
use rayon::prelude::*;

use super::PathRef;
use super::base::{Share, pass};
use super::fas::{acyclic, positions};
use super::order::Layer;
use super::paths::{Block, HOP_LIMIT, PathWalk, Turn};
use super::tree::Memo;
use crate::model::Lid;
use crate::model::scratch_pool::ScratchPool;

/// [`super::base::base_layer`] without its order search or graph, for a
/// routing whose paths toward every destination but `suspects` (ascending
/// LIDs) go up then down over the leaf ranks, so agree with the up*/down*
/// order: only the suspects' paths are walked (5 % of the LIDs of the
/// 27,648-host RLFT with aggregation nodes), the others go on the base
/// layer by their number alone. The one answer that needs every path —
/// whether the whole routing closes a cycle, when every path goes on one
/// layer — is settled by a cycle among the suspects' dependencies alone (a
/// subgraph's cycle is the whole graph's); `None` when they close none (a
/// routing that may need one VL only, or none of whose paths disagree),
/// and the caller walks every path.
pub(super) fn base_layer_of_suspects(
    walk: &PathWalk,
    suspects: &[Lid],
) -> Option<(Layer, Vec<PathRef>)> {
    let order = walk.first_order();
    let blocks = walk.destination_blocks_of(suspects);
    let (load, pending, edges) = match one_walk(walk, order, &blocks) {
        Some(x) => x,
        None => general(walk, order, &blocks),
    };
    if pending.is_empty() {
        return None;
    }
    // Whether they close a cycle depends neither on the edges' order nor
    // on repeats (Kahn counts a repeated edge in and out alike): no sort.
    if acyclic(order.len(), &edges) {
        return None;
    }
    let walked: usize = blocks.iter().map(Vec::len).sum();
    let others = (walk.destinations().count() - walked) as u64;
    let mut layer = walk.layer_in(order);
    layer.load = load + others * walk.source_weight();
    Some((layer, pending))
}

/// Agreeing load, disagreeing paths in (LID, source) order, dependencies.
type Found = (u64, Vec<PathRef>, Vec<(u32, u32)>);

/// The general pass's answer ([`pass`]): for routings with a path near the
/// hop limit, whose walks it cuts where this module's would not.
fn general(walk: &PathWalk, order: &[u32], blocks: &[Vec<Lid>]) -> Found {
    let Share {
        turns,
        other,
        load,
        pending,
        ..
    } = pass(walk, order, blocks);
    let edges = turns.iter().chain(&other).map(|t| (t.from, t.to)).collect();
    (load, pending, edges)
}

/// A destination's share of [`one_walk`].
#[derive(Default)]
struct Part {
    load: u64,
    pending: Vec<PathRef>,
    /// Ids of the turns first seen by this task.
    turns: Vec<u32>,
    /// Some path is within a few hops of the hop limit, or loops.
    long: bool,
}

/// A rest of path's memo value: its turn count, times two, plus one if it
/// agrees with the order. `LOOPED`: cut at the hop limit.
const LOOPED: u32 = u32::MAX;

/// Turns from which a path counts as long: the general pass's walks
/// ([`super::tree::fresh_turns`], [`HOP_LIMIT`] steps) then still see
/// every turn of every shorter path, so both gather the same dependencies.
const LONG: u32 = HOP_LIMIT as u32 - 4;

/// The suspects' paths, one task per LFT block, each switch's rest of
/// path worked out once per LID. `None` when some path is long (or turn
/// ids overflow the u32 the tasks keep them in).
fn one_walk(walk: &PathWalk, order: &[u32], blocks: &[Vec<Lid>]) -> Option<Found> {
    let n = walk.turns();
    if u32::try_from(n).is_err() {
        return None;
    }
    let pos = positions(order);
    // one scratch a running task (`ScratchPool`): `map_init` made 17 on 2
    // threads on the 27,648-host RLFT with aggregation nodes, each with a
    // 900 KB set of turn ids (the columns are preloaded: `blk` stays
    // empty unless a LID is not) (issue 13)
    let scratch = ScratchPool::default();
    let make = || {
        (
            Memo::default(),
            Block::default(),
            FixedBitSet::with_capacity(n),
        )
    };
    let parts: Vec<Part> = blocks
        .par_iter()
        .map(|lids| scratch.with(make, |sc| block_part(walk, &pos, sc, lids)))
        .collect();
    if parts.iter().any(|p| p.long) {
        return None;
    }
    let load = parts.iter().map(|p| p.load).sum();
    // tasks see some turns again: one set of ids holds each once, and the
    // cycle check then reads every dependency once
    let mut seen = FixedBitSet::with_capacity(walk.turns());
    let (paths, turns): (Vec<_>, Vec<_>) = parts.into_iter().map(|p| (p.pending, p.turns)).unzip();
    let pending = rayon::join(
        || concat(paths),
        || seen.extend(turns.iter().flatten().map(|&t| t as usize)),
    )
    .0;
    let edges = walk.turn_edges(&seen);
    Some((load, pending, edges))
}

/// The suspects' paths toward `lids` (one LFT block's), with the scratch
/// of a task: a memo and columns reset per LID, and the turn ids this
/// scratch has seen (each listed once per scratch; the caller unites them).
fn block_part(
    walk: &PathWalk,
    pos: &[u32],
    (memo, blk, seen): &mut (Memo<u32>, Block, FixedBitSet),
    lids: &[Lid],
) -> Part {
    let mut part = Part::default();
    for &lid in lids {
        let col = walk.col(blk, lid);
        memo.reset(walk.switches());
        let turns = &mut part.turns;
        let mut step = |t: &Turn, rest: u32| {
            if !seen.put(t.id) {
                turns.push(t.id as u32);
            }
            if rest == LOOPED {
                return LOOPED;
            }
            let agrees = rest & 1 == 1 && pos[t.from as usize] < pos[t.to as usize];
            ((rest >> 1) + 1) << 1 | u32::from(agrees)
        };
        for (src, w) in walk.sources(lid) {
            let v = memo.of(walk, col, src, 1, LOOPED, &mut step);
            if v == LOOPED || v >> 1 >= LONG {
                part.long = true;
                return part;
            }
            if v & 1 == 1 {
                part.load += w;
            } else {
                part.pending.push((src, lid, w));
            }
        }
    }
    part
}

/// The parts' paths in order, copied in parallel: on the 27,648-host RLFT
/// with aggregation nodes they are 2.9 M paths (46 MB), which one thread
/// copied, faulting the pages in, in about 25 ms (issue 13). The zeroed
/// vector comes from fresh pages, each faulted in by the task that fills
/// it, and each part is freed by the task that copied it.
fn concat(parts: Vec<Vec<PathRef>>) -> Vec<PathRef> {
    let mut out = vec![(0, 0, 0); parts.iter().map(|p| p.len()).sum()];
    super::cut(&mut out, parts.iter().map(Vec::len))
        .into_par_iter()
        .zip(parts)
        .for_each(|(d, s)| d.copy_from_slice(&s));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::layers::pending::tests::pending_of_minhop;

    /// The one walk per LID against the general pass (two walks per
    /// source, kept as the oracle): same agreeing load, same disagreeing
    /// paths in the same order, same set of dependencies, on a min-hop
    /// routing whose paths toward the spines' and cores' CAs go down then up.
    #[test]
    fn one_walk_finds_what_the_general_pass_finds() {
        let (f, lids, lfts) = pending_of_minhop();
        let walk = PathWalk::new(&f, &lids, &lfts);
        let all: Vec<Lid> = walk.destinations().collect();
        let order = walk.first_order();
        let blocks = walk.destination_blocks_of(&all);
        let (load, pending, mut edges) = one_walk(&walk, order, &blocks).expect("no long path");
        let (want_load, want_pending, mut want_edges) = general(&walk, order, &blocks);
        assert!(
            !pending.is_empty() && load > 0,
            "the fixture has both kinds"
        );
        assert_eq!((load, &pending), (want_load, &want_pending));
        for e in [&mut edges, &mut want_edges] {
            e.sort_unstable();
            e.dedup();
        }
        assert_eq!(edges, want_edges);
    }
}
