//! Ranking and port groups (Dmodc paper §3.1).
//!
//! Switches get an internal index in (rank, GUID) order, so that every rank
//! is a contiguous run of rows of the cost matrix (one parallel step and one
//! barrier per rank) and the leaves are rows and columns `0..num_leaves`.

use crate::model::rank::{UNRANKED, bfs_ranks, leaf_switches};
use crate::model::{Fabric, Guid, SwIdx};

/// Direction of a port group, by the ranks of its two ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    /// To a switch of rank + 1.
    Up,
    /// To a switch of rank − 1.
    Down,
    /// To a switch of the same rank: never used by a route (it would break
    /// the up–down order the engine promises).
    Level,
}

/// The ports of one switch that lead to one neighbour switch.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    /// Internal index of the neighbour (Ω_g).
    pub peer: u32,
    pub dir: Dir,
    /// Range in [`Ranked::ports`].
    pub start: u32,
    pub len: u32,
}

/// The ranked switches with their port groups, in internal order.
#[derive(Clone, Debug)]
pub struct Ranked {
    /// Internal index → switch.
    pub order: Vec<SwIdx>,
    /// Switch → internal index ([`u32::MAX`] when no leaf reaches it).
    pub internal: Vec<u32>,
    pub rank: Vec<u8>,
    pub guid: Vec<Guid>,
    /// Internal rows of rank `r`: `rank_start[r]..rank_start[r + 1]`.
    pub rank_start: Vec<usize>,
    pub num_leaves: usize,
    /// Groups of internal switch `i`: `groups[group_start[i]..group_start[i + 1]]`,
    /// ordered by neighbour GUID (§3.1).
    pub group_start: Vec<u32>,
    pub groups: Vec<Group>,
    /// Port numbers, ascending inside each group.
    pub ports: Vec<u8>,
    /// Switches no leaf reaches (left out of the cost matrix).
    pub unranked: Vec<SwIdx>,
}

impl Ranked {
    /// Ranks the switches from the leaves (switches with compute nodes,
    /// [`crate::model::rank`]) and builds their port groups. Fails when the
    /// fabric has no leaf or is deeper than a byte can count.
    pub fn new(fabric: &Fabric) -> Result<Ranked, String> {
        let leaves = leaf_switches(fabric);
        if leaves.is_empty() {
            return Err("no leaf switch: no switch has a compute node cabled to it".into());
        }
        let ranks = bfs_ranks(fabric, &leaves);
        let mut order: Vec<SwIdx> = (0..fabric.num_switches() as u32)
            .map(SwIdx)
            .filter(|s| ranks[s.ix()] != UNRANKED)
            .collect();
        let guid_of = |s: SwIdx| fabric.node(fabric.switch_node(s)).guid;
        order.sort_by_key(|&s| (ranks[s.ix()], guid_of(s)));
        let unranked = (0..fabric.num_switches() as u32)
            .map(SwIdx)
            .filter(|s| ranks[s.ix()] == UNRANKED)
            .collect();
        let max_rank = order.last().map_or(0, |s| ranks[s.ix()]);
        if max_rank > 100 {
            return Err(format!(
                "the fabric is {max_rank} switch hops deep; Dmodc handles at most 100"
            ));
        }
        let mut internal = vec![u32::MAX; fabric.num_switches()];
        for (i, s) in order.iter().enumerate() {
            internal[s.ix()] = i as u32;
        }
        let rank: Vec<u8> = order.iter().map(|s| ranks[s.ix()] as u8).collect();
        let mut rank_start = vec![0usize; max_rank as usize + 2];
        for &r in &rank {
            rank_start[r as usize + 1] += 1;
        }
        for r in 1..rank_start.len() {
            rank_start[r] += rank_start[r - 1];
        }
        let mut r = Ranked {
            guid: order.iter().map(|&s| guid_of(s)).collect(),
            order,
            internal,
            rank,
            rank_start,
            num_leaves: leaves.len(),
            group_start: vec![0],
            groups: Vec::new(),
            ports: Vec::new(),
            unranked,
        };
        r.build_groups(fabric);
        Ok(r)
    }

    fn build_groups(&mut self, fabric: &Fabric) {
        let mut links: Vec<(Guid, u32, u8)> = Vec::new();
        for i in 0..self.order.len() {
            links.clear();
            let node = fabric.switch_node(self.order[i]);
            for (port, peer) in fabric.switch_links(node) {
                let sw = fabric
                    .switch_index(peer.node)
                    .expect("switch link leads to a switch");
                let j = self.internal[sw.ix()];
                links.push((self.guid[j as usize], j, port));
            }
            links.sort_unstable();
            for chunk in links.chunk_by(|a, b| a.1 == b.1) {
                let peer = chunk[0].1;
                let dir = match self.rank[peer as usize].cmp(&self.rank[i]) {
                    std::cmp::Ordering::Greater => Dir::Up,
                    std::cmp::Ordering::Less => Dir::Down,
                    std::cmp::Ordering::Equal => Dir::Level,
                };
                self.groups.push(Group {
                    peer,
                    dir,
                    start: self.ports.len() as u32,
                    len: chunk.len() as u32,
                });
                self.ports.extend(chunk.iter().map(|c| c.2));
            }
            self.group_start.push(self.groups.len() as u32);
        }
    }

    /// Number of ranked switches (rows and columns of the cost matrix).
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Port groups of internal switch `i`.
    pub fn groups(&self, i: usize) -> &[Group] {
        &self.groups[self.group_start[i] as usize..self.group_start[i + 1] as usize]
    }

    /// Ports of group `g`.
    pub fn group_ports(&self, g: &Group) -> &[u8] {
        &self.ports[g.start as usize..(g.start + g.len) as usize]
    }

    /// Whether no switch is ranked (never true once built: a leaf exists).
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Highest rank.
    pub fn max_rank(&self) -> usize {
        self.rank_start.len() - 2
    }
}
