//! Multicast verification from the MFTs alone: for every MLID the entries
//! must form trees (symmetric links, no cycle) so that a packet injected by
//! any member reaches every other member exactly once; trees on one MLID
//! must not meet on a switch unless their groups were merged on purpose
//! (seed:mr4lms Def. 5, 7); no port outside the tree's groups may receive.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::Serialize;

use crate::mcast::{GroupColour, McastGroup, Mfts};
use crate::model::{Fabric, Guid, NodeIdx, PortNum, SwIdx};
use crate::verify::{Code, Finding, Hop};

/// One problem found in the MFTs.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum McastFinding {
    /// The group has no line in the colour table.
    NoColour { group: String },
    /// The member's switch (`switch`) has no entry for the MLID, or not its port.
    NoEntry {
        group: String,
        mlid: u16,
        member: Guid,
        switch: Guid,
    },
    /// The member (behind `switch`) is not on the tree its group's other
    /// members are on.
    NotDelivered {
        group: String,
        mlid: u16,
        member: Guid,
        switch: Guid,
    },
    /// A cycle: some packets would arrive twice (or loop).
    Loop { mlid: u16, switch: Guid },
    /// A port whose far end is not in the tree (packets dropped there).
    OneWay {
        mlid: u16,
        switch: Guid,
        port: PortNum,
    },
    /// A port receives packets of a tree none of whose groups it belongs to.
    Stray {
        mlid: u16,
        switch: Guid,
        port: PortNum,
    },
    /// Two trees that were not merged are joined on one MLID: `switch` is
    /// where the first one's packets enter the second's tree.
    SharedSwitch {
        mlid: u16,
        first: String,
        second: String,
        switch: Guid,
    },
}

impl fmt::Display for McastFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            McastFinding::NoColour { group } => {
                write!(f, "group {group} has no MLID in the colour table")
            }
            McastFinding::NoEntry {
                group,
                mlid,
                member,
                switch,
            } => {
                write!(
                    f,
                    "MLID 0x{mlid:04x}: member {member} of {group} has no MFT entry at switch {switch}"
                )
            }
            McastFinding::NotDelivered {
                group,
                mlid,
                member,
                switch,
            } => {
                write!(
                    f,
                    "MLID 0x{mlid:04x}: member {member} of {group} (at switch {switch}) is cut off from the other members"
                )
            }
            McastFinding::Loop { mlid, switch } => {
                write!(f, "MLID 0x{mlid:04x}: loop through switch {switch}")
            }
            McastFinding::OneWay { mlid, switch, port } => {
                write!(
                    f,
                    "MLID 0x{mlid:04x}: switch {switch} port {port} leads out of the tree"
                )
            }
            McastFinding::Stray { mlid, switch, port } => {
                write!(
                    f,
                    "MLID 0x{mlid:04x}: switch {switch} port {port} delivers to a non-member"
                )
            }
            McastFinding::SharedSwitch {
                mlid,
                first,
                second,
                switch,
            } => {
                write!(
                    f,
                    "MLID 0x{mlid:04x}: trees of {first} and {second} meet at switch {switch}"
                )
            }
        }
    }
}

impl McastFinding {
    /// The stable code of this kind of finding (`formats/findings.md`).
    pub fn code(&self) -> Code {
        match self {
            McastFinding::NoColour { .. } => Code::V030,
            McastFinding::NoEntry { .. } => Code::V031,
            McastFinding::NotDelivered { .. } => Code::V032,
            McastFinding::Loop { .. } => Code::V033,
            McastFinding::OneWay { .. } => Code::V034,
            McastFinding::Stray { .. } => Code::V035,
            McastFinding::SharedSwitch { .. } => Code::V036,
        }
    }

