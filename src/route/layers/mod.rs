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
//! with no search at all (`base`; a routing that closes no cycle stays
//! on one layer whatever its shape). The paths that disagree are placed
//! one by one on the first further layer that takes all their dependencies
//! without closing a cycle (`pending`), each layer kept acyclic by a
//! dynamic topological order (`order::Layer`) seeded by `fas`. On the
//! production-like fabric of the benches 93 % of the paths take the base
//! layer free, and layering takes 0.8 s where first fit over all layers
//! took 13 s. Last, paths move from layers above the even share to lighter
//! layers that take them with no search (`balance`), so the paths spread
//! over the VLs used. Dmodc's escape paths, when there are many, are laid
//! out by shape before any search (`shapes`). The LFTs are never changed.
//!
//! Paths are those the verifier checks: from every switch with end ports
//! toward every end-port LID, one per (source switch, LID) — the end ports
//! of a switch share the rest of its path, so they share its SL
//! (`model::vl::PathSl`). A path that no layer takes is left on the last
//! layer it tried, where the verifier then reports the cycle it closes.

mod balance;
mod base;
mod fas;
mod keep;
mod order;
mod paths;
mod pending;
mod seed;
mod shapes;
mod suspects;
mod tails;
mod tree;

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
    layering(fabric, lids, lfts, Fit::first(max_vls), false, None, None)
}

/// Disagreeing paths from which a keeping layering tries a plan by shape
/// (`shapes`) before first fit. Below it first fit is cheap, and it packs
/// the lower layers tighter (path by path rather than shape by shape);
/// above it first fit's searches outgrow the engine's whole routing (2.9 M
/// paths, 0.45 s of 1.0 s, on the 27,648-host RLFT with aggregation nodes).
pub const SHAPES_FROM: usize = 20_000;

/// How a keeping layering may place the paths off its base layer.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Layers first fit may open (the engines ask for 15 to learn how many
    /// a routing needs).
    pub max_vls: u8,
    /// Layers a plan by shape may use in all (the VLs the user gave); 0:
    /// first fit only.
    pub shape_vls: u8,
    /// Fewest disagreeing paths for a plan by shape ([`SHAPES_FROM`]).
    pub shapes_from: usize,
}

impl Fit {
    /// First fit alone, up to `max_vls` layers.
    pub fn first(max_vls: u8) -> Fit {
        Fit {
            max_vls,
            shape_vls: 0,
            shapes_from: usize::MAX,
        }
    }

    /// An engine's: first fit up to `max_vls` layers, or on many paths
    /// a plan by shape within the user's `vls`.
    pub fn engine(max_vls: u8, vls: u8) -> Fit {
        Fit {
            max_vls,
            shape_vls: vls,
            shapes_from: SHAPES_FROM,
        }
    }
}

/// [`assign_layers`] for a routing whose up*/down* paths must stay on VL 0
/// (Dmodc with escape paths, `route::dmodc::lanes`): the base layer is the
/// up*/down* one (or every path when none closes a cycle), and no path
/// moves off it to balance the layers.
pub fn assign_layers_keeping_base(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    fit: Fit,
) -> Layering {
    layering(fabric, lids, lfts, fit, true, None, None)
}

/// [`assign_layers_keeping_base`] for a routing that names the only
/// destinations whose paths may disagree with up*/down* (`suspects`,
/// ascending): every path toward any other LID must go up then down over
/// the ranks counted from the compute leaves (`model::rank::leaf_ranks`),
/// like Dmodc's up–down routes; those are not walked one by one. The
/// result is the one [`assign_layers_keeping_base`] gives; a routing that
/// breaks the promise is caught by the verifier, which reads the tables.
pub fn assign_layers_keeping_up_down(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    fit: Fit,
    suspects: &[Lid],
) -> Layering {
    layering(fabric, lids, lfts, fit, true, Some(suspects), None)
}

/// [`assign_layers_keeping_up_down`] for tables merged from a previous
/// run's (`compile --previous`): each path off the base layer stays on the
/// layer of its SL in `previous` when that layer takes it (`keep`).
pub fn assign_layers_keeping_sls(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    max_vls: u8,
    suspects: &[Lid],
    previous: &PathSl,
) -> Layering {
    layering(
        fabric,
        lids,
        lfts,
        Fit::first(max_vls),
        true,
        Some(suspects),
        Some(previous),
    )
}

fn layering(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    fit: Fit,
    keep: bool,
    suspects: Option<&[Lid]>,
    previous: Option<&PathSl>,
) -> Layering {
    let max_vls = fit.max_vls;
    let mut walk = PathWalk::new(fabric, lids, lfts);
    let max = max_vls.clamp(1, 15) as usize;
    // Without a graph of the base layer (first fit starts above it, no
    // balancing follows) only the suspects' paths need walking.
    let suspects = suspects.filter(|_| keep && max >= 2);
    if let Some(s) = suspects {
        walk.preload(s);
    }
    let known = suspects.and_then(|s| suspects::base_layer_of_suspects(&walk, s));
    let (base, pending) = known.unwrap_or_else(|| base::base_layer(&walk, !keep, !keep || max < 2));
    let mut p = Placement {
        layers: vec![base],
        sl: PathSl::zeros(lfts),
        unplaced: 0,
        stuck: None,
    };
    match previous {
        Some(prev) if max >= 2 && !pending.is_empty() => {
            keep::place_keeping(&walk, &mut p, &pending, max, prev)
        }
        _ if keep
            && pending.len() >= fit.shapes_from
            && shapes::place_by_shape(&walk, &mut p, &pending, max.min(fit.shape_vls.into())) => {}
        _ => pending::place_pending(&walk, &mut p, &pending, max),
    }
    if !keep && p.layers.len() > 1 && p.unplaced == 0 {
        balance::balance(&walk, &mut p);
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

/// `buf` cut into consecutive slices of the given lengths, one per task of
/// a parallel fill (the preloaded columns, the joined pending paths).
fn cut<T>(buf: &mut [T], lens: impl IntoIterator<Item = usize>) -> Vec<&mut [T]> {
    let mut rest = buf;
    lens.into_iter()
        .map(|len| {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            head
        })
        .collect()
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
