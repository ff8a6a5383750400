//! Merging groups when no colour fits (seed:mr4lms §3.3, Alg. 4): join the
//! nearest existing tree by the group distance of equation (1), absorb the
//! trees that hold its colour on a temporary tree's switches, and build the
//! virtual group's tree in G_color.

use super::dijkstra::build_dijkstra;
use super::fbtc::Placed;
use super::nearest::Proximity;
use super::state::{ColourState, TreeId};
use super::topo::{SwitchGraph, UNREACHABLE};
use super::walk::{
    Avail, Scratch, attachment_map, build_bottom_up, candidate_roots, connected_in, ecc_within,
    eccentricities, order_by_load,
};
use crate::model::Member;
use crate::model::SwIdx;

/// A merge: the tree for the virtual group and the trees it replaces.
#[derive(Clone, Debug)]
pub struct Merged {
    pub placed: Placed,
    pub absorbed: Vec<TreeId>,
    pub members: Vec<Member>,
}

fn union(a: &[Member], b: &[Member]) -> Vec<Member> {
    let mut v: Vec<Member> = a.iter().chain(b).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Alg. 4 l.⑪–⑬: the G_color switch nearest to all of `members` (least
/// eccentricity in G_color), ties by eccentricity in G, load, index.
/// The G eccentricity is a lower bound of the G_color one, so switches are
/// tried in (G eccentricity, load, index) order with one depth-bounded BFS
/// each, and the scan stops once no later switch can do strictly better:
/// the same root as evaluating the key on every switch, without a BFS per
/// member leaf.
fn merge_root(
    graph: &SwitchGraph,
    avail: Avail,
    members: &[Member],
    scratch: &mut Scratch,
) -> Option<SwIdx> {
    let ecc_g = eccentricities(graph, members);
    let load = &avail.state.sw_load;
    let mut order: Vec<SwIdx> = (0..graph.num_switches())
        .map(|s| SwIdx(s as u32))
        .filter(|&s| avail.ok(s))
        .collect();
    order.sort_unstable_by_key(|&s| (ecc_g[s.ix()], load[s.ix()], s));
    let (extra, count) = attachment_map(graph.num_switches(), members);
    let mut best: Option<(u8, SwIdx)> = None;
    for s in order {
        let limit = match best {
            Some((e, _)) if ecc_g[s.ix()] >= e => break,
            Some((e, _)) => e - 1,
            None => UNREACHABLE,
        };
        if let Some(e) = ecc_within(graph, avail, s, (&extra, count), limit, scratch) {
            best = Some((e, s));
        }
    }
    best.map(|b| b.1)
}

/// Alg. 4. `keep_old` keeps the absorbed trees' links (strategy 2 of
/// §3.3.2); otherwise the virtual group gets a fresh Dijkstra tree.
pub fn merge(
    graph: &SwitchGraph,
    state: &ColourState,
    group: &[Member],
    keep_old: bool,
    prox: &mut Proximity,
    scratch: &mut Scratch,
) -> Option<Merged> {
    let first = prox.nearest(graph, state, group)?;
    let colour = state.trees[first as usize].colour;
    let mut own = vec![first];
    let mut members = union(group, &state.trees[first as usize].members);
    while !connected_in(
        graph,
        Avail {
            state,
            colour,
            own: &own,
        },
        &members,
        scratch,
    ) {
        let cands = candidate_roots(graph, &members)?;
        let root = *order_by_load(state, &cands.roots)
            .first()
            .or(cands.roots.first())?;
        let temp = build_bottom_up(graph, state, &members, root, scratch);
        let mut joined: Vec<Member> = Vec::new();
        for n in &temp {
            let t = state.owner(n.sw, colour);
            if t == super::state::NO_TREE {
                continue;
            }
            if let Err(at) = own.binary_search(&t) {
                own.insert(at, t);
                joined.extend_from_slice(&state.trees[t as usize].members);
            }
        }
        if joined.is_empty() {
            return None;
        }
        members = union(&members, &joined);
    }
    let avail = Avail {
        state,
        colour,
        own: &own,
    };
    let root = merge_root(graph, avail, &members, scratch)?;
    let keep: &[TreeId] = if keep_old { &own } else { &[] };
    let nodes = build_dijkstra(graph, avail, root, &members, keep)?;
    Some(Merged {
        placed: Placed {
            root,
            colour,
            nodes,
        },
        absorbed: own,
        members,
    })
}
