//! Deadlock freedom by layering, for any engine's LFTs (`compile --vls N`).
//!
//! A routing is deadlock-free when the channel dependency graph of every
//! virtual lane is acyclic (Dally & Seitz 1987; algorithms.md §3). The
//! LFTs fix every path; what is left to choose is the SL of each path,
//! which with identity SL2VL tables is the VL it travels on. DFSSSP
//! (Domke, Hoefler, Nagel, IPDPS 2011; OpenSM's `osm_ucast_dfsssp.c`) puts
//! every path on layer 0 and, while a layer's graph has a cycle, moves the
//! paths of the cycle's weakest dependency up a layer. routec builds each
//! layer's graph path by path instead, keeping it acyclic with a dynamic
//! topological order ([`order::Layer`]): a path goes on the first layer
//! that takes all its dependencies without closing a cycle. That fixes the
//! number of layers; a second pass over the same paths, with that many
//! layers, puts each path on the least loaded layer that takes it, so the
//! paths spread over the VLs used. The LFTs are never changed.
//!
//! Paths are those the verifier checks: from every switch with end ports
//! toward every end-port LID, one per (source switch, LID) — the end ports
//! of a switch share the rest of its path, so they share its SL
//! (`model::vl::PathSl`). A path that no layer takes is left on the last
//! layer it tried, where the verifier then reports the cycle it closes.

mod order;
mod paths;

use crate::model::{Fabric, Lfts, LidMap, Note, PathSl, VlPlan};
use order::Layer;
use paths::{PathWalk, Turn};

/// The layering of a routing, and what it says about itself.
pub struct Layering {
    pub plan: VlPlan,
    /// Source end ports routed on each layer (index = SL = VL).
    pub load: Vec<u64>,
    /// Paths no layer took (left on the last layer they tried).
    pub unplaced: u64,
    pub notes: Vec<Note>,
}

/// Assigns every path of `lfts` a layer, at most `max_vls` of them.
pub fn assign_layers(fabric: &Fabric, lids: &LidMap, lfts: &Lfts, max_vls: u8) -> Layering {
    let walk = PathWalk::new(fabric, lids, lfts);
    let max = max_vls.clamp(1, 15) as usize;
    let first = place_all(&walk, max, Policy::FirstFit);
    let used = first.layers.len();
    if used <= 1 {
        return finish(&walk, first, max_vls);
    }
    // Spread the paths over the layers first-fit needed; keep the most even
    // placement that places as many paths.
    let total: u64 = first.layers.iter().map(|l| l.load).sum();
    let cap = total.div_ceil(used as u64);
    let best = [Policy::LeastLoaded, Policy::Capped(cap)]
        .into_iter()
        .map(|policy| place_all(&walk, used, policy))
        .chain([first])
        .min_by_key(|p| (p.unplaced, p.layers.iter().map(|l| l.load).max()))
        .expect("three placements");
    finish(&walk, best, max_vls)
}

/// How a path picks among the layers that take it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Policy {
    /// The lowest: as few layers as possible.
    FirstFit,
    /// The least loaded: the layers' loads even.
    LeastLoaded,
    /// The lowest whose load is under the cap, else the lowest: first-fit's
    /// structure with the load spread.
    Capped(u64),
}

/// One pass over every path.
struct Placement {
    layers: Vec<Layer>,
    sl: PathSl,
    unplaced: u64,
    /// The first path no layer took: the last layer it tried and the turn
    /// that layer refused.
    stuck: Option<(usize, Turn)>,
}

fn place_all(walk: &PathWalk, max: usize, policy: Policy) -> Placement {
    let mut p = Placement {
        layers: Vec::new(),
        sl: PathSl::zeros(walk.lfts),
        unplaced: 0,
        stuck: None,
    };
    if policy != Policy::FirstFit {
        p.layers = (0..max).map(|_| walk.new_layer()).collect();
    }
    let mut turns = Vec::new();
    let mut added = Vec::new();
    let mut order = Vec::with_capacity(max);
    for lid in walk.destinations() {
        for (src, weight) in walk.sources(lid) {
            turns.clear();
            walk.path_turns(src, lid, &mut turns);
            order.clear();
            order.extend(0..p.layers.len());
            match policy {
                Policy::FirstFit => {}
                Policy::LeastLoaded => order.sort_by_key(|&l| (p.layers[l].load, l)),
                Policy::Capped(cap) => order.sort_by_key(|&l| (p.layers[l].load >= cap, l)),
            }
            let mut refused = None;
            let chosen = order.iter().copied().find(|&l| {
                let r = try_insert(&mut p.layers[l], &turns, &mut added);
                refused = r.err().map(|i| (l, turns[i]));
                r.is_ok()
            });
            let layer = match chosen {
                Some(l) => l,
                None if p.layers.len() < max => {
                    p.layers.push(walk.new_layer());
                    let l = p.layers.len() - 1;
                    // A fresh layer takes any path: a path that does not
                    // loop never depends on itself.
                    let _ = try_insert(&mut p.layers[l], &turns, &mut added);
                    l
                }
                None => {
                    p.unplaced += 1;
                    let (l, t) = refused.unwrap_or_default();
                    p.stuck.get_or_insert((l, t));
                    l
                }
            };
            p.layers[layer].load += weight;
            p.sl.set(src as usize, lid, layer as u8);
        }
    }
    p
}

/// Adds every dependency of a path to `layer`, or none of them: on a
/// refusal the turns this path added go again (turns other paths brought
/// stay) and the index of the refused turn is returned.
fn try_insert(layer: &mut Layer, turns: &[Turn], added: &mut Vec<usize>) -> Result<(), usize> {
    added.clear();
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

fn finish(walk: &PathWalk, mut p: Placement, max_vls: u8) -> Layering {
    let mut notes = Vec::new();
    if let Some((last, t)) = p.stuck {
        let cycle = p.layers[last].cycle_through(t.from, t.to);
        notes.push(Note {
            code: "L001",
            message: format!(
                "{} path(s) fit on none of {max_vls} VLs without a credit loop; the first stays on VL {last}, \
                 where verification reports the loop (e.g. {})",
                p.unplaced,
                walk.describe_channels(&cycle)
            ),
        });
    }
    let vls = p.layers.len().max(1) as u8;
    Layering {
        load: p.layers.iter().map(|l| l.load).collect(),
        unplaced: p.unplaced,
        plan: VlPlan::layered(p.sl, vls),
        notes,
    }
}
