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
/// (`cdg_masks::no_down_up`): min-hop's tables on a fat tree, whose graph
/// was built and searched for nothing. The figures are the same either
/// way (`walk_fast_tests`, `cdg_census_tests`).
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
    if fast && (proven || derived.is_some()) {
        let mut masks = acc.take_turn_masks();
        if cdg_masks::add_turn_sets(topo, acc.turns.sets(), &mut masks)
            && derived.is_none_or(|r| cdg_masks::no_down_up(topo, &masks, r, cx.guids))
        {
            return counted(cdg_masks::census_masks(topo, &masks));
        }
        // the masks may hold the exact pass's turns now too: flushed into
        // the sets that have them, they change nothing
        acc.put_turn_masks(masks);
    }
    if fast {
        acc.flush_fast(cx);
    }
    let turns = std::mem::replace(&mut acc.turns, cdg::TurnSets::new(0)).sorted();
    if proven {
        return counted(cdg::census(topo, &turns));
    }
    let graph = cdg::Cdg::build(topo, &turns);
    let (_, cycles) = graph.cycles();
    CdgFigures {
        channels: graph.nodes.len(),
        edges: graph.num_edges(),
        vls: graph.nodes.iter().fold(0u16, |m, c| m | 1 << c.vl),
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
