//! The channel dependency graph's figures for the report, and the proofs
//! that spare building and searching it (Autonet §6.6.1: links oriented by
//! ranks, no turn from down to up).

use super::{cdg, cdg_masks, topo, walk};
use crate::model::{Fabric, rank};

/// What the report says of the channel dependency graph.
pub(super) struct CdgFigures {
    pub(super) channels: usize,
    pub(super) edges: usize,
    /// VLs of the channels, as a bit set.
    pub(super) vls: u16,
    /// One cycle per cyclic component (`Cdg::cycles`).
    pub(super) cycles: Vec<Vec<cdg::Channel>>,
}

/// The graph's figures and cycles. When the up/down check passed (ranks
/// given, no violation) and the ranks orient every link one way
/// (`proven`), `updown::orients_every_link` proves the graph acyclic, so
/// only its size is counted: from the fast path's turn masks with the
/// exact pass's turns added (`cdg_masks`), or from the turn sets
/// (`cdg::census`); otherwise it is built and searched. Without given
/// ranks, `derived` (the verifier's own, orienting every link) proves it
/// the same way when no turn of the masks goes down then up by them
/// (`cdg_masks::down_up_vls`): min-hop's tables on a fat tree, whose graph
/// was built and searched for nothing. The proof holds VL by VL (no turn
/// changes VL where the masks apply), so only the VLs it fails for are
/// built and searched: with Dmodc's escape VLs, VL 0's up/down routes
/// (most of the turns) are counted and the escape VLs built. The figures
/// are the same either way (`walk_fast_tests`, `cdg_census_tests`).
pub(super) fn cdg_figures(
    topo: &topo::Topo,
    cx: &walk::WalkCtx,
    acc: &mut walk::Acc,
    fast: bool,
    proven: bool,
    derived: Option<&[u32]>,
) -> CdgFigures {
    let counted = |(channels, edges, vls)| CdgFigures {
        channels,
        edges,
        vls,
        cycles: Vec::new(),
    };
    // the VLs proven acyclic one by one, and their figures
    let (mut counted_vls, mut counted_figures) = (0u16, (0, 0, 0));
    if fast && (proven || derived.is_some()) {
        let mut masks = acc.take_turn_masks();
        if cdg_masks::add_turn_sets(topo, acc.turns.sets(), &mut masks) {
            let bad = derived.map_or(0, |r| cdg_masks::down_up_vls(topo, &masks, r, cx.guids));
            if bad == 0 {
                return counted(cdg_masks::census_masks(topo, &masks));
            }
            let (rest, good): (cdg_masks::TurnMasks, cdg_masks::TurnMasks) = masks
                .into_iter()
                .partition(|(vl, _)| bad & 1 << (vl & 15) != 0);
            counted_vls = good.iter().fold(0, |m, (vl, _)| m | 1 << (vl & 15));
            counted_figures = cdg_masks::census_masks(topo, &good);
            masks = rest;
        }
        // the masks may hold the exact pass's turns now too: flushed into
        // the sets that have them, they change nothing
        acc.put_turn_masks(masks);
    }
    if fast {
        acc.flush_fast(cx);
    }
    let mut turns = std::mem::replace(&mut acc.turns, cdg::TurnSets::new(0)).sorted();
    turns.retain(|((vl, _), _)| counted_vls & 1 << (vl & 15) == 0);
    if proven {
        return counted(cdg::census(topo, &turns));
    }
    let graph = cdg::Cdg::build(topo, &turns);
    let (_, cycles) = graph.cycles();
    let (channels, edges, vls) = counted_figures;
    CdgFigures {
        channels: channels + graph.nodes.len(),
        edges: edges + graph.num_edges(),
        vls: graph.nodes.iter().fold(vls, |m, c| m | 1 << c.vl),
        cycles,
    }
}

/// Ranks for [`cdg_figures`]' proof when none are given: those of
/// `--roots top` (counted from the switches farthest from the leaves), so
/// that on a fat tree "up" is toward its top. Any ranks that orient every
/// link would prove as much; these make min-hop's fat-tree routes up/down.
pub(super) fn derived_ranks(fabric: &Fabric) -> Vec<u32> {
    rank::bfs_ranks(fabric, &rank::top_switches(fabric))
}
