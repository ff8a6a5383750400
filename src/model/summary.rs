//! What `routec info` reports about a fabric: counts, cabling oddities,
//! switch ranks, LID coverage and connectivity.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::fabric::{Fabric, NodeKind};
use super::ids::NodeIdx;
use super::lids::{is_assigned, lid_ports};
use super::rank::{UNRANKED, components, hosts_per_switch, leaf_ranks};

/// A summary of a fabric. Histograms are `BTreeMap`s so that the text and
/// JSON outputs are in key order whatever the hashing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FabricSummary {
    pub switches: usize,
    pub cas: usize,
    pub routers: usize,
    /// Cables, each once; parallel cables count separately, self-loops not.
    pub links: usize,
    /// Cables between two switches (self-loops excluded).
    pub switch_links: usize,
    /// Node pairs joined by two cables or more.
    pub parallel_bundles: usize,
    /// Cables in those bundles.
    pub parallel_links: usize,
    /// Cables joining two ports of one node.
    pub self_loops: usize,
    /// Rank (switch hops from the nearest leaf) → number of switches.
    pub switch_ranks: BTreeMap<u32, usize>,
    /// Switches no leaf reaches (isolated, or in a part without hosts).
    pub unranked_switches: usize,
    /// Switches with at least one compute end node (SHARP aggregation nodes
    /// do not count, formats.md §0.8).
    pub leaves: usize,
    /// Hosts on a leaf → number of leaves.
    pub hosts_per_leaf: BTreeMap<u32, usize>,
    /// Ports that need a LID (switch port 0, cabled CA/router ports).
    pub lid_ports: usize,
    /// Of those, ports whose LID is 0 or 0xFFFF.
    pub unassigned_lids: usize,
    /// Connected components (nodes without cables count as one each).
    pub components: usize,
    /// Node count of each component, largest first.
    pub component_sizes: Vec<usize>,
}

impl FabricSummary {
    /// Summarises `fabric`.
    pub fn of(fabric: &Fabric) -> Self {
        let count = |k: NodeKind| fabric.nodes().iter().filter(|n| n.kind == k).count();
        let mut s = FabricSummary {
            switches: count(NodeKind::Switch),
            cas: count(NodeKind::Ca),
            routers: count(NodeKind::Router),
            links: 0,
            switch_links: 0,
            parallel_bundles: 0,
            parallel_links: 0,
            self_loops: 0,
            switch_ranks: BTreeMap::new(),
            unranked_switches: 0,
            leaves: 0,
            hosts_per_leaf: BTreeMap::new(),
            lid_ports: 0,
            unassigned_lids: 0,
            components: 0,
            component_sizes: Vec::new(),
        };
        s.count_links(fabric);
        for r in leaf_ranks(fabric) {
            if r == UNRANKED {
                s.unranked_switches += 1;
            } else {
                *s.switch_ranks.entry(r).or_default() += 1;
            }
        }
        for h in hosts_per_switch(fabric).into_iter().filter(|&h| h > 0) {
            s.leaves += 1;
            *s.hosts_per_leaf.entry(h).or_default() += 1;
        }
        for (n, p) in lid_ports(fabric) {
            s.lid_ports += 1;
            s.unassigned_lids += usize::from(!is_assigned(fabric.port(n, p).lid));
        }
        let (nc, comp) = components(fabric);
        s.components = nc;
        let mut sizes = vec![0usize; nc];
        comp.iter().for_each(|&c| sizes[c as usize] += 1);
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        s.component_sizes = sizes;
        s
    }

    fn count_links(&mut self, fabric: &Fabric) {
        let mut pairs: HashMap<(NodeIdx, NodeIdx), usize> = HashMap::new();
        for (a, _, b, _) in fabric.links() {
            if a == b {
                self.self_loops += 1;
                continue;
            }
            self.links += 1;
            if fabric.is_switch(a) && fabric.is_switch(b) {
                self.switch_links += 1;
            }
            *pairs.entry((a.min(b), a.max(b))).or_default() += 1;
        }
        for &c in pairs.values().filter(|&&c| c > 1) {
            self.parallel_bundles += 1;
            self.parallel_links += c;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FabricBuilder, Guid, NodeSpec};

    #[test]
    fn counts_parallel_self_loops_and_components() {
        let mut b = FabricBuilder::new();
        let s1 = b
            .add_node(NodeSpec::new(NodeKind::Switch, Guid(1), 8, "s1"))
            .unwrap();
        let s2 = b
            .add_node(NodeSpec::new(NodeKind::Switch, Guid(2), 8, "s2"))
            .unwrap();
        let h = b
            .add_node(NodeSpec::new(NodeKind::Ca, Guid(10), 1, "h"))
            .unwrap();
        let lone = b
            .add_node(NodeSpec::new(NodeKind::Ca, Guid(20), 1, "lone"))
            .unwrap();
        b.connect(s1, 1, s2, 1).unwrap();
        b.connect(s1, 2, s2, 2).unwrap();
        b.connect(s2, 5, s2, 6).unwrap();
        b.connect(h, 1, s1, 3).unwrap();
        b.port_mut(h, 1).unwrap().lid = 7;
        let _ = lone;
        let s = FabricSummary::of(&b.build());
        assert_eq!((s.switches, s.cas, s.routers), (2, 2, 0));
        assert_eq!((s.links, s.switch_links, s.self_loops), (3, 2, 1));
        assert_eq!((s.parallel_bundles, s.parallel_links), (1, 2));
        assert_eq!(s.switch_ranks, BTreeMap::from([(0, 1), (1, 1)]));
        assert_eq!(
            (s.leaves, s.hosts_per_leaf.clone()),
            (1, BTreeMap::from([(1, 1)]))
        );
        // s1, s2 port 0 and h port 1 need LIDs; only h has one.
        assert_eq!((s.lid_ports, s.unassigned_lids), (3, 2));
        assert_eq!((s.components, s.component_sizes), (2, vec![3, 1]));
    }
}
