//! One pair's route followed through the tables over the flat switch-port
//! arrays of [`Topo`]: the walker the permutation, all-to-all and memo
//! passes share, and the shortcut that lets a permutation skip host links.

use super::super::congestion::EndPort;
use super::super::topo::{Link, Topo};
use super::memo::RouteMemo;
use crate::model::{Fabric, Lfts, LidMap, NO_ROUTE};

/// How a pair's route ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fate {
    /// Delivered after this many switch-to-switch links; the walker's path
    /// holds their slots, `down` the switch → CA slot.
    Delivered {
        hops: u32,
        down: u32,
    },
    Unrouted,
    OverHopLimit,
}

/// The fabric, tables and node order in walkable form.
pub(crate) struct Walker<'a> {
    pub topo: Topo,
    pub(super) lfts: &'a Lfts,
    pub(super) hop_limit: u32,
    /// Per order node: leaf switch, the port it hangs on, its base LID.
    pub leaf: Vec<u32>,
    pub leaf_port: Vec<u8>,
    pub lid: Vec<u16>,
    /// Every (leaf, destination) route, once [`Walker::memoize`] built it.
    pub(super) memo: Option<RouteMemo>,
    /// No two order nodes hang on the same switch port (true of distinct
    /// end ports, as `topological_nodes` and `--node-order` give): then no
    /// host link carries two pairs of one permutation.
    pub(super) distinct_ends: bool,
}

impl<'a> Walker<'a> {
    pub fn new(
        fabric: &Fabric,
        lids: &LidMap,
        lfts: &'a Lfts,
        nodes: &[EndPort],
        hop_limit: u32,
    ) -> Self {
        let mut leaf = Vec::with_capacity(nodes.len());
        let mut leaf_port = Vec::with_capacity(nodes.len());
        let mut lid = Vec::with_capacity(nodes.len());
        for e in nodes {
            let peer = fabric.peer(e.node, e.port);
            let sw = peer.and_then(|p| fabric.switch_index(p.node).map(|s| (s.0, p.port)));
            let (s, p) = sw.unwrap_or((u32::MAX, 0));
            leaf.push(s);
            leaf_port.push(p);
            lid.push(fabric.port(e.node, e.port).lid);
        }
        let topo = Topo::new(fabric, lids);
        let distinct_ends = distinct_ends(&topo, &leaf, &leaf_port);
        Walker {
            topo,
            distinct_ends,
            lfts,
            hop_limit,
            leaf,
            leaf_port,
            lid,
            memo: None,
        }
    }

    /// Counts host links per pair even when the end ports are distinct,
    /// for the tests of the shortcut.
    #[cfg(test)]
    pub(super) fn count_host_links(&mut self) {
        self.distinct_ends = false;
    }

    /// Walks every (leaf, destination) route once and keeps them for the
    /// passes (see `memo.rs`); a no-op above the memo's size bound.
    pub fn memoize(&mut self) {
        self.memo = RouteMemo::build(self);
    }

    /// The route from switch `from` to order node `dst` and its
    /// switch-to-switch slots, from the memo or walked into `path`.
    #[inline]
    pub(super) fn route<'s>(
        &'s self,
        from: u32,
        dst: usize,
        path: &'s mut Vec<u32>,
    ) -> (Fate, &'s [u32]) {
        match &self.memo {
            Some(m) => m.route(from, dst),
            None => {
                let f = self.walk(from, dst, path);
                (f, &path[..])
            }
        }
    }

    /// Number of directed switch-port slots (host up links come after).
    pub fn switch_slots(&self) -> usize {
        self.topo.link.len()
    }

    /// Follows the tables from switch `from` toward order node `dst`,
    /// recording the switch-to-switch slots in `path`.
    pub(super) fn walk(&self, from: u32, dst: usize, path: &mut Vec<u32>) -> Fate {
        path.clear();
        let lid = self.lid[dst];
        if from == u32::MAX || !crate::model::lids::is_assigned(lid) {
            return Fate::Unrouted;
        }
        let stride = self.lfts.stride();
        let mut at = from as usize;
        let mut hops = 0;
        loop {
            let out = if (lid as usize) < stride && at < self.lfts.num_switches() {
                self.lfts.get(at, lid)
            } else {
                NO_ROUTE
            };
            let slot = self.topo.base[at] + out as u32;
            match self.topo.link(at, out) {
                Some(Link::Switch(next, _)) => {
                    if hops == self.hop_limit {
                        return Fate::OverHopLimit;
                    }
                    hops += 1;
                    path.push(slot);
                    at = next as usize;
                }
                Some(Link::End(..))
                    if at as u32 == self.leaf[dst] && out == self.leaf_port[dst] =>
                {
                    return Fate::Delivered { hops, down: slot };
                }
                _ => return Fate::Unrouted,
            }
        }
    }
}

/// Whether the order nodes cabled to a switch hang on distinct switch
/// ports (see [`Walker::distinct_ends`]).
fn distinct_ends(topo: &Topo, leaf: &[u32], leaf_port: &[u8]) -> bool {
    let mut seen = vec![false; topo.link.len()];
    leaf.iter().zip(leaf_port).all(|(&l, &p)| {
        let Some(&base) = topo.base.get(l as usize) else {
            return true;
        };
        let slot = &mut seen[base as usize + usize::from(p)];
        !std::mem::replace(slot, true)
    })
}
