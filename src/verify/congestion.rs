//! Link load of a traffic pattern routed by forwarding tables (the "maximum
//! congestion risk" of algorithms.md §4): trace every (source, destination)
//! pair through the LFTs via LIDs and count routes per directed link.
//!
//! Switch-to-switch links and host links (CA ↔ switch, either direction) are
//! counted apart, since a permutation loads every host link at most once
//! whatever the routing. Loads are per *cable*, so parallel cables count
//! separately, as the paper's Dmodk/Dmodc port choice spreads over them.

use rayon::prelude::*;

use crate::model::{Fabric, Lfts, LidMap, NO_ROUTE, NodeIdx, PortNum};

/// An end port: a CA or router port with a LID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndPort {
    pub node: NodeIdx,
    pub port: PortNum,
}

/// Why a route could not be followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceError {
    /// The source port has no cable to a switch, or the destination no LID.
    NotAttached(EndPort),
    /// A switch has no entry for the LID (NO_ROUTE, or a port without cable).
    Dead { switch: NodeIdx, lid: u16, port: u8 },
    /// The route reached an end port that is not the destination.
    WrongEnd { lid: u16, reached: NodeIdx },
    /// More than 64 switch hops: a loop.
    Loop { lid: u16 },
}

/// Dense numbering of directed links: `(node, port)` → slot.
#[derive(Clone, Debug)]
pub struct LinkIndex {
    start: Vec<u32>,
}

impl LinkIndex {
    pub fn new(fabric: &Fabric) -> Self {
        let mut start = Vec::with_capacity(fabric.num_nodes() + 1);
        let mut acc = 0u32;
        for n in fabric.node_indices() {
            start.push(acc);
            acc += fabric.ports(n).len() as u32;
        }
        start.push(acc);
        LinkIndex { start }
    }

