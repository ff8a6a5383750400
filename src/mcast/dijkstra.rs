//! Alg. 5 of the MR4LMS seed: the Dijkstra build of a tree in the colour
//! subgraph G_color (§3.2) that keeps the old trees of the colour whole,
//! so their MFT entries stay valid (§3.3.2, strategy 2).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

use super::state::{ColourState, TreeId, TreeNode};
use super::topo::{SwitchGraph, UNREACHABLE};
use super::walk::{Avail, attachment_map, attachments};
use crate::model::{Member, PortNum, SwIdx};

/// Alg. 5: Dijkstra from `root` in G_color with key (hops, summed link
/// load), so the tree keeps minimum height and balances load. Trees in
/// `keep` enter whole the first time one of their switches is settled and
/// their links are never re-parented, so their MFT entries stay valid
/// (strategy 2 of §3.3.2). `keep` is sorted. `None` when a member is
/// unreachable.
pub fn build_dijkstra(
    graph: &SwitchGraph,
    avail: Avail,
    root: SwIdx,
    members: &[Member],
    keep: &[TreeId],
) -> Option<Vec<TreeNode>> {
    let n = graph.num_switches();
    let state = avail.state;
    let mut dist = vec![(u32::MAX, u64::MAX); n];
    let mut parent: Vec<Option<(PortNum, SwIdx, PortNum)>> = vec![None; n];
    let mut done = vec![false; n];
    // G_color membership once per switch rather than once per edge.
    let in_colour: Vec<bool> = (0..n).map(|s| avail.ok(SwIdx(s as u32))).collect();
    let mut locked = vec![false; n];
    let kept = kept_adjacency(state, keep);
    let mut expanded = vec![false; keep.len()];
    let mut heap = BinaryHeap::new();
    // Once every member switch is settled its path to the root is final
    // (settled and kept-tree switches are never re-parented), so the rest
    // of G_color need not be explored.
    let (target, mut pending) = attachment_map(n, members);
    dist[root.ix()] = (0, 0);
    heap.push(Reverse((0u32, 0u64, root.0)));
    while let Some(Reverse((h, w, u))) = heap.pop() {
        let us = SwIdx(u);
        if done[us.ix()] || (h, w) != dist[us.ix()] {
            continue;
        }
        if pending == 0 {
            break;
        }
        done[us.ix()] = true;
        if target[us.ix()] != UNREACHABLE {
            pending -= 1;
        }
        let t = state.owner(us, avail.colour);
        if let Ok(k) = keep.binary_search(&t)
            && !expanded[k]
        {
            expanded[k] = true;
            absorb_tree(
                graph,
                state,
                &kept,
                us,
                &mut dist,
                &mut parent,
                &done,
                &mut locked,
                &mut heap,
            );
        }
        for a in graph.neighbours(us) {
            let v = a.peer.ix();
            if !in_colour[v] || done[v] || locked[v] {
                continue;
            }
            let cand = (
                h + 1,
                w + state.link_load[graph.port_slot(us, a.port)] as u64,
            );
            if cand < dist[v] {
                dist[v] = cand;
                parent[v] = Some((a.peer_port, us, a.port));
                heap.push(Reverse((cand.0, cand.1, v as u32)));
            }
        }
    }
    collect_tree(root, members, &dist, &parent)
}

type KeptAdj = HashMap<SwIdx, Vec<(PortNum, SwIdx, PortNum)>>;

/// Undirected adjacency of the kept trees' links.
fn kept_adjacency(state: &ColourState, keep: &[TreeId]) -> KeptAdj {
    let mut adj: KeptAdj = HashMap::new();
    for &t in keep {
        for node in &state.trees[t as usize].nodes {
            if let Some((p, parent, pp)) = node.up {
                adj.entry(node.sw).or_default().push((p, parent, pp));
                adj.entry(parent).or_default().push((pp, node.sw, p));
            }
        }
    }
    adj
}

/// Alg. 5 l.⑤–⑩: pulls a kept tree in from its first settled switch along
/// its own links.
#[allow(clippy::too_many_arguments)]
fn absorb_tree(
    graph: &SwitchGraph,
    state: &ColourState,
    kept: &KeptAdj,
    entry: SwIdx,
    dist: &mut [(u32, u64)],
    parent: &mut [Option<(PortNum, SwIdx, PortNum)>],
    done: &[bool],
    locked: &mut [bool],
    heap: &mut BinaryHeap<Reverse<(u32, u64, u32)>>,
) {
    let mut queue = VecDeque::from([entry]);
    locked[entry.ix()] = true;
    while let Some(u) = queue.pop_front() {
        let Some(links) = kept.get(&u) else { continue };
        for &(p, v, vp) in links {
            if done[v.ix()] || locked[v.ix()] {
                continue;
            }
            let (h, w) = dist[u.ix()];
            dist[v.ix()] = (h + 1, w + state.link_load[graph.port_slot(u, p)] as u64);
            parent[v.ix()] = Some((vp, u, p));
            locked[v.ix()] = true;
            heap.push(Reverse((dist[v.ix()].0, dist[v.ix()].1, v.0)));
            queue.push_back(v);
        }
    }
}

/// The union of the member-to-root paths, sorted by (depth, switch).
fn collect_tree(
    root: SwIdx,
    members: &[Member],
    dist: &[(u32, u64)],
    parent: &[Option<(PortNum, SwIdx, PortNum)>],
) -> Option<Vec<TreeNode>> {
    let mut seen = vec![false; dist.len()];
    seen[root.ix()] = true;
    let mut nodes = vec![TreeNode {
        sw: root,
        up: None,
        depth: 0,
    }];
    for (leaf, _) in attachments(members) {
        let mut curr = leaf;
        while !seen[curr.ix()] {
            seen[curr.ix()] = true;
            let up = parent[curr.ix()]?;
            let depth = u8::try_from(dist[curr.ix()].0).unwrap_or(u8::MAX);
            nodes.push(TreeNode {
                sw: curr,
                up: Some(up),
                depth,
            });
            curr = up.1;
        }
    }
    nodes.sort_by_key(|n| (n.depth, n.sw));
    Some(nodes)
}