    /// As a [`Finding`] like the unicast checks': the MLID in `lids`, the
    /// switch in `switches`, and the offending port as a hop.
    pub fn to_finding(&self, fabric: &Fabric) -> Finding {
        let mut f = Finding::new(self.code(), self.to_string());
        let (mlid, switch, port) = match self {
            McastFinding::NoColour { .. } => (None, None, None),
            McastFinding::NoEntry { mlid, switch, .. }
            | McastFinding::NotDelivered { mlid, switch, .. }
            | McastFinding::Loop { mlid, switch }
            | McastFinding::SharedSwitch { mlid, switch, .. } => (Some(*mlid), Some(*switch), None),
            McastFinding::OneWay { mlid, switch, port }
            | McastFinding::Stray { mlid, switch, port } => {
                (Some(*mlid), Some(*switch), Some(*port))
            }
        };
        f.lids.extend(mlid);
        f.switches.extend(switch);
        if let (Some(switch), Some(out_port)) = (switch, port) {
            let name = fabric
                .node_by_guid(switch)
                .map(|n| fabric.node(n).desc.clone());
            f.hops.push(Hop {
                switch,
                name: name.unwrap_or_default(),
                in_port: None,
                out_port,
                vl: None,
            });
        }
        f
    }
}

/// The outcome of a multicast check.
#[derive(Clone, PartialEq, Debug, Default, Serialize)]
pub struct McastCheck {
    pub findings: Vec<McastFinding>,
    /// Trees (connected MFT components) checked.
    pub trees: usize,
    /// Most groups found on one tree (intentional merges).
    pub max_tfi: usize,
}

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

/// Checks `mfts` against `groups` and their colours (matched by name).
pub fn verify_mfts(
    fabric: &Fabric,
    mfts: &Mfts,
    groups: &[McastGroup],
    colours: &[GroupColour],
) -> McastCheck {
    let by_name: HashMap<&str, &GroupColour> =
        colours.iter().map(|c| (c.name.as_str(), c)).collect();
    let mut check = McastCheck::default();
    let mut per_mlid: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
    for (g, group) in groups.iter().enumerate() {
        match by_name.get(group.name.as_str()) {
            Some(c) => per_mlid.entry(c.mlid).or_default().push(g),
            None => check.findings.push(McastFinding::NoColour {
                group: group.name.clone(),
            }),
        }
    }
    let mut switches: BTreeMap<u16, Vec<SwIdx>> = BTreeMap::new();
    for s in (0..mfts.num_switches() as u32).map(SwIdx) {
        for (mlid, _) in mfts.rows(s) {
            switches.entry(*mlid).or_default().push(s);
        }
    }
    for (mlid, sws) in &switches {
        let gs = per_mlid.get(mlid).map_or(&[][..], Vec::as_slice);
        check_mlid(fabric, mfts, *mlid, sws, groups, gs, &by_name, &mut check);
    }
    for (mlid, gs) in &per_mlid {
        if !switches.contains_key(mlid) {
            for &g in gs {
                let Some(m) = groups[g].members.first() else {
                    continue;
                };
                check.findings.push(McastFinding::NoEntry {
                    group: groups[g].name.clone(),
                    mlid: *mlid,
                    member: m.guid(fabric),
                    switch: guid_of(fabric, m.leaf),
                });
            }
        }
    }
    check
}

