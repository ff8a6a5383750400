//! Deadlock freedom by layering, for any engine's LFTs (`compile --vls N`).
//!
//! A routing is deadlock-free when the channel dependency graph of every
//! virtual lane is acyclic (Dally & Seitz 1987; algorithms.md §3). The
//! LFTs fix every path; what is left to choose is the SL of each path,
//! which with identity SL2VL tables is the VL it travels on. DFSSSP
//! (Domke, Hoefler, Nagel, IPDPS 2011, §IV; OpenSM's `osm_ucast_dfsssp.c`)
//! puts every path on layer 0 and, while a layer's graph has a cycle,
//! moves the paths of the cycle's weakest dependency up a layer, one cycle
//! search per move. routec starts from an order of the channels instead:
//! up*/down* over ranks counted from the leaves, which every up-then-down
//! route agrees with, so on a fat tree every path goes on the base layer
//! with no search at all. The paths that disagree are placed one by one on
//! the first further layer that takes all their dependencies without
//! closing a cycle, each layer kept acyclic by a dynamic topological order
//! ([`order::Layer`]) seeded by [`fas`]. On the production-like fabric of
//! the benches 93 % of the paths take the base layer free, and layering
//! takes about a tenth of the time first fit over all layers did. Last, paths move from
//! layers above the even share to lighter layers that take them with no
//! search, so the paths spread over the VLs used; a layer keeps the
//! dependencies of paths that left it (a superset of an acyclic path set's
//! graph that is itself acyclic stays so). The LFTs are never changed.
//!
//! Paths are those the verifier checks: from every switch with end ports
//! toward every end-port LID, one per (source switch, LID) — the end ports
//! of a switch share the rest of its path, so they share its SL
//! (`model::vl::PathSl`). A path that no layer takes is left on the last
//! layer it tried, where the verifier then reports the cycle it closes.

mod fas;
mod order;
mod paths;

use crate::model::{Fabric, Lfts, Lid, LidMap, Note, PathSl, VlPlan};
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
    let (mut p, pending) = base_layer(&walk);
    place_pending(&walk, &mut p, &pending, max);
    if p.layers.len() > 1 && p.unplaced == 0 {
        balance(&walk, &mut p);
    }
    finish(&walk, p, max_vls)
}

/// Layers, the SL of every path, and the paths no layer took.
struct Placement {
    layers: Vec<Layer>,
    sl: PathSl,
    unplaced: u64,
    /// The first path no layer took: the last layer it tried and the turn
    /// that layer refused.
    stuck: Option<(usize, Turn)>,
}

/// A path by its source switch and destination LID, with its end ports.
type PathRef = (u32, Lid, u64);

/// Every path on one layer if the up*/down* order takes them all (every
/// fat tree), else the paths that agree with the [`fas`] order; the rest
/// are returned in (LID, source) order.
fn base_layer(walk: &PathWalk) -> (Placement, Vec<PathRef>) {
    let pos0 = fas::positions(walk.first_order());
    let mut weight = vec![0u64; walk.turns()];
    let mut distinct: Vec<Turn> = Vec::new();
    let mut agree = true;
    let mut turns = Vec::new();
    for lid in walk.destinations() {
        for (src, w) in walk.sources(lid) {
            turns.clear();
            walk.path_turns(src, lid, &mut turns);
            for t in &turns {
                if weight[t.id] == 0 {
                    distinct.push(*t);
                }
                weight[t.id] += w;
                agree &= pos0[t.from as usize] < pos0[t.to as usize];
            }
        }
    }
    let order = if agree {
        walk.first_order().to_vec()
    } else {
        let edges: Vec<fas::Edge> = distinct
            .iter()
            .map(|t| (t.from, t.to, weight[t.id]))
            .collect();
        seed(walk, &edges)
    };
    let mut base = walk.layer_in(&order);
    let mut pending = Vec::new();
    for lid in walk.destinations() {
        for (src, w) in walk.sources(lid) {
            turns.clear();
            walk.path_turns(src, lid, &mut turns);
            if base.takes_freely(&turns) {
                add_free(&mut base, &turns, w);
            } else {
                pending.push((src, lid, w));
            }
        }
    }
    let p = Placement {
        layers: vec![base],
        sl: PathSl::zeros(walk.lfts),
        unplaced: 0,
        stuck: None,
    };
    (p, pending)
}

