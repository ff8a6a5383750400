//! Structure derived from the cabling: leaves, ranks, connected components.

use std::collections::VecDeque;

use super::fabric::{Fabric, NodeKind};
use super::ids::{Guid, NodeIdx, SwIdx};

/// Rank of a switch that no BFS source reaches.
pub const UNRANKED: u32 = u32::MAX;

/// Whether node `n` is a compute end node: a CA or router that is not a
/// switch-embedded SHARP "Aggregation Node" (every switch of an HDR fabric
/// carries one, so "has a CA" alone would make every switch a leaf;
/// formats.md §0.8), nor a CA the user named with `--service-nodes`.
pub fn is_compute_endpoint(fabric: &Fabric, n: NodeIdx) -> bool {
    let node = fabric.node(n);
    node.kind != NodeKind::Switch && !node.desc.contains("Aggregation Node") && !node.service
}

/// Number of compute end ports cabled to each switch.
pub fn hosts_per_switch(fabric: &Fabric) -> Vec<u32> {
    fabric
        .switches()
        .iter()
        .map(|&n| {
            fabric
                .ports(n)
                .iter()
                .filter(|p| p.peer.is_some_and(|q| is_compute_endpoint(fabric, q.node)))
                .count() as u32
        })
        .collect()
}

/// Leaf switches: those with at least one compute end node cabled to them.
pub fn leaf_switches(fabric: &Fabric) -> Vec<SwIdx> {
    hosts_per_switch(fabric)
        .iter()
        .enumerate()
        .filter(|&(_, &h)| h > 0)
        .map(|(i, _)| SwIdx(i as u32))
        .collect()
}

/// Multi-source BFS distance (in switch hops) from `sources` to every
/// switch, over switch-to-switch cables. Unreached switches get [`UNRANKED`].
pub fn bfs_ranks(fabric: &Fabric, sources: &[SwIdx]) -> Vec<u32> {
    let mut rank = vec![UNRANKED; fabric.num_switches()];
    let mut queue = VecDeque::new();
    for &s in sources {
        if rank[s.ix()] == UNRANKED {
            rank[s.ix()] = 0;
            queue.push_back(s);
        }
    }
    while let Some(s) = queue.pop_front() {
        let r = rank[s.ix()];
        for (_, peer) in fabric.switch_links(fabric.switch_node(s)) {
            let t = fabric.switch_index(peer.node).expect("switch link");
            if rank[t.ix()] == UNRANKED {
                rank[t.ix()] = r + 1;
                queue.push_back(t);
            }
        }
    }
    rank
}

/// Rank of every switch counted from the leaves (leaves are rank 0).
pub fn leaf_ranks(fabric: &Fabric) -> Vec<u32> {
    bfs_ranks(fabric, &leaf_switches(fabric))
}

/// The "top" roots: the switches of highest rank counted from the leaves
/// (`--roots top` of `compile` and `check`). Empty without leaves.
pub fn top_switches(fabric: &Fabric) -> Vec<SwIdx> {
    let ranks = leaf_ranks(fabric);
    let Some(top) = ranks.iter().copied().filter(|&r| r != UNRANKED).max() else {
        return Vec::new();
    };
    (0..fabric.num_switches() as u32)
        .map(SwIdx)
        .filter(|s| ranks[s.ix()] == top)
        .collect()
}

/// The switches a root GUID file names, in file order, and apart the GUIDs
/// that name no switch (OpenSM ignores those: `rank_root_node`).
pub fn switches_by_guid(fabric: &Fabric, guids: &[Guid]) -> (Vec<SwIdx>, Vec<Guid>) {
    let (mut found, mut ignored) = (Vec::new(), Vec::new());
    for &g in guids {
        match fabric.node_by_guid(g).and_then(|n| fabric.switch_index(n)) {
            Some(s) => found.push(s),
            None => ignored.push(g),
        }
    }
    (found, ignored)
}

/// Connected components over all nodes: the component id of each node,
/// numbered in order of first node. Nodes with no cable are components too.
pub fn components(fabric: &Fabric) -> (usize, Vec<u32>) {
    let mut comp = vec![u32::MAX; fabric.num_nodes()];
    let mut count = 0u32;
    let mut stack = Vec::new();
    for start in fabric.node_indices() {
        if comp[start.ix()] != u32::MAX {
            continue;
        }
        comp[start.ix()] = count;
        stack.push(start);
        while let Some(n) = stack.pop() {
            for port in fabric.ports(n) {
                if let Some(peer) = port.peer
                    && comp[peer.node.ix()] == u32::MAX
                {
                    comp[peer.node.ix()] = count;
                    stack.push(peer.node);
                }
            }
        }
        count += 1;
    }
    (count as usize, comp)
}
