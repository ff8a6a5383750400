//! The check of one MLID: its MFT entries as an undirected graph of
//! switches (a link counts when both ends list it), then delivery to every
//! member of the groups on it, joined trees, and stray deliveries.

use std::collections::{BTreeMap, HashMap, VecDeque};

use crate::model::{Fabric, GroupColour, McastGroup, Mfts, NodeIdx, PortNum, SwIdx};
use crate::verify::Code;

use super::{McastCheck, at_port, at_switch, guid_of, no_entry};

/// One MLID and what it is checked against.
pub(super) struct Mlid<'a> {
    pub fabric: &'a Fabric,
    pub mfts: &'a Mfts,
    pub mlid: u16,
    /// Switches with an entry for the MLID.
    pub sws: &'a [SwIdx],
    pub groups: &'a [McastGroup],
    pub colours: &'a HashMap<&'a str, &'a GroupColour>,
}

/// The MLID's entries as a graph over `sws` (local indices).
struct Graph {
    local: HashMap<SwIdx, usize>,
    dsu: Dsu,
    edges: Vec<(usize, usize)>,
    /// Non-switch receivers: (local switch, node, port).
    receivers: Vec<(usize, NodeIdx, PortNum)>,
}

impl Mlid<'_> {
    /// Runs every check of this MLID; `gs` are the groups coloured with it.
    pub fn check(&self, gs: &[usize], check: &mut McastCheck) {
        let mut graph = self.graph(check);
        let comp_groups = self.deliveries(gs, &mut graph, check);
        let mut roots: Vec<usize> = (0..self.sws.len()).map(|i| graph.dsu.find(i)).collect();
        roots.sort_unstable();
        roots.dedup();
        check.trees += roots.len();
        for cg in comp_groups.values() {
            check.max_tfi = check.max_tfi.max(cg.len());
            self.joined_trees(cg, &graph, check);
        }
        self.strays(&mut graph, &comp_groups, check);
    }

    /// Builds the graph; a link closing a cycle is V033, a port whose far
    /// end has no matching entry V034.
    fn graph(&self, check: &mut McastCheck) -> Graph {
        let (fabric, mfts, mlid) = (self.fabric, self.mfts, self.mlid);
        let local: HashMap<SwIdx, usize> =
            self.sws.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        let mut g = Graph {
            dsu: Dsu((0..self.sws.len() as u32).collect()),
            edges: Vec::new(),
            receivers: Vec::new(),
            local,
        };
        for (i, &s) in self.sws.iter().enumerate() {
            let node = fabric.switch_node(s);
            let Some(mask) = mfts.get(s, mlid) else {
                continue;
            };
            for p in mask.ports() {
                if p == 0 {
                    g.receivers.push((i, node, 0));
                    continue;
                }
                let peer = fabric.peer(node, p);
                let far = peer.and_then(|q| fabric.switch_index(q.node).map(|t| (t, q.port)));
                match (peer, far) {
                    (Some(q), None) => g.receivers.push((i, q.node, q.port)),
                    (Some(_), Some((t, tp))) if mfts.get(t, mlid).is_some_and(|m| m.has(tp)) => {
                        if (s, p) < (t, tp) {
                            let j = g.local[&t];
                            g.edges.push((i, j));
                            let (a, b) = (g.dsu.find(i), g.dsu.find(j));
                            if a == b {
                                let msg = format!("loop through switch {}", guid_of(fabric, s));
                                check.findings.push(at_switch(
                                    Code::V033,
                                    mlid,
                                    guid_of(fabric, s),
                                    msg,
                                ));
                            } else {
                                g.dsu.0[a] = b as u32;
                            }
                        }
                    }
                    _ => {
                        let sw = guid_of(fabric, s);
                        let msg = format!("switch {sw} port {p} leads out of the tree");
                        check
                            .findings
                            .push(at_port(fabric, Code::V034, mlid, sw, p, msg));
                    }
                }
            }
        }
        g
    }

    /// Every member must have its entry (V031) and sit on the same tree as
    /// its group's first member (V032). Returns the groups per tree.
    fn deliveries(
        &self,
        gs: &[usize],
        g: &mut Graph,
        check: &mut McastCheck,
    ) -> BTreeMap<usize, Vec<usize>> {
        let (fabric, mlid) = (self.fabric, self.mlid);
        let mut comp_groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &gi in gs {
            let group = &self.groups[gi];
            let mut comp = None;
            for m in &group.members {
                let entry = g.local.get(&m.leaf).filter(|_| {
                    self.mfts
                        .get(m.leaf, mlid)
                        .is_some_and(|k| k.has(m.leaf_port))
                });
                let (member, switch) = (m.guid(fabric), guid_of(fabric, m.leaf));
                let Some(&i) = entry else {
                    check
                        .findings
                        .push(no_entry(&group.name, mlid, member, switch));
                    continue;
                };
                let c = g.dsu.find(i);
                match comp {
                    None => comp = Some(c),
                    Some(c0) if c0 != c => {
                        let msg = format!(
                            "member {member} of {} (at switch {switch}) is cut off from the other members",
                            group.name
                        );
                        check
                            .findings
                            .push(at_switch(Code::V032, mlid, switch, msg));
                    }
                    _ => {}
                }
            }
            if let Some(c) = comp {
                comp_groups.entry(c).or_default().push(gi);
            }
        }
        comp_groups
    }

    /// V036: groups on one tree that the colour table does not say were
    /// merged.
    fn joined_trees(&self, cg: &[usize], g: &Graph, check: &mut McastCheck) {
        let tree_of = |gi: usize| {
            self.colours
                .get(self.groups[gi].name.as_str())
                .map(|c| c.tree)
        };
        let Some(&other) = cg.iter().find(|&&gi| tree_of(gi) != tree_of(cg[0])) else {
            return;
        };
        let leaves = |gi: usize| -> Vec<usize> {
            let ms = self.groups[gi].members.iter();
            ms.filter_map(|m| g.local.get(&m.leaf).copied()).collect()
        };
        let at = meeting_switch(self.sws.len(), &g.edges, &leaves(cg[0]), &leaves(other));
        let (first, second) = (&self.groups[cg[0]].name, &self.groups[other].name);
        let switch = guid_of(self.fabric, self.sws[at]);
        let msg = format!("trees of {first} and {second} meet at switch {switch}");
        check
            .findings
            .push(at_switch(Code::V036, self.mlid, switch, msg));
    }

    /// V035: a receiver that is no member of the groups on its tree.
    fn strays(
        &self,
        g: &mut Graph,
        comp_groups: &BTreeMap<usize, Vec<usize>>,
        check: &mut McastCheck,
    ) {
        for &(i, node, port) in &g.receivers {
            let c = g.dsu.find(i);
            let wanted = comp_groups.get(&c).is_some_and(|cg| {
                cg.iter().any(|&gi| {
                    let ms = &self.groups[gi].members;
                    ms.iter().any(|m| m.node == node && m.port == port)
                })
            });
            if !wanted {
                let switch = guid_of(self.fabric, self.sws[i]);
                let p = receiver_port(self.fabric, node, port, self.sws[i]);
                let msg = format!("switch {switch} port {p} delivers to a non-member");
                check
                    .findings
                    .push(at_port(self.fabric, Code::V035, self.mlid, switch, p, msg));
            }
        }
    }
}

