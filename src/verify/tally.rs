//! The verdict's two halves from what the per-destination pass gathered:
//! the figures of the report ([`Stats`]) and the findings, each code's
//! total counted even where its list is capped (`formats/findings.md`).

use std::collections::BTreeMap;

use super::cdg_figures::CdgFigures;
use super::render::Renderer;
use super::{Code, Finding, Stats, VerifyOptions, cdg, topo, walk};
use crate::model::Fabric;

/// The figures of the report.
pub(super) fn stats_of(
    fabric: &Fabric,
    topo: &topo::Topo,
    acc: &walk::Acc,
    cdg: &CdgFigures,
    opts: &VerifyOptions,
) -> Stats {
    Stats {
        switches: fabric.num_switches(),
        ca_lids: topo.target.iter().flatten().filter(|t| t.is_end).count(),
        switch_lids: topo.target.iter().flatten().filter(|t| !t.is_end).count(),
        ca_pairs: acc.ca_pairs,
        unreachable_pairs: acc.unreachable_pairs,
        looping_pairs: acc.looping_pairs,
        switch_pairs: acc.switch_pairs,
        switch_pairs_unreachable: acc.switch_pairs_unreachable,
        max_hops: acc.hop_hist.len().saturating_sub(1),
        hop_histogram: acc.hop_hist.clone(),
        cdg_channels: cdg.channels,
        cdg_edges: cdg.edges,
        vls_used: cdg.vls.count_ones() as usize,
        credit_loops: cdg.cycles.len(),
        up_down_checked: opts.up_down_ranks.is_some(),
    }
}

/// The findings in code order, and each code's total; `ops` are the
/// switches' operational VLs (empty without a VL plan).
pub(super) fn findings_of(
    r: &Renderer,
    acc: &walk::Acc,
    cycles: &[Vec<cdg::Channel>],
    opts: &VerifyOptions,
    ops: &[u8],
) -> (Vec<Finding>, BTreeMap<String, u64>) {
    let mut findings = Vec::new();
    let mut counts = BTreeMap::new();
    let mut add = |code: Code, total: u64, list: Vec<Finding>| {
        if total > 0 {
            counts.insert(code.as_str().to_string(), total);
        }
        findings.extend(list);
    };
    add(
        Code::V001,
        acc.unreach_ca.total,
        r.unreachable(Code::V001, &acc.unreach_ca.items),
    );
    add(
        Code::V002,
        acc.loops_found.total,
        r.loops(&acc.loops_found.items),
    );
    add(
        Code::V003,
        acc.too_long.total,
        r.too_long(&acc.too_long.items, opts.hop_limit),
    );
    add(
        Code::V004,
        acc.unreach_sw.total,
        r.unreachable(Code::V004, &acc.unreach_sw.items),
    );
    add(
        Code::V010,
        acc.updown.len() as u64,
        r.updown(&acc.updown, opts.up_down_ranks.as_deref()),
    );
    add(Code::V020, cycles.len() as u64, r.credit_loops(cycles));
    add(
        Code::V021,
        acc.dropped.total,
        r.lanes(Code::V021, &acc.dropped.items, ops),
    );
    add(
        Code::V022,
        acc.beyond.total,
        r.lanes(Code::V022, &acc.beyond.items, ops),
    );
    (findings, counts)
}