#[allow(clippy::too_many_arguments)]
fn check_mlid(
    fabric: &Fabric,
    mfts: &Mfts,
    mlid: u16,
    sws: &[SwIdx],
    groups: &[McastGroup],
    gs: &[usize],
    by_name: &HashMap<&str, &GroupColour>,
    check: &mut McastCheck,
) {
    let local: HashMap<SwIdx, usize> = sws.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let mut dsu = Dsu((0..sws.len() as u32).collect());
    let mut receivers: Vec<(usize, NodeIdx, PortNum)> = Vec::new();
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let guid_of = |s: SwIdx| guid_of(fabric, s);
    for (i, &s) in sws.iter().enumerate() {
        let node = fabric.switch_node(s);
        let Some(mask) = mfts.get(s, mlid) else {
            continue;
        };
        for p in mask.ports() {
            if p == 0 {
                receivers.push((i, node, 0));
                continue;
            }
            let peer = fabric.peer(node, p);
            let far = peer.and_then(|q| fabric.switch_index(q.node).map(|t| (t, q.port)));
            match (peer, far) {
                (Some(q), None) => receivers.push((i, q.node, q.port)),
                (Some(_), Some((t, tp))) if mfts.get(t, mlid).is_some_and(|m| m.has(tp)) => {
                    if (s, p) < (t, tp) {
                        edges.push((i, local[&t]));
                        let (a, b) = (dsu.find(i), dsu.find(local[&t]));
                        if a == b {
                            check.findings.push(McastFinding::Loop {
                                mlid,
                                switch: guid_of(s),
                            });
                        } else {
                            dsu.0[a] = b as u32;
                        }
                    }
                }
                _ => check.findings.push(McastFinding::OneWay {
                    mlid,
                    switch: guid_of(s),
                    port: p,
                }),
            }
        }
    }
    // Groups per component, and delivery to every member.
    let mut comp_groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &g in gs {
        let group = &groups[g];
        let mut comp = None;
        for m in &group.members {
            let entry = local
                .get(&m.leaf)
                .filter(|_| mfts.get(m.leaf, mlid).is_some_and(|k| k.has(m.leaf_port)));
            let Some(&i) = entry else {
                check.findings.push(McastFinding::NoEntry {
                    group: group.name.clone(),
                    mlid,
                    member: m.guid(fabric),
                    switch: guid_of(m.leaf),
                });
                continue;
            };
            let c = dsu.find(i);
            match comp {
                None => comp = Some(c),
                Some(c0) if c0 != c => {
                    check.findings.push(McastFinding::NotDelivered {
                        group: group.name.clone(),
                        mlid,
                        member: m.guid(fabric),
                        switch: guid_of(m.leaf),
                    });
                }
                _ => {}
            }
        }
        if let Some(c) = comp {
            comp_groups.entry(c).or_default().push(g);
        }
    }
    let mut roots: Vec<usize> = (0..sws.len()).map(|i| dsu.find(i)).collect();
    roots.sort_unstable();
    roots.dedup();
    check.trees += roots.len();
    for cg in comp_groups.values() {
        check.max_tfi = check.max_tfi.max(cg.len());
        let tree_of = |g: usize| by_name.get(groups[g].name.as_str()).map(|c| c.tree);
        if let Some(&other) = cg.iter().find(|&&g| tree_of(g) != tree_of(cg[0])) {
            let leaves = |g: usize| -> Vec<usize> {
                let ms = groups[g].members.iter();
                ms.filter_map(|m| local.get(&m.leaf).copied()).collect()
            };
            let at = meeting_switch(sws.len(), &edges, &leaves(cg[0]), &leaves(other));
            check.findings.push(McastFinding::SharedSwitch {
                mlid,
                first: groups[cg[0]].name.clone(),
                second: groups[other].name.clone(),
                switch: guid_of(sws[at]),
            });
        }
    }
    for (i, node, port) in receivers {
        let c = dsu.find(i);
        let wanted = comp_groups.get(&c).is_some_and(|cg| {
            cg.iter().any(|&g| {
                groups[g]
                    .members
                    .iter()
                    .any(|m| m.node == node && m.port == port)
            })
        });
        if !wanted {
            let (switch, p) = (guid_of(sws[i]), receiver_port(fabric, node, port, sws[i]));
            check.findings.push(McastFinding::Stray {
                mlid,
                switch,
                port: p,
            });
        }
    }
}

fn guid_of(fabric: &Fabric, s: SwIdx) -> Guid {
    fabric.node(fabric.switch_node(s)).guid
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
    let mut queue: std::collections::VecDeque<usize> = first.iter().copied().collect();
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
