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

use super::order::Layer;
use super::paths::{Block, PathWalk};
use super::pending::try_insert;
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
    let mut layers: Vec<Layer> = Vec::new();
    let (mut turns, mut added, mut blk) = (Vec::new(), Vec::new(), Block::default());
    let mut left = Vec::new();
    for (i, &(src, lid, w)) in pending.iter().enumerate() {
        let want = usize::from(prev.get(src as usize, lid));
        if want == 0 || want >= max {
            left.push(i);
            continue;
        }
        while layers.len() < want {
            layers.push(walk.layer_in(&start));
        }
        turns.clear();
        walk.path_turns(walk.col(&mut blk, lid), src, &mut turns);
        if try_insert(&mut layers[want - 1], &turns, &mut added).is_ok() {
            layers[want - 1].load += w;
            p.sl.set(src as usize, lid, want as u8);
        } else {
            left.push(i);
        }
    }
    for i in left {
        let (src, lid, w) = pending[i];
        turns.clear();
        walk.path_turns(walk.col(&mut blk, lid), src, &mut turns);
        let mut refused = None;
        let mut chosen =
            (0..layers.len()).find(|&l| match try_insert(&mut layers[l], &turns, &mut added) {
                Ok(()) => true,
                Err(t) => {
                    refused = Some((l + 1, turns[t]));
                    false
                }
            });
        if chosen.is_none() && layers.len() + 1 < max {
            // a fresh layer takes any path that does not loop
            let mut fresh = walk.layer_in(&start);
            let _ = try_insert(&mut fresh, &turns, &mut added);
            layers.push(fresh);
            chosen = Some(layers.len() - 1);
        }
        match chosen {
            Some(l) => {
                layers[l].load += w;
                p.sl.set(src as usize, lid, (l + 1) as u8);
            }
            None => {
                // left on the last layer it tried, where the verifier
                // reports the loop
                let (last, t) = refused.unwrap_or((1, turns.first().copied().unwrap_or_default()));
                p.unplaced += 1;
                p.stuck.get_or_insert((last, t));
                if let Some(l) = layers.get_mut(last - 1) {
                    l.load += w;
                }
                p.sl.set(src as usize, lid, last as u8);
            }
        }
    }
    p.layers.extend(layers);
}
