//! The verify stage: proves properties of forwarding tables from the tables
//! alone (reachability, up/down, deadlock freedom, quality). It never calls
//! an engine.
//!
//! [`verify_tables`] runs checks 1–3 of issue 6 in one destination-based
//! pass (algorithms.md §3.2): for every LID, each switch's fate toward it is
//! computed once by memoised next-hop walks from the source switches; the
//! same pass collects the turns of the destination's in-tree, which become
//! the channel dependency graph. Results are [`Finding`]s with stable codes
//! (`formats/findings.md`), gathered in a [`Verdict`].
//!
//! Destinations whose routes are all clean — the common case — take a
//! fast path (`walk/fast.rs`: one byte of fate per switch, turns as
//! in-port masks per VL, with a VL plan too when its SL2VL tables ignore
//! ports); any other destination takes the exact pass, so findings come
//! from one code path only. Where the up/down check proves the CDG
//! acyclic (ranks given, no V010, every link oriented one way) only its
//! size is counted, for the report (`cdg_figures`); otherwise it is built
//! and searched for cycles.

mod cdg;
#[cfg(test)]
mod cdg_census_tests;
pub mod congestion;
pub mod finding;
pub mod mcast;
pub mod quality;
mod render;
#[cfg(test)]
mod test_ring;
mod topo;
pub mod updown;
mod walk;
#[cfg(test)]
mod walk_fast_escape_tests;
#[cfg(test)]
mod walk_fast_tests;
#[cfg(test)]
mod walk_fast_vl_tests;

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Serialize;

pub use finding::{Code, Finding, Hop, Severity};

use crate::model::{Fabric, LFT_BLOCK, Lfts, LidMap, Routing, Sl2Vl, VlPlan};

/// What to check and how.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Switch ranks for the up/down check (by `SwIdx`, 0 = root), e.g.
    /// `route::Promise::up_down_ranks` or `model::rank::bfs_ranks` from the
    /// roots given to `check`. `None` skips the check.
    pub up_down_ranks: Option<Vec<u32>>,
    /// The virtual-lane plan the tables are checked with: path SLs and
    /// SL2VL tables (`None`: one VL, every path on SL 0). The deadlock
    /// check runs per (destination, SL) on the VL-aware channel graph.
    pub vl_plan: Option<VlPlan>,
    /// Longest acceptable route, in switch-to-switch links.
    pub hop_limit: u32,
    /// Also trace routes that start at switches (toward CA LIDs) and put
    /// switch-LID routes into the CDG (ibdmchk `-a`). Off by default, as
    /// in ibdmchk: management traffic toward switches is light and OpenSM's
    /// min-hop tables are not credit-loop free for it.
    pub all_paths: bool,
    /// Findings kept per code (counts are always complete).
    pub max_findings_per_code: usize,
    /// Operational data VLs of every switch port (IB's common 8 by
    /// default), and per switch where the topology says (by `SwIdx`). Used
    /// with a VL plan: a hop on a VL beyond them is V022.
    pub operational_vls: u8,
    pub switch_vls: Option<Vec<u8>>,
}

impl VerifyOptions {
    /// What `routing`'s engine promises, as the options that check it: its
    /// up/down ranks and its VL plan.
    pub fn promised_by(routing: &Routing) -> Self {
        VerifyOptions {
            up_down_ranks: routing.promise.up_down_ranks.clone(),
            vl_plan: routing.vl_plan.clone(),
            ..VerifyOptions::default()
        }
    }

    /// [`VerifyOptions::promised_by`] with the VL plan (a byte per switch
    /// and LID) moved out of `routing` rather than copied; hand it back
    /// with [`VerifyOptions::give_back`] once the check is done.
    pub fn lent_by(routing: &mut Routing) -> Self {
        VerifyOptions {
            up_down_ranks: routing.promise.up_down_ranks.clone(),
            vl_plan: routing.vl_plan.take(),
            ..VerifyOptions::default()
        }
    }

    /// Returns the VL plan [`VerifyOptions::lent_by`] took.
    pub fn give_back(self, routing: &mut Routing) {
        routing.vl_plan = self.vl_plan;
    }
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            up_down_ranks: None,
            vl_plan: None,
            hop_limit: 64,
            all_paths: false,
            max_findings_per_code: 10,
            operational_vls: 8,
            switch_vls: None,
        }
    }
}

