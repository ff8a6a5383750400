//! The quality report: figures of the passes of `quality.rs`, as JSON
//! (`formats/quality-report.md`); the operator's table is in `table.rs`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{PermLoad, QualityOptions, Walker, all_to_all, random, shifts};
use crate::model::{Fabric, Lfts, LidMap};
use crate::verify::congestion::EndPort;
use crate::verify::topo::Link;

/// Everything `routec report` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QualityReport {
    /// Nodes in the order (the N of the patterns).
    pub nodes: usize,
    /// `topological` (ascending leaf switch GUID, leaf port) or `file`.
    pub node_order: String,
    pub hop_limit: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shift: Option<PermQuality>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random: Option<PermQuality>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_to_all: Option<A2aQuality>,
    pub hops: HopStats,
    /// With LMC > 0: how many of each CA pair's paths are link-disjoint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_diversity: Option<super::PathDiversity>,
}

/// How many permutations reached a given max switch-link load.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoadCount {
    pub load: u32,
    pub count: u64,
}

/// Shift or random permutations.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PermQuality {
    pub permutations: usize,
    /// Random permutations only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Max over permutations of the max switch-to-switch link load.
    pub max_switch_load: u32,
    /// Mean over permutations of the max switch-link load (4 decimals).
    pub mean_switch_load: f64,
    pub max_host_load: u32,
    /// Histogram of the per-permutation max switch-link load.
    pub histogram: Vec<LoadCount>,
    /// The first (up to 10) permutations reaching `max_switch_load`: shift
    /// k, or the 0-based sample number.
    pub worst: Vec<usize>,
    pub unrouted_pairs: u64,
    pub over_hop_limit_pairs: u64,
}

/// A directed cable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LinkRef {
    pub from: String,
    pub from_name: String,
    pub port: u8,
    pub to: String,
    pub to_name: String,
    pub to_port: u8,
}

/// All-to-all.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct A2aQuality {
    /// Ordered pairs of distinct nodes.
    pub pairs: u64,
    /// Edge forwarding index over switch-to-switch links.
    pub efi_switch: u64,
    /// Lower bound on it: max over leaves of n·(N−n)/switch links of the
    /// leaf (4 decimals).
    pub lower_bound_switch: f64,
    /// `efi_switch / lower_bound_switch` (≥ 1; absent when the bound is 0).
    pub ratio: Option<f64>,
    /// The leaf switch giving the bound.
    pub bound_leaf: Option<String>,
    /// The first most loaded switch-to-switch link (slot order).
    pub worst_link: Option<LinkRef>,
    /// Max over host links (N−1 when every pair is delivered).
    pub efi_host: u64,
    pub unrouted_pairs: u64,
    pub over_hop_limit_pairs: u64,
}

/// Switch-to-switch links of delivered routes, over all ordered pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HopStats {
    pub pairs: u64,
    pub min: u32,
    pub mean: f64,
    pub max: u32,
    /// Index = hops, value = pairs.
    pub histogram: Vec<u64>,
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

fn perm_quality(per: &[PermLoad], seed: Option<u64>) -> PermQuality {
    let max = per.iter().map(|p| p.max_switch).max().unwrap_or(0);
    let mut hist = BTreeMap::new();
    per.iter()
        .for_each(|p| *hist.entry(p.max_switch).or_insert(0u64) += 1);
    let sum: u64 = per.iter().map(|p| u64::from(p.max_switch)).sum();
    PermQuality {
        permutations: per.len(),
        seed,
        max_switch_load: max,
        mean_switch_load: round4(sum as f64 / per.len().max(1) as f64),
        max_host_load: per.iter().map(|p| p.max_host).max().unwrap_or(0),
        histogram: hist
            .into_iter()
            .map(|(load, count)| LoadCount { load, count })
            .collect(),
        worst: (0..per.len())
            .filter(|&i| per[i].max_switch == max)
            .take(10)
            .map(|i| if seed.is_some() { i } else { i + 1 })
            .collect(),
        unrouted_pairs: per.iter().map(|p| p.unrouted).sum(),
        over_hop_limit_pairs: per.iter().map(|p| p.over_hop_limit).sum(),
    }
}