    /// Slot of the link leaving `node` through `port`.
    pub fn slot(&self, node: NodeIdx, port: PortNum) -> usize {
        self.start[node.ix()] as usize + port as usize
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        *self.start.last().unwrap_or(&0) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Follows the route from `src` to the LID `lid` and calls `hop(node, port)`
/// for every directed link used, the host links included.
pub fn trace(
    fabric: &Fabric,
    lfts: &Lfts,
    src: EndPort,
    lid: u16,
    mut hop: impl FnMut(NodeIdx, PortNum),
) -> Result<(), TraceError> {
    let first = fabric
        .peer(src.node, src.port)
        .filter(|p| fabric.is_switch(p.node))
        .ok_or(TraceError::NotAttached(src))?;
    hop(src.node, src.port);
    let mut at = first.node;
    for _ in 0..64 {
        let sw = fabric.switch_index(at).expect("traced node is a switch");
        let out = if (lid as usize) < lfts.stride() {
            lfts.get(sw.ix(), lid)
        } else {
            NO_ROUTE
        };
        if out == 0 {
            return if fabric.switch_lid(at) == lid {
                Ok(())
            } else {
                Err(TraceError::Dead {
                    switch: at,
                    lid,
                    port: 0,
                })
            };
        }
        let next = (out != NO_ROUTE).then(|| fabric.peer(at, out)).flatten();
        let Some(next) = next else {
            return Err(TraceError::Dead {
                switch: at,
                lid,
                port: out,
            });
        };
        hop(at, out);
        if fabric.is_switch(next.node) {
            at = next.node;
            continue;
        }
        let p = fabric.port(next.node, next.port);
        let owns = p.owns_lid(lid);
        return if owns {
            Ok(())
        } else {
            Err(TraceError::WrongEnd {
                lid,
                reached: next.node,
            })
        };
    }
    Err(TraceError::Loop { lid })
}

/// Loads of one pattern.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkLoad {
    /// Highest number of routes on one directed switch-to-switch link.
    pub max_switch: u32,
    /// Highest on one directed host link.
    pub max_host: u32,
    /// `switch_histogram[k]` = directed switch-to-switch links carrying k
    /// routes (k >= 1; index 0 unused).
    pub switch_histogram: Vec<u64>,
    pub host_histogram: Vec<u64>,
    /// Pairs whose route could not be followed, with the first failure.
    pub failed: usize,
    pub first_failure: Option<(EndPort, EndPort, TraceError)>,
}

/// Routes every `(src, dst)` pair of `pairs` (destination: the base LID of
/// `dst`) and counts loads per directed link.
pub fn pattern_load(
    fabric: &Fabric,
    lfts: &Lfts,
    links: &LinkIndex,
    pairs: &[(EndPort, EndPort)],
) -> LinkLoad {
    let mut load = vec![0u32; links.len()];
    let mut out = LinkLoad::default();
    for &(s, d) in pairs {
        let lid = fabric.port(d.node, d.port).lid;
        let r = if crate::model::lids::is_assigned(lid) {
            trace(fabric, lfts, s, lid, |n, p| load[links.slot(n, p)] += 1)
        } else {
            Err(TraceError::NotAttached(d))
        };
        if let Err(e) = r {
            out.failed += 1;
            out.first_failure.get_or_insert((s, d, e));
        }
    }
    for n in fabric.node_indices() {
        for (p, port) in fabric.ports(n).iter().enumerate() {
            let Some(peer) = port.peer else { continue };
            let l = load[links.slot(n, p as PortNum)];
            if l == 0 {
                continue;
            }
            let (max, hist) = if fabric.is_switch(n) && fabric.is_switch(peer.node) {
                (&mut out.max_switch, &mut out.switch_histogram)
            } else {
                (&mut out.max_host, &mut out.host_histogram)
            };
            *max = (*max).max(l);
            if hist.len() <= l as usize {
                hist.resize(l as usize + 1, 0);
            }
            hist[l as usize] += 1;
        }
    }
    out
}

/// The end ports of compute nodes in topological order: ascending (leaf
/// switch GUID, leaf port), Dmodc's default node order.
pub fn topological_nodes(fabric: &Fabric) -> Vec<EndPort> {
    let mut v: Vec<_> = fabric
        .node_indices()
        .filter(|&n| crate::model::rank::is_compute_endpoint(fabric, n))
        .flat_map(|n| {
            fabric
                .ports(n)
                .iter()
                .enumerate()
                .skip(1)
                .filter_map(move |(p, port)| {
                    let peer = port.peer.filter(|q| fabric.is_switch(q.node))?;
                    Some((
                        fabric.node(peer.node).guid,
                        peer.port,
                        EndPort {
                            node: n,
                            port: p as PortNum,
                        },
                    ))
                })
        })
        .collect();
    v.sort_by_key(|e| (e.0, e.1));
    v.into_iter().map(|e| e.2).collect()
}

/// Result of all shift permutations i → i+k mod N, k = 1..N−1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShiftReport {
    /// Max switch-link load over every shift.
    pub max_switch: u32,
    /// `per_shift[k-1]` = max switch-link load of shift k.
    pub per_shift: Vec<u32>,
    /// Pairs that failed to trace, over all shifts.
    pub failed: usize,
}

/// Max congestion of every shift permutation over `nodes` (in that order),
/// shifts in parallel; the result does not depend on the thread count.
pub fn shift_congestion(
    fabric: &Fabric,
    _lids: &LidMap,
    lfts: &Lfts,
    nodes: &[EndPort],
) -> ShiftReport {
    let links = LinkIndex::new(fabric);
    let n = nodes.len();
    let per: Vec<LinkLoad> = (1..n)
        .into_par_iter()
        .map(|k| {
            let pairs: Vec<_> = (0..n).map(|i| (nodes[i], nodes[(i + k) % n])).collect();
            pattern_load(fabric, lfts, &links, &pairs)
        })
        .collect();
    ShiftReport {
        max_switch: per.iter().map(|l| l.max_switch).max().unwrap_or(0),
        per_shift: per.iter().map(|l| l.max_switch).collect(),
        failed: per.iter().map(|l| l.failed).sum(),
    }
}
