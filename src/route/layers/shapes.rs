//! A plan for Dmodc's escape paths by their shape, with no search
//! (`formats/dmodc.md` §9, "Lanes").
//!
//! Why: first fit (`pending`) tries every escape path on every layer with
//! a Pearce–Kelly search per disagreeing dependency; on the 27,648-host
//! RLFT with aggregation nodes that is 2.9 M paths and half a second,
//! more than Dmodc's whole routing. Yet escape paths have few shapes. Take
//! the switches in the total order of (leaf rank, GUID), an acyclic
//! orientation of every cable: an up–down path is up*·down* in it, and an
//! escape path — a detour to a switch with an up–down path, then that
//! path — is, on that fabric, a **valley** (down+·up+: from a spine or a
//! top down to a leaf, then up to the target's switch), a **dip**
//! (down+·up+·down+: the same, then down to a spine of another pod) or a
//! **hill** (up+·down+·up+: from a spine over a top to a leaf, then up).
//!
//! Valleys alone are deadlock-free on one VL: reversing every cable's
//! orientation makes each of them up*·down*, and up*·down* paths over an
//! acyclic orientation depend on channels in one order (Dally & Seitz
//! 1987; the argument of the base layer, `mod.rs`). Other shapes have no
//! such proof in general, but on fat trees each of their hops comes at
//! one place of the path (first down, then up from a leaf, …). So each
//! shape goes whole on one VL: all on VL 1 if their dependencies close no
//! cycle together, else by first fit of whole shapes, fewest runs first,
//! each VL's graph checked acyclic here (Kahn) and the whole routing
//! checked again by the verifier. A shape of more than [`MAX_RUNS`] runs,
//! a shape that closes a cycle alone, or more VLs than the caller has
//! hands the paths back to first fit.

use fixedbitset::FixedBitSet;
use rayon::prelude::*;

use super::fas::acyclic;
use super::paths::{Block, PathWalk, Turn};
use super::tree::{Memo, fresh_turns};
use super::{PathRef, Placement};

/// A path's shape in the (rank, GUID) order: its number of runs of hops
/// in one direction (1 to [`MAX_RUNS`]) times two, plus one when the
/// first run goes up. `SHORT`: one hop or none (no turn, never pending);
/// `LONG`: more runs, or a loop.
type Shape = u8;
const SHORT: Shape = 0;
const LONG: Shape = u8::MAX;
/// Most runs a shape plan takes: classes are told apart by a bit of the
/// per-switch marks of `fresh_turns`, 16 of them.
const MAX_RUNS: u8 = 7;

/// The shape of a hop (`up` or down) followed by a path of shape `rest`.
fn prepend(up: bool, rest: Shape) -> Shape {
    let (runs, first_up) = (rest >> 1, rest & 1 == 1);
    match rest {
        LONG => LONG,
        _ if first_up == up => rest,
        _ if runs >= MAX_RUNS => LONG,
        _ => (runs + 1) << 1 | u8::from(up),
    }
}

/// The shape of a one-hop path.
fn one_hop(up: bool) -> Shape {
    2 | u8::from(up)
}

/// One run of `pending`: each path's shape, and each shape's turns (ids).
struct Classes {
    shape: Vec<Shape>,
    turns: Vec<(Shape, FixedBitSet)>,
}

/// Places `pending` on layers 1 and up of `p` by shape, within `fit`
/// layers in all (base included); `false`, with `p` untouched, when the
/// shapes do not settle it and first fit must.
pub(super) fn place_by_shape(
    walk: &PathWalk,
    p: &mut Placement,
    pending: &[PathRef],
    fit: usize,
) -> bool {
    if fit < 2 || pending.is_empty() {
        return false;
    }
    let parts: Option<Vec<Classes>> = runs(pending)
        .par_iter()
        .map(|run| classify(walk, run))
        .collect();
    let Some(parts) = parts else {
        return false;
    };
    let Some(layer_of) = layers_of_shapes(walk, &parts, fit - 1) else {
        return false;
    };
    let used = layer_of.iter().copied().max().unwrap_or(0);
    let mut layers: Vec<_> = (0..used)
        .map(|_| walk.layer_in(walk.first_order()))
        .collect();
    let shapes = parts.iter().flat_map(|c| c.shape.iter().copied());
    for (&(src, lid, w), k) in pending.iter().zip(shapes) {
        let l = layer_of[usize::from(k)];
        p.sl.set(src as usize, lid, l as u8);
        layers[l - 1].load += w;
    }
    p.layers.extend(layers);
    true
}