/// Figures from the pass, for reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    pub switches: usize,
    /// LIDs of end ports, and of switches, that were checked.
    pub ca_lids: usize,
    pub switch_lids: usize,
    /// (source end port, destination LID) pairs checked, and how many fail.
    pub ca_pairs: u64,
    pub unreachable_pairs: u64,
    pub looping_pairs: u64,
    /// (source switch, switch LID) pairs, and how many have no route.
    pub switch_pairs: u64,
    pub switch_pairs_unreachable: u64,
    /// Switch-to-switch links of delivered end-port routes: histogram
    /// (index = hops, value = pairs) and maximum.
    pub hop_histogram: Vec<u64>,
    pub max_hops: usize,
    /// Channel dependency graph size.
    pub cdg_channels: usize,
    pub cdg_edges: usize,
    pub vls_used: usize,
    /// Strongly connected components with a cycle.
    pub credit_loops: usize,
    pub up_down_checked: bool,
}

/// The result of [`verify_tables`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Verdict {
    /// The first findings of each code, ordered by code then LID.
    pub findings: Vec<Finding>,
    /// Occurrences per code, including those left out of `findings`.
    pub counts: BTreeMap<String, u64>,
    pub stats: Stats,
}

impl Verdict {
    /// No error findings (warnings allowed).
    pub fn is_clean(&self) -> bool {
        self.errors() == 0
    }

    /// Number of error occurrences.
    pub fn errors(&self) -> u64 {
        Code::ALL
            .iter()
            .filter(|c| c.severity() == Severity::Error)
            .filter_map(|c| self.counts.get(c.as_str()))
            .sum()
    }

    /// Occurrences of `code`.
    pub fn count(&self, code: Code) -> u64 {
        self.counts.get(code.as_str()).copied().unwrap_or(0)
    }

    /// Adds findings of another check (multicast): every one is counted,
    /// the first `cap` of each code are kept, as for the unicast checks.
    pub fn absorb(&mut self, found: impl IntoIterator<Item = Finding>, cap: usize) {
        for f in found {
            let n = self.counts.entry(f.code.as_str().to_string()).or_default();
            *n += 1;
            if *n <= cap as u64 {
                self.findings.push(f);
            }
        }
    }
}

/// What the report says of the channel dependency graph.
struct CdgFigures {
    channels: usize,
    edges: usize,
    /// VLs of the channels, as a bit set.
    vls: u16,
    /// One cycle per cyclic component (`Cdg::cycles`).
    cycles: Vec<Vec<cdg::Channel>>,
}

/// The graph's figures and cycles. When the up/down check passed (ranks
/// given, no violation) and the ranks orient every link one way,
/// `updown::orients_every_link` proves the graph acyclic, so only its size
/// is counted (`cdg::census`); otherwise it is built and searched. The
/// figures are the same either way (`walk_fast_tests`).
fn cdg_figures(
    topo: &topo::Topo,
    turns: &[((u8, u8), fixedbitset::FixedBitSet)],
    opts: &VerifyOptions,
    guids: &[u64],
    no_violation: bool,
) -> CdgFigures {
    let proven = no_violation
        && opts
            .up_down_ranks
            .as_deref()
            .is_some_and(|r| updown::orients_every_link(topo, r, guids));
    if proven {
        let (channels, edges, vls) = cdg::census(topo, turns);
        return CdgFigures {
            channels,
            edges,
            vls,
            cycles: Vec::new(),
        };
    }
    let graph = cdg::Cdg::build(topo, turns);
    let (_, cycles) = graph.cycles();
    CdgFigures {
        channels: graph.nodes.len(),
        edges: graph.num_edges(),
        vls: graph.nodes.iter().fold(0u16, |m, c| m | 1 << c.vl),
        cycles,
    }
}

/// Checks reachability, the hop limit, up/down (when ranks are given) and
/// deadlock freedom of `lfts` on `fabric`. Reads tables only; the result is
/// the same whatever the thread count.
pub fn verify_tables(fabric: &Fabric, lids: &LidMap, lfts: &Lfts, opts: &VerifyOptions) -> Verdict {
    verify_with(fabric, lids, lfts, opts, true)
}

