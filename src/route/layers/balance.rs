//! Spreading the paths over the VLs the layering uses: paths move off
//! layers above the even share onto the lightest layer under it that takes
//! them with no search (every dependency present or agreeing with its
//! order). A layer keeps the dependencies of paths that left it: a
//! superset of an acyclic path set's graph that is itself acyclic stays
//! so. Whether a layer takes a path freely only grows as paths move in
//! (orders never change), so it is worked out in parallel per chunk of
//! destinations and the moves are then made in (LID, source) order.

use rayon::prelude::*;

use super::Placement;
use super::paths::{Block, Col, PathWalk, Turn};
use super::tree::{Memo, fresh_turns};
use crate::model::{LFT_BLOCK, Lid};

/// Destinations whose candidate moves are held at once (bounded memory).
const CHUNK: usize = 256;

/// A path that may move: source switch, LID, end ports, its layer, and
/// the layers that take it freely (bit set).
type Candidate = (u32, Lid, u64, u8, u16);

pub(super) fn balance(walk: &PathWalk, p: &mut Placement) {
    let k = p.layers.len();
    let cap = p
        .layers
        .iter()
        .map(|l| l.load)
        .sum::<u64>()
        .div_ceil(k as u64);
    let lids: Vec<Lid> = walk.destinations().collect();
    let (mut added, mut blk): (Vec<u16>, _) = (Vec::new(), Block::default());
    for chunk in lids.chunks(CHUNK) {
        let over: Vec<bool> = p.layers.iter().map(|l| l.load > cap).collect();
        if !over.contains(&true) {
            return;
        }
        let groups: Vec<&[Lid]> = chunk
            .chunk_by(|a, b| a / LFT_BLOCK as Lid == b / LFT_BLOCK as Lid)
            .collect();
        let cands: Vec<Vec<Candidate>> = groups
            .par_iter()
            .map_init(
                || (Memo::default(), Block::default()),
                |(m, blk), lids| {
                    let found = lids.iter().map(|&lid| {
                        let col = walk.col(blk, lid);
                        candidates(walk, p, &over, col, lid, m)
                    });
                    found.collect::<Vec<_>>()
                },
            )
            .flatten()
            .collect();
        for per_lid in cands {
            added.clear();
            added.resize(walk.switches(), 0);
            for (src, lid, w, h, free) in per_lid {
                let h = usize::from(h);
                if p.layers[h].load <= cap {
                    continue;
                }
                let target = (0..k)
                    .filter(|&j| free & 1 << j != 0 && p.layers[j].load + w <= cap)
                    .min_by_key(|&j| (p.layers[j].load, j));
                if let Some(j) = target {
                    let layer = &mut p.layers[j];
                    let col = walk.col(&mut blk, lid);
                    fresh_turns(walk, col, src, &mut added, j, |t| {
                        layer.insert(t.id, t.from, t.to);
                    });
                    p.layers[j].load += w;
                    p.layers[h].load -= w;
                    p.sl.set(src as usize, lid, j as u8);
                }
            }
        }
    }
}

/// The paths toward `lid` on over-full layers that some other layer takes
/// freely.
fn candidates(
    walk: &PathWalk,
    p: &Placement,
    over: &[bool],
    col: Col,
    lid: Lid,
    m: &mut Memo<u16>,
) -> Vec<Candidate> {
    m.reset(walk.switches());
    let open = (0..over.len())
        .filter(|&j| !over[j])
        .fold(0u16, |b, j| b | 1 << j);
    let takes = |turn: &Turn, rest: u16| {
        let here = p.layers.iter().enumerate().filter(|(_, l)| l.takes(turn));
        here.fold(0u16, |b, (j, _)| b | 1 << j) & rest
    };
    let mut out = Vec::new();
    for (src, w) in walk.sources(lid) {
        let h = p.sl.get(src as usize, lid);
        if !over[usize::from(h)] {
            continue;
        }
        let free = m.of(walk, col, src, u16::MAX, 0, takes) & open;
        if free != 0 {
            out.push((src, lid, w, h, free));
        }
    }
    out
}