/// Union–find over the MLID's switches.
struct Dsu(Vec<u32>);

impl Dsu {
    fn find(&mut self, x: usize) -> usize {
        let mut r = x;
        while self.0[r] as usize != r {
            r = self.0[r] as usize;
        }
        let mut c = x;
        while self.0[c] as usize != r {
            let n = self.0[c] as usize;
            self.0[c] = r as u32;
            c = n;
        }
        r
    }
}

/// Where two joined trees meet: the switch of `second`'s subtree (the
/// switches between its members' leaves) nearest to `first`'s leaves. In a
/// tree that switch lies on both subtrees when they overlap, and is where
/// `first`'s packets enter `second`'s tree when they only touch by a link.
fn meeting_switch(n: usize, edges: &[(usize, usize)], first: &[usize], second: &[usize]) -> usize {
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges {
        adj[a].push(b);
        adj[b].push(a);
    }
    // `second`'s subtree: prune non-member leaves until none is left.
    let mut keep = vec![true; n];
    let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut is_leaf = vec![false; n];
    second.iter().for_each(|&i| is_leaf[i] = true);
    let mut stack: Vec<usize> = (0..n).filter(|&i| degree[i] <= 1 && !is_leaf[i]).collect();
    while let Some(i) = stack.pop() {
        keep[i] = false;
        for &j in &adj[i] {
            degree[j] -= 1;
            if keep[j] && degree[j] == 1 && !is_leaf[j] {
                stack.push(j);
            }
        }
    }
    // Breadth-first from `first`'s leaves to the nearest kept switch.
    let mut seen = vec![false; n];
    let mut queue: VecDeque<usize> = first.iter().copied().collect();
    first.iter().for_each(|&i| seen[i] = true);
    while let Some(i) = queue.pop_front() {
        if keep[i] {
            return i;
        }
        for &j in &adj[i] {
            if !seen[j] {
                seen[j] = true;
                queue.push_back(j);
            }
        }
    }
    second.first().copied().unwrap_or(0)
}

/// The switch port that feeds receiver `(node, port)` (0 for the switch itself).
fn receiver_port(fabric: &Fabric, node: NodeIdx, port: PortNum, sw: SwIdx) -> PortNum {
    if fabric.switch_node(sw) == node {
        return 0;
    }
    fabric.peer(node, port).map_or(0, |q| q.port)
}