/// [`verify_tables`], with the fast path for clean destinations
/// (`walk/fast.rs`) and the CDG census ([`cdg_figures`]) or, `fast =
/// false`, the exact pass for all of them and the graph always built
/// (the tests of both shortcuts compare the two).
fn verify_with(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    opts: &VerifyOptions,
    fast: bool,
) -> Verdict {
    let topo = topo::Topo::new(fabric, lids);
    let identity = Sl2Vl::identity();
    // A plan that keeps every hop on VL 0 is checked as no plan: the same
    // findings, without the per-SL pass.
    let plan = opts.vl_plan.as_ref().filter(|p| !p.is_single_lane());
    let sl2vl = plan.map_or(&identity, |p| &p.sl2vl);
    let op_vls = plan.map(|_| {
        let mut v = opts.switch_vls.clone().unwrap_or_default();
        let given = v.len();
        v.extend(
            fabric.switches()[given.min(fabric.num_switches())..]
                .iter()
                .map(|&n| fabric.node(n).op_vls.unwrap_or(opts.operational_vls)),
        );
        v.truncate(fabric.num_switches());
        v
    });
    let all: Vec<u32> = (0..fabric.num_switches() as u32).collect();
    let leaves: Vec<u32> = all
        .iter()
        .copied()
        .filter(|&s| topo.hosts[s as usize] > 0)
        .collect();
    let guids: Vec<u64> = fabric
        .switches()
        .iter()
        .map(|&n| fabric.node(n).guid.0)
        .collect();
    let cx = walk::WalkCtx {
        topo: &topo,
        lfts,
        sl2vl,
        port_map: sl2vl.port_map(),
        path_sl: plan.map(|p| &p.path_sl),
        leaves: &leaves,
        all: &all,
        all_paths: opts.all_paths,
        hop_limit: opts.hop_limit,
        ranks: opts.up_down_ranks.as_deref(),
        op_vls: op_vls.as_deref(),
        guids: &guids,
        cap: opts.max_findings_per_code.max(1),
        host_vl: sl2vl
            .port_map()
            .is_none()
            .then(|| walk::host_vl_table(&topo, sl2vl)),
    };
    // Blocks of 64 LIDs: one cache line per switch row per block, loaded
    // once and transposed.
    let top = topo.max_lid().min(lfts.top()) as usize;
    // Clean destinations take the fast path; the others (and every
    // destination where it does not apply) the exact pass.
    // (`fast = false` also builds the CDG where `cdg_figures` would count it)
    let shortcuts = fast;
    let fast = walk::FastTables::new(&cx).filter(|_| fast);
    let mut acc = (0..top / LFT_BLOCK + 1)
        .into_par_iter()
        .fold(
            || walk::Acc::new(&cx),
            |mut acc, b| {
                acc.load_block(&cx, fast.as_ref(), b);
                let end = ((b + 1) * LFT_BLOCK).min(top + 1);
                for lid in (b * LFT_BLOCK).max(1)..end {
                    let lid = lid as u16;
                    if !fast
                        .as_ref()
                        .is_some_and(|f| acc.fast_destination(&cx, f, lid))
                    {
                        acc.destination(&cx, lid);
                    }
                }
                acc
            },
        )
        .reduce(|| walk::Acc::new(&cx), walk::Acc::merge);
    if fast.is_some() {
        acc.flush_fast(&cx);
    }
    let turns = std::mem::replace(&mut acc.turns, cdg::TurnSets::new(0)).sorted();
    let cdg = cdg_figures(
        &topo,
        &turns,
        opts,
        &guids,
        shortcuts && acc.updown.is_empty(),
    );
    let stats = Stats {
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
    };
    let (ncycles, cycles) = (cdg.cycles.len(), cdg.cycles);
    let r = render::Renderer {
        fabric,
        lids,
        topo: &topo,
        cap: cx.cap,
    };
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
    add(Code::V020, ncycles as u64, r.credit_loops(&cycles));
    let ops = op_vls.as_deref().unwrap_or(&[]);
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
    Verdict {
        findings,
        counts,
        stats,
    }
}
