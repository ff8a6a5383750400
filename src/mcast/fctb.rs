//! FCTB, first colour then build (seed:mr4lms §3.2, Alg. 3): for each
//! colour, look for a root from which the members are as close in G_color
//! as in G, then build the tree there with Dijkstra (Alg. 5).

use super::dijkstra::build_dijkstra;
use super::fbtc::Placed;
use super::state::ColourState;
use super::topo::SwitchGraph;
use super::walk::{Avail, Candidates, Scratch, connected_in, eccentricities_in, order_by_load};
use crate::model::Member;

/// Alg. 3; `None` when no colour admits a minimum-height tree (merge next).
pub fn fctb(
    graph: &SwitchGraph,
    state: &ColourState,
    members: &[Member],
    cands: &Candidates,
    scratch: &mut Scratch,
) -> Option<Placed> {
    let roots = order_by_load(state, &cands.roots);
    let first_root = *roots.first()?;
    let limit = (state.mft_size as usize).min(state.colour_trees.len() + 1);
    for c in 0..limit {
        let colour = c as u16;
        let avail = Avail {
            state,
            colour,
            own: &[],
        };
        let unused = state.colour_trees.get(c).is_none_or(|&n| n == 0);
        let root = if unused {
            // G_color is G: every candidate root keeps its height.
            first_root
        } else {
            if !connected_in(graph, avail, members, scratch) {
                continue;
            }
            let ecc = eccentricities_in(graph, avail, members, scratch);
            match roots
                .iter()
                .find(|r| avail.ok(**r) && ecc[r.ix()] == cands.ecc)
            {
                Some(&r) => r,
                None => continue,
            }
        };
        if let Some(nodes) = build_dijkstra(graph, avail, root, members, &[]) {
            return Some(Placed {
                root,
                colour,
                nodes,
            });
        }
    }
    None
}