/// The better start for a layer over `edges`: the up*/down* order or the
/// DFS seed, by the path weight that goes against each.
fn seed(walk: &PathWalk, edges: &[fas::Edge]) -> Vec<u32> {
    let dfs = fas::order(walk.first_order().len(), edges, walk.first_order());
    if fas::against(&dfs, edges) < fas::against(walk.first_order(), edges) {
        dfs
    } else {
        walk.first_order().to_vec()
    }
}

/// Adds a path the layer takes freely (no search, no reorder).
fn add_free(layer: &mut Layer, turns: &[Turn], weight: u64) {
    for t in turns {
        layer.insert(t.id, t.from, t.to);
    }
    layer.load += weight;
}

/// First fit over the layers above the base one, opening layers up to `max`.
fn place_pending(walk: &PathWalk, p: &mut Placement, pending: &[PathRef], max: usize) {
    let (mut turns, mut added) = (Vec::new(), Vec::new());
    let start = pending_seed(walk, pending);
    for &(src, lid, weight) in pending {
        turns.clear();
        walk.path_turns(src, lid, &mut turns);
        let mut refused = None;
        let chosen = (1..p.layers.len()).find(|&l| {
            let r = try_insert(&mut p.layers[l], &turns, &mut added);
            refused = r.err().map(|i| (l, turns[i]));
            r.is_ok()
        });
        let layer = match chosen {
            Some(l) => l,
            None if p.layers.len() < max => {
                p.layers.push(walk.layer_in(&start));
                let l = p.layers.len() - 1;
                // A fresh layer takes any path: a path that does not
                // loop never depends on itself.
                let _ = try_insert(&mut p.layers[l], &turns, &mut added);
                l
            }
            None => {
                p.unplaced += 1;
                let (l, t) = refused.unwrap_or((0, turns.first().copied().unwrap_or_default()));
                p.stuck.get_or_insert((l, t));
                l
            }
        };
        p.layers[layer].load += weight;
        p.sl.set(src as usize, lid, layer as u8);
    }
}

/// The seed order of the layers above the base one, from the dependencies
/// of the paths waiting for them.
fn pending_seed(walk: &PathWalk, pending: &[PathRef]) -> Vec<u32> {
    let mut weight = vec![0u64; walk.turns()];
    let mut distinct: Vec<Turn> = Vec::new();
    let mut turns = Vec::new();
    for &(src, lid, w) in pending {
        turns.clear();
        walk.path_turns(src, lid, &mut turns);
        for t in &turns {
            if weight[t.id] == 0 {
                distinct.push(*t);
            }
            weight[t.id] += w;
        }
    }
    let edges: Vec<fas::Edge> = distinct
        .iter()
        .map(|t| (t.from, t.to, weight[t.id]))
        .collect();
    seed(walk, &edges)
}

/// Moves paths off layers above the even share onto the lightest layer
/// under it that takes them freely, in (LID, source) order.
fn balance(walk: &PathWalk, p: &mut Placement) {
    let k = p.layers.len();
    let cap = p
        .layers
        .iter()
        .map(|l| l.load)
        .sum::<u64>()
        .div_ceil(k as u64);
    let mut turns = Vec::new();
    let mut lighter: Vec<usize> = Vec::with_capacity(k);
    for lid in walk.destinations() {
        for (src, w) in walk.sources(lid) {
            let h = usize::from(p.sl.get(src as usize, lid));
            if p.layers[h].load <= cap {
                continue;
            }
            lighter.clear();
            lighter.extend((0..k).filter(|&j| p.layers[j].load + w <= cap));
            lighter.sort_by_key(|&j| (p.layers[j].load, j));
            turns.clear();
            walk.path_turns(src, lid, &mut turns);
            if let Some(&j) = lighter.iter().find(|&&j| p.layers[j].takes_freely(&turns)) {
                add_free(&mut p.layers[j], &turns, w);
                p.layers[h].load -= w;
                p.sl.set(src as usize, lid, j as u8);
            }
        }
    }
}

/// Adds every dependency of a path to `layer`, or none of them: on a
/// refusal the turns this path added go again (turns other paths brought
/// stay) and the index of the refused turn is returned.
fn try_insert(layer: &mut Layer, turns: &[Turn], added: &mut Vec<usize>) -> Result<(), usize> {
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
