//! The oracle for which pairs need an escape, from the definition: ranks by
//! BFS from the compute leaves, an up–down path iff some switch is reachable
//! upward from both ends; checked against the SLs of `ibdmchk.psl`.

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::Path;

use routec::model::{Fabric, Guid, NodeIdx};

use crate::common::subnet_lst;

/// The switch each end node (by node GUID, as `ibdmchk.psl` names them) is cabled to, and each
/// switch's neighbours.
struct Graph {
    sw_of_port: HashMap<Guid, NodeIdx>,
    sw_of_lid: HashMap<u16, NodeIdx>,
    switch_lids: HashSet<u16>,
    up: HashMap<NodeIdx, Vec<NodeIdx>>,
}

impl Graph {
    fn new(f: &Fabric) -> Graph {
        let compute = |n: NodeIdx| !f.is_switch(n) && !f.node(n).desc.contains("Aggregation Node");
        let (mut sw_of_port, mut sw_of_lid) = (HashMap::new(), HashMap::new());
        let mut rank: HashMap<NodeIdx, u32> = HashMap::new();
        let mut queue = VecDeque::new();
        let switch_lids = f.switches().iter().map(|&s| f.port(s, 0).lid).collect();
        for &s in f.switches() {
            sw_of_lid.insert(f.port(s, 0).lid, s);
            for p in f.ports(s).iter().filter_map(|p| p.peer) {
                if !f.is_switch(p.node) {
                    let port = f.port(p.node, p.port);
                    sw_of_port.insert(f.node(p.node).guid, s);
                    sw_of_lid.insert(port.lid, s);
                    if compute(p.node) && rank.insert(s, 0).is_none() {
                        queue.push_back(s);
                    }
                }
            }
        }
        while let Some(s) = queue.pop_front() {
            for p in f.ports(s).iter().filter_map(|p| p.peer) {
                if f.is_switch(p.node) && !rank.contains_key(&p.node) {
                    rank.insert(p.node, rank[&s] + 1);
                    queue.push_back(p.node);
                }
            }
        }
        let mut up = HashMap::new();
        for &s in f.switches() {
            let above: Vec<NodeIdx> = f
                .ports(s)
                .iter()
                .filter_map(|p| p.peer)
                .filter(|p| f.is_switch(p.node) && rank[&p.node] > rank[&s])
                .map(|p| p.node)
                .collect();
            up.insert(s, above);
        }
        Graph {
            sw_of_port,
            sw_of_lid,
            switch_lids,
            up,
        }
    }

    fn upward(&self, s: NodeIdx) -> HashSet<NodeIdx> {
        let mut seen = HashSet::from([s]);
        let mut stack = vec![s];
        while let Some(x) = stack.pop() {
            for &y in &self.up[&x] {
                if seen.insert(y) {
                    stack.push(y);
                }
            }
        }
        seen
    }

    fn up_down(&self, s: NodeIdx, t: NodeIdx) -> bool {
        !self.upward(s).is_disjoint(&self.upward(t))
    }
}

/// Every (source node, DLID, SL) of `ibdmchk.psl` toward an end port: SL 0
/// exactly for the pairs with an up–down path (paths to switch LIDs carry
/// management traffic, stay on SL 0 and are not layered). Returns (pairs on
/// SL 0, pairs escaped). Without `strict`, an escape may stay on SL 0: a
/// path up, across a cable between switches of one rank, then down agrees
/// with the up*/down* channel order the base layer keeps.
pub(super) fn sls_follow_up_down(dir: &Path, strict: bool) -> (usize, usize) {
    let (f, _) = subnet_lst(&dir.join("opensm-subnet.lst"));
    let g = Graph::new(&f);
    let psl = std::fs::read_to_string(dir.join("ibdmchk.psl")).unwrap();
    let (mut on0, mut escaped) = (0, 0);
    for line in psl.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let src = g.sw_of_port[&Guid(u64::from_str_radix(&w[0][2..], 16).unwrap())];
        let dlid = w[1].parse::<u16>().unwrap();
        if g.switch_lids.contains(&dlid) {
            continue;
        }
        let dst = g.sw_of_lid[&dlid];
        let sl: u8 = w[2].parse().unwrap();
        if strict || sl != 0 {
            assert_eq!(sl == 0, g.up_down(src, dst), "{line}");
        } else {
            assert!(sl == 0 || !g.up_down(src, dst), "{line}");
        }
        if sl == 0 {
            on0 += 1;
        } else {
            escaped += 1;
        }
    }
    (on0, escaped)
}
