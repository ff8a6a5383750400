//! FBTC, first build then colour (seed:mr4lms §3.1, Alg. 1): build the
//! lowest, least-loaded tree from each candidate root in load order and
//! keep the first one that some colour fits.

use crate::model::SwIdx;

use super::state::{ColourState, TreeNode};
use super::topo::SwitchGraph;
use super::walk::{Candidates, Scratch, build_bottom_up, order_by_load};
use crate::model::Member;

/// A tree that fits: its root, colour and switches.
#[derive(Clone, Debug)]
pub struct Placed {
    pub root: SwIdx,
    pub colour: u16,
    pub nodes: Vec<TreeNode>,
}

/// Alg. 1; `None` means every candidate root failed to colour (merge next).
pub fn fbtc(
    graph: &SwitchGraph,
    state: &ColourState,
    members: &[Member],
    cands: &Candidates,
    scratch: &mut Scratch,
) -> Option<Placed> {
    for root in order_by_load(state, &cands.roots) {
        let nodes = build_bottom_up(graph, state, members, root, scratch);
        if let Some(colour) = state.first_free_colour(&nodes, &mut scratch.used) {
            return Some(Placed {
                root,
                colour,
                nodes,
            });
        }
    }
    None
}
