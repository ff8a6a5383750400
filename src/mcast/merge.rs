//! Merging groups when no colour fits (seed:mr4lms §3.3, Alg. 4): join the
//! nearest existing tree by the group distance of equation (1), absorb the
//! trees that hold its colour on a temporary tree's switches, and build the
//! virtual group's tree in G_color.

use super::fbtc::Placed;
use super::groups::Member;
use super::state::{ColourState, TreeId};
use super::topo::{SwitchGraph, UNREACHABLE};
use super::walk::{
    Avail, Scratch, attachment_map, build_bottom_up, build_dijkstra, candidate_roots, connected_in,
    ecc_within, eccentricities, order_by_load,
};
use crate::model::SwIdx;

/// A merge: the tree for the virtual group and the trees it replaces.
#[derive(Clone, Debug)]
pub struct Merged {
    pub placed: Placed,
    pub absorbed: Vec<TreeId>,
    pub members: Vec<Member>,
}

/// Distance of two members: hops between their switches plus their links.
fn member_distance(graph: &SwitchGraph, a: &Member, b: &Member) -> u64 {
    if a == b {
        return 0;
    }
    graph.hops(a.leaf, b.leaf) as u64 + a.extra as u64 + b.extra as u64
}

/// Equation (1): the mean, over the members of both sets, of each member's
/// shortest distance to the other set, as (numerator, denominator).
/// `lower` is the part from `tree` to `group` (cheap, via `to_group`).
fn exact_distance(graph: &SwitchGraph, group: &[Member], tree: &[Member], lower: u64) -> u64 {
    let mut leaves: Vec<&Member> = tree.iter().collect();
    leaves.sort_by_key(|m| (m.leaf, m.extra));
    leaves.dedup_by_key(|m| (m.leaf, m.extra));
    let to_tree: u64 = group
        .iter()
        .map(|a| {
            if tree.binary_search(a).is_ok() {
                0
            } else {
                leaves
                    .iter()
                    .map(|t| member_distance(graph, a, t))
                    .min()
                    .unwrap_or(0)
            }
        })
        .sum();
    lower + to_tree
}

/// The live tree nearest to `group` by equation (1); ties to the older
/// tree. Trees are scanned by a cheap lower bound (the tree-to-group half)
/// and the scan stops once the bound exceeds the best exact distance.
pub fn nearest_tree(graph: &SwitchGraph, state: &ColourState, group: &[Member]) -> Option<TreeId> {
    let to_group = eccentricity_min(graph, group);
    let mut bounds: Vec<(u64, u64, TreeId)> = state
        .trees
        .iter()
        .enumerate()
        .filter(|(_, t)| t.alive)
        .map(|(id, t)| {
            let lower: u64 = t
                .members
                .iter()
                .map(|m| {
                    if group.binary_search(m).is_ok() {
                        0
                    } else {
                        to_group[m.leaf.ix()] as u64 + m.extra as u64
                    }
                })
                .sum();
            (lower, (group.len() + t.members.len()) as u64, id as TreeId)
        })
        .collect();
    bounds.sort_by(|a, b| (a.0 * b.1).cmp(&(b.0 * a.1)).then(a.2.cmp(&b.2)));
    let mut best: Option<(u64, u64, TreeId)> = None;
    for (lower, den, id) in bounds {
        if let Some((bn, bd, _)) = best
            && lower * bd > bn * den
        {
            break;
        }
        let num = exact_distance(graph, group, &state.trees[id as usize].members, lower);
        let better = match best {
            None => true,
            Some((bn, bd, bid)) => (num * bd, id) < (bn * den, bid),
        };
        if better {
            best = Some((num, den, id));
        }
    }
    best.map(|b| b.2)
}

/// Min hops from every switch to the nearest member (member link included).
fn eccentricity_min(graph: &SwitchGraph, group: &[Member]) -> Vec<u8> {
    let mut d = vec![u8::MAX; graph.num_switches()];
    for (leaf, extra) in super::walk::attachments(group) {
        for (e, &h) in d.iter_mut().zip(graph.hop_row(leaf)) {
            *e = (*e).min(h.saturating_add(extra));
        }
    }
    d
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
    scratch: &mut Scratch,
) -> Option<Merged> {
    let first = nearest_tree(graph, state, group)?;
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
        let before = own.len();
        for n in &temp {
            let t = state.owner(n.sw, colour);
            if t != super::state::NO_TREE && !own.contains(&t) {
                own.push(t);
                members = union(&members, &state.trees[t as usize].members);
            }
        }
        if own.len() == before {
            return None;
        }
    }
    let avail = Avail {
        state,
        colour,
        own: &own,
    };
    let root = merge_root(graph, avail, &members, scratch)?;
    let keep: &[TreeId] = if keep_old { &own } else { &[] };
    let nodes = build_dijkstra(graph, avail, root, &members, keep)?;
    own.sort_unstable();
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
