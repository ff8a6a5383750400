//! `updn`: OpenSM 3.3.23's up/down engine, table for table
//! (algorithms.md §2.3; `opensm/osm_ucast_updn.c`). Roots, a rank BFS from
//! them, then one up/down BFS per destination switch with OpenSM's
//! per-node direction quirks, then the min-hop port assignment unchanged.

use std::collections::VecDeque;

use rayon::prelude::*;

use super::minhop::order_notes;
use super::opensm::assign::{self, LeastHops};
use super::opensm::hops::Distances;
use super::opensm::{NO_PATH, SwitchGraph, order};
use super::{Engine, Note, Promise, RootSpec, RouteError, RouteOptions, Routing};
use crate::model::rank;
use crate::model::{Fabric, LidMap, SwIdx};

/// OpenSM's up/down engine.
pub struct UpDown;

impl Engine for UpDown {
    fn name(&self) -> &'static str {
        "updn"
    }

    fn route(
        &self,
        fabric: &Fabric,
        lids: &LidMap,
        opts: &RouteOptions,
    ) -> Result<Routing, RouteError> {
        let g = SwitchGraph::new(fabric);
        let mut notes = Vec::new();
        let roots = find_roots(fabric, &g, &opts.roots, &mut notes)?;
        let ranks = rank::bfs_ranks(fabric, &roots);
        // the port order is serial and needs no tables: it runs beside them
        let (tables, order) = rayon::join(
            || UpDownTables::compute(fabric, &g, &ranks),
            || order::port_order(fabric, &g, opts.node_order.as_deref()),
        );
        let lfts = assign::assign(fabric, &g, &tables, &order.targets, lids.max_lid());
        notes.extend(order_notes(&order));
        Ok(Routing {
            roots,
            promise: Promise {
                up_down_ranks: Some(ranks),
            },
            notes,
            ..Routing::new("updn", lfts)
        })
    }
}

/// The root switches, in OpenSM's switch order.
pub fn find_roots(
    fabric: &Fabric,
    g: &SwitchGraph,
    spec: &RootSpec,
    notes: &mut Vec<Note>,
) -> Result<Vec<SwIdx>, RouteError> {
    let mut is_root = vec![false; g.num_switches()];
    match spec {
        RootSpec::Guids(guids) => {
            let (found, ignored) = rank::switches_by_guid(fabric, guids);
            found.iter().for_each(|s| is_root[s.ix()] = true);
            if let Some(first) = ignored.first() {
                notes.push(Note {
                    code: "R003",
                    message: format!(
                        "{} root GUID(s) name no switch of the fabric and are ignored, as OpenSM does \
                         (first: {first})",
                        ignored.len()
                    ),
                });
            }
        }
        RootSpec::Auto => {
            is_root = histogram_roots(fabric, &Distances::compute(fabric));
            let n = g.num_switches();
            if n > 1 && is_root.iter().all(|&r| r) {
                notes.push(Note {
                    code: "R001",
                    message: format!(
                        "OpenSM's root heuristic made every switch ({n}/{n}) an up/down root: all ranks \
                         are 0, so up/down equals min-hop and gives NO deadlock-freedom guarantee \
                         (OpenSM does this silently on large fat trees); use --roots top (the \
                         highest-rank switches) or --roots FILE"
                    ),
                });
            }
        }
        RootSpec::Top => rank::top_switches(fabric)
            .iter()
            .for_each(|s| is_root[s.ix()] = true),
    }
    let roots: Vec<SwIdx> = g
        .guid_order
        .iter()
        .copied()
        .filter(|s| is_root[s.ix()])
        .collect();
    if roots.is_empty() {
        return Err(RouteError {
            message: match spec {
                RootSpec::Auto => "up/down: OpenSM's root heuristic finds no root switch in this fabric \
                                   (OpenSM would silently fall back to min-hop)"
                    .into(),
                RootSpec::Top => "up/down: --roots top needs switches with hosts (leaves); this fabric has none".into(),
                RootSpec::Guids(_) => "up/down: no GUID of the root file names a switch of this fabric".into(),
            },
            help: Some("pass --roots top (the switches of highest rank from the leaves) or --roots FILE listing root switch GUIDs".into()),
        });
    }
    Ok(roots)
}