/// Evaluates the patterns of `opts` for the node order `nodes` (`order`
/// names it in the report). The result does not depend on the thread count.
pub fn evaluate(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    nodes: &[EndPort],
    order: &str,
    opts: &QualityOptions,
) -> QualityReport {
    let mut w = Walker::new(fabric, lids, lfts, nodes, opts.hop_limit);
    // The all-to-all pass walks every (leaf, destination) route anyway.
    w.memoize();
    let shift = opts.shift.then(|| perm_quality(&shifts(&w), None));
    let random = opts
        .random
        .then(|| perm_quality(&random(&w, opts.samples, opts.seed), Some(opts.seed)));
    let sums = all_to_all(&w);
    let delivered: u64 = sums.hops.iter().sum();
    let weighted: u64 = sums
        .hops
        .iter()
        .enumerate()
        .map(|(h, c)| h as u64 * c)
        .sum();
    let hops = HopStats {
        pairs: delivered,
        min: sums.hops.iter().position(|&c| c > 0).unwrap_or(0) as u32,
        mean: round4(weighted as f64 / delivered.max(1) as f64),
        max: sums.hops.len().saturating_sub(1) as u32,
        histogram: sums.hops.clone(),
    };
    let all_to_all = opts.all_to_all.then(|| a2a_quality(fabric, &w, &sums));
    QualityReport {
        nodes: nodes.len(),
        node_order: order.to_string(),
        hop_limit: opts.hop_limit,
        shift,
        random,
        all_to_all,
        hops,
        path_diversity: super::path_diversity(fabric, lids, lfts, opts.hop_limit),
    }
}

fn a2a_quality(fabric: &Fabric, w: &Walker, sums: &super::A2aSums) -> A2aQuality {
    let topo = &w.topo;
    let n = w.lid.len() as u64;
    let (mut efi_switch, mut worst, mut efi_host) = (0u64, None, 0u64);
    for (slot, (&l, link)) in sums.load.iter().zip(&topo.link).enumerate() {
        match link {
            Link::Switch(..) if l > efi_switch => (efi_switch, worst) = (l, Some(slot)),
            Link::End(..) => efi_host = efi_host.max(l),
            _ => {}
        }
    }
    efi_host = efi_host.max(sums.up.iter().copied().max().unwrap_or(0));
    // Cut around each leaf: its n sources send n·(N−n) pairs out through
    // its switch links, so one of them carries at least the average.
    let mut on_leaf = vec![0u64; topo.num_switches()];
    w.leaf
        .iter()
        .filter(|&&l| l != u32::MAX)
        .for_each(|&l| on_leaf[l as usize] += 1);
    let (mut bound, mut bound_leaf) = (0f64, None);
    for (s, &c) in on_leaf.iter().enumerate().filter(|(_, c)| **c > 0) {
        let ups = (0..topo.num_ports(s))
            .filter(|&p| matches!(topo.link(s, p as u8), Some(Link::Switch(..))))
            .count();
        let b = (c * (n - c)) as f64 / ups.max(1) as f64;
        if ups > 0 && b > bound {
            (bound, bound_leaf) = (b, Some(s));
        }
    }
    A2aQuality {
        pairs: n * n.saturating_sub(1),
        efi_switch,
        lower_bound_switch: round4(bound),
        ratio: (bound > 0.0).then(|| round4(efi_switch as f64 / bound)),
        bound_leaf: bound_leaf.map(|s| fabric.node(fabric.switches()[s]).guid.to_string()),
        worst_link: worst.map(|slot| link_ref(fabric, topo, slot)),
        efi_host,
        unrouted_pairs: sums.unrouted,
        over_hop_limit_pairs: sums.over_hop_limit,
    }
}

fn link_ref(fabric: &Fabric, topo: &crate::verify::topo::Topo, slot: usize) -> LinkRef {
    let s = topo.base.partition_point(|&b| b as usize <= slot) - 1;
    let port = (slot - topo.base[s] as usize) as u8;
    let from = fabric.node(fabric.switches()[s]);
    let (to, to_port) = match topo.link(s, port) {
        Some(Link::Switch(t, tp)) => (fabric.node(fabric.switches()[t as usize]), tp),
        _ => (from, 0),
    };
    LinkRef {
        from: from.guid.to_string(),
        from_name: from.desc.clone(),
        port,
        to: to.guid.to_string(),
        to_name: to.desc.clone(),
        to_port,
    }
}