/// The layer (1 and up) of each shape, by first fit of whole shapes in
/// order of their runs (valleys first, which alone never close a cycle):
/// all of them on layer 1 when their dependencies close no cycle together.
/// `None` when a shape closes a cycle alone, or more than `room` layers
/// would be needed. Turns are sets of ids, so each dependency is checked
/// once however many runs of paths saw it.
fn layers_of_shapes(walk: &PathWalk, parts: &[Classes], room: usize) -> Option<[usize; 256]> {
    let mut shapes: Vec<Shape> = parts
        .iter()
        .flat_map(|c| c.turns.iter().map(|e| e.0))
        .collect();
    shapes.sort_unstable_by_key(|&k| (k >> 1, k & 1));
    shapes.dedup();
    let acyclic_set = |turns: &FixedBitSet| acyclic(walk.channels(), &walk.turn_edges(turns));
    let mut layer_of = [0usize; 256];
    let mut layers: Vec<FixedBitSet> = Vec::new();
    for &k in &shapes {
        let mut mine = FixedBitSet::with_capacity(walk.turns());
        for (_, t) in parts.iter().flat_map(|c| &c.turns).filter(|e| e.0 == k) {
            mine.union_with(t);
        }
        let fits = layers.iter().position(|l| {
            let mut both = l.clone();
            both.union_with(&mine);
            acyclic_set(&both)
        });
        let at = match fits {
            Some(i) => i,
            None if layers.len() < room && acyclic_set(&mine) => {
                layers.push(FixedBitSet::with_capacity(walk.turns()));
                layers.len() - 1
            }
            None => return None,
        };
        layers[at].union_with(&mine);
        layer_of[usize::from(k)] = at + 1;
    }
    Some(layer_of)
}

/// `pending` cut into runs of whole LIDs, a few per thread.
fn runs(pending: &[PathRef]) -> Vec<&[PathRef]> {
    let want = pending.len() / (4 * rayon::current_num_threads()).max(1) + 1;
    let mut out = Vec::new();
    let mut rest = pending;
    while !rest.is_empty() {
        let mut end = want.min(rest.len());
        while end < rest.len() && rest[end].1 == rest[end - 1].1 {
            end += 1;
        }
        let (run, tail) = rest.split_at(end);
        out.push(run);
        rest = tail;
    }
    out
}

/// The shapes and dependencies of one run of paths: each switch's rest
/// of path toward a LID is shaped once (`Memo`), and each shape's turns
/// gathered once per switch and LID (`fresh_turns`). `None` on a `LONG`
/// path.
fn classify(walk: &PathWalk, run: &[PathRef]) -> Option<Classes> {
    let n = walk.switches();
    let (mut memo, mut blk) = (Memo::<Shape>::default(), Block::default());
    let mut marks = vec![0u16; n];
    // per shape: where its turns are in `out.turns`
    let mut at: Vec<Option<usize>> = vec![None; 256];
    let mut out = Classes {
        shape: Vec::with_capacity(run.len()),
        turns: Vec::new(),
    };
    let mut last = None;
    for &(src, lid, _) in run {
        if last != Some(lid) {
            memo.reset(n);
            marks.fill(0);
            last = Some(lid);
        }
        let col = walk.col(&mut blk, lid);
        let k = memo.of(walk, col, src, SHORT, LONG, |t: &Turn, rest| {
            let rest = match rest {
                SHORT => one_hop(walk.goes_up(t.to)),
                r => r,
            };
            prepend(walk.goes_up(t.from), rest)
        });
        if k == LONG || k == SHORT {
            return None;
        }
        let i = *at[usize::from(k)].get_or_insert_with(|| {
            out.turns
                .push((k, FixedBitSet::with_capacity(walk.turns())));
            out.turns.len() - 1
        });
        let bits = &mut out.turns[i].1;
        // shapes 2..=15 (one to seven runs): mark bits 0..=13
        fresh_turns(walk, col, src, &mut marks, usize::from(k - 2), |t| {
            bits.insert(t.id)
        });
        out.shape.push(k);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sequence of up to nine hops, shaped right to left as the memo
    /// does it, against its runs counted off the whole sequence.
    #[test]
    fn prepend_counts_the_runs_of_hop_sequences() {
        for len in 1..=9 {
            for bits in 0u32..1 << len {
                let ups: Vec<bool> = (0..len).map(|i| bits >> i & 1 == 1).collect();
                let got = ups[..len - 1]
                    .iter()
                    .rev()
                    .fold(one_hop(ups[len - 1]), |r, &u| prepend(u, r));
                let runs = 1 + ups.windows(2).filter(|w| w[0] != w[1]).count() as u8;
                let want = if runs > MAX_RUNS {
                    LONG
                } else {
                    runs << 1 | u8::from(ups[0])
                };
                assert_eq!(got, want, "{ups:?}");
            }
        }
    }
}