/// `updn_find_root_nodes_by_min_hop`: a switch is a root iff, in the
/// histogram of CA ports by their switch's least-hop distance, exactly one
/// bar exceeds 90 % of all CA ports and exactly one exceeds 5 %
/// (seed opensm-unicast-routing-enhancements-2005 §4.1).
pub fn histogram_roots(fabric: &Fabric, dist: &Distances) -> Vec<bool> {
    let n = dist.num_switches();
    let mut cas_per_sw = vec![0u32; n];
    for node in fabric.node_indices().filter(|&m| !fabric.is_switch(m)) {
        for port in &fabric.ports(node)[1..] {
            if let Some(s) = port.peer.and_then(|q| fabric.switch_index(q.node)) {
                cas_per_sw[s.ix()] += 1;
            }
        }
    }
    let cas_num: u32 = cas_per_sw.iter().sum();
    let (thd1, thd2) = (cas_num as f64 * 0.9, cas_num as f64 * 0.05);
    (0..n)
        .into_par_iter()
        .map(|s| {
            let mut hist = [0u32; 64];
            for (x, &c) in cas_per_sw.iter().enumerate() {
                let h = dist.get(s, x) as usize;
                if c > 0 && h < hist.len() {
                    hist[h] += c;
                }
            }
            let over = |t: f64| hist.iter().filter(|&&v| v as f64 > t).count();
            over(thd1) == 1 && over(thd2) == 1
        })
        .collect()
}

/// `updn_get_dir`: the direction of a step from `cur` to `rem` seen from the
/// destination's BFS. Ties in rank are broken by node GUID (the updn id).
#[inline]
fn is_up(cur_rank: u32, rem_rank: u32, cur_id: u64, rem_id: u64) -> bool {
    if cur_rank == 0 && rem_rank == 0 {
        return true;
    }
    match cur_rank.cmp(&rem_rank) {
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => cur_id > rem_id,
    }
}

/// Up/down hop tables: `least[x][s]`, plus one bit per (destination switch,
/// port-end) telling whether the port-end has the least hop count, the only
/// thing the port assignment asks (S² bytes + S·E bits instead of S²·P).
pub struct UpDownTables {
    n: usize,
    least: Vec<u8>,
    words: usize,
    bits: Vec<u64>,
}

impl LeastHops for UpDownTables {
    #[inline]
    fn least(&self, s: usize, x: usize) -> u8 {
        self.least[x * self.n + s]
    }

    #[inline]
    fn on_least_path(&self, e: usize, x: usize, _least: u8) -> bool {
        (self.bits[x * self.words + e / 64] >> (e % 64)) & 1 == 1
    }
}

/// Per-thread state of the per-destination BFS.
struct Bfs {
    hops: Vec<u8>,
    queued: Vec<bool>,
    down: Vec<bool>,
    queue: VecDeque<u32>,
}

impl UpDownTables {
    /// `updn_bfs_by_node` for every switch, in parallel.
    pub fn compute(fabric: &Fabric, g: &SwitchGraph, ranks: &[u32]) -> Self {
        let n = g.num_switches();
        let words = g.num_port_ends().div_ceil(64).max(1);
        let ids: Vec<u64> = fabric
            .switches()
            .iter()
            .map(|&m| fabric.node(m).guid.0)
            .collect();
        let mut least = vec![NO_PATH; n * n];
        let mut bits = vec![0u64; n * words];
        if n > 0 {
            least
                .par_chunks_mut(n)
                .zip(bits.par_chunks_mut(words))
                .enumerate()
                .for_each_init(
                    || Bfs {
                        hops: vec![NO_PATH; g.num_port_ends()],
                        queued: vec![false; n],
                        down: vec![false; n],
                        queue: VecDeque::new(),
                    },
                    |b, (d, (row, bitrow))| {
                        bfs_by_node(g, ranks, &ids, d, row, b);
                        for (s, &hops) in row.iter().enumerate() {
                            if hops == NO_PATH {
                                continue;
                            }
                            for e in g.ends(s) {
                                if b.hops[e] == hops {
                                    bitrow[e / 64] |= 1 << (e % 64);
                                }
                            }
                        }
                    },
                );
        }
        UpDownTables {
            n,
            least,
            words,
            bits,
        }
    }
}

/// One destination's BFS, replicating OpenSM's quirks: direction and
/// "queued" are per node, not per (node, direction); a node keeps the
/// direction it was queued with, may be queued again once popped, and
/// relaxes a neighbour's port when `least(u) + 1` beats it.
fn bfs_by_node(
    g: &SwitchGraph,
    ranks: &[u32],
    ids: &[u64],
    d: usize,
    least: &mut [u8],
    b: &mut Bfs,
) {
    b.hops.fill(NO_PATH);
    b.queued.fill(false);
    b.down.fill(false);
    b.queue.clear();
    least[d] = 0;
    b.queue.push_back(d as u32);
    while let Some(u) = b.queue.pop_front() {
        let u = u as usize;
        b.queued[u] = false;
        let u_down = b.down[u];
        let next = least[u] as u16 + 1;
        for e in g.ends(u) {
            let r = g.nbr[e] as usize;
            let up = is_up(ranks[u], ranks[r], ids[u], ids[r]);
            if u_down && up {
                continue;
            }
            let f = g.rev[e] as usize;
            if f >= b.hops.len() || next >= b.hops[f] as u16 {
                continue;
            }
            b.hops[f] = next as u8;
            if least[r] as u16 > next {
                least[r] = next as u8;
            }
            if !b.queued[r] {
                b.down[r] = !up;
                b.queued[r] = true;
                b.queue.push_back(r as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests;
