//! Placing the paths off the base layer while keeping the SLs a previous
//! run gave them (`compile --previous`, `formats/state.md` step 6).
//!
//! First fit from scratch deals the paths over the layers anew: after an
//! incremental change most escape paths are the previous run's, yet many
//! would move to another VL. While the change is uploaded a source may
//! still use its old SL beside sources on their new ones, and paths that
//! moved between VLs can close a credit loop then (`diff --plan`, "Virtual
//! lanes"). So each path first tries the layer of its previous SL, and
//! only the paths that no longer fit there (or had none) go by first fit.

use super::paths::{Block, PathWalk, Turn};
use super::pending::{Upper, try_insert};
use super::seed::pending_seed;
use super::{PathRef, Placement};
use crate::model::PathSl;

/// Places `pending` on layers 1 .. `max` − 1 of `p`, each path on the layer
/// of its SL in `prev` when that takes it, else by first fit.
pub(super) fn place_keeping(
    walk: &PathWalk,
    p: &mut Placement,
    pending: &[PathRef],
    max: usize,
    prev: &PathSl,
) {
    let start = pending_seed(walk, pending);
    let mut upper = Upper::new(&start, 1, max - 1);
    let (mut turns, mut added, mut blk) = (Vec::new(), Vec::new(), Block::default());
    let mut left = Vec::new();
    for (i, &(src, lid, w)) in pending.iter().enumerate() {
        let want = usize::from(prev.get(src as usize, lid));
        if want == 0 || want >= max {
            left.push((i, (0, Turn::default())));
            continue;
        }
        while upper.layers.len() < want {
            upper.layers.push(walk.layer_in(&start));
        }
        turns.clear();
        walk.path_turns(walk.col(&mut blk, lid), src, &mut turns);
        match try_insert(&mut upper.layers[want - 1], &turns, &mut added) {
            Ok(()) => {
                upper.layers[want - 1].load += w;
                p.sl.set(src as usize, lid, want as u8);
            }
            Err(t) => left.push((i, (want, turns[t]))),
        }
    }
    // the others by first fit over the layers as they are, as `pending`
    // places the paths layer 1 refuses
    for (i, refused) in left {
        upper.place(walk, i, pending[i], refused);
    }
    for &(i, layer) in &upper.assigned {
        let (src, lid, _) = pending[i];
        p.sl.set(src as usize, lid, layer as u8);
    }
    p.layers.extend(upper.layers);
    (p.unplaced, p.stuck) = (upper.unplaced, upper.stuck);
}
