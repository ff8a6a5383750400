//! The fast path of the per-destination pass, for the common case:
//! switches of at most 64 ports, SL2VL tables that ignore ports (one VL
//! per SL: no plan, or layering's and OpenSM's QoS shape), and a
//! destination every source reaches without a loop, a dead end, an
//! over-long route or a hop on a lane its switch lacks. It computes what
//! [`Acc::destination`] computes for such a destination — hop histogram,
//! pair counts, in-tree turns per VL, up/down violations — with flat arrays
//! and port bit masks instead of per-turn inserts; any destination it
//! cannot prove clean is handed back (`false`) to the exact pass, so
//! findings are those of that pass, byte for byte.
//!
//! With a VL plan the SL is fixed per (source switch, LID) path and each
//! SL is one VL everywhere, so a switch's turns toward the destination are
//! on the VLs of the SLs of the sources upstream of it: when all sources
//! share one SL (the usual case) the whole in-tree is on its VL; otherwise
//! each switch gets the bit set of SLs passing it, pushed down the tree
//! from the sources. Lanes need no per-hop check: an SL whose VL is
//! within every switch's operational VLs (and not 15) is fine at every
//! hop, and a destination using any other SL takes the exact pass.
//!
//! Why it is faster: a switch's turns toward one destination all leave by
//! the same out port, so they are one mask of in ports, OR-ed into a
//! per-(switch, out port) word (one word write per switch instead of one
//! bitset insert per turn), and fates are one byte per switch, reset with
//! a `fill` rather than a list of touched switches.
//!
//! A switch's next hop toward the destination is its entry of the loaded
//! block's column, read again where needed rather than copied into a
//! per-switch array at every step; the walk itself runs on slices split
//! from the scratch (`fast/walker.rs`). The turn masks are counted for the
//! CDG census as they are when the ranks prove the graph acyclic
//! (`cdg_masks.rs`), and moved into turn sets only when it is built.
//!
//! A part of CA LIDs (up to four switch LIDs) is loaded for the switches
//! with end ports alone when they are under three quarters of the
//! switches (`Acc::load_part`): they are the CA LIDs' only sources, and the
//! walk loads the entry of any other switch it steps on into the column
//! itself (`fast/walker.rs`). On the 27,648-host RLFT that is 47 of the
//! 1,728 spines and tops per LID (a spine per pod and one top), where the
//! whole load converted all of them (a third of the stage).

use super::super::topo::{Link, Topo};
use super::super::updown;
use super::{Acc, WalkCtx};
use crate::model::{LFT_BLOCK, Lid};
pub(crate) use entries::PART;

mod dest;
mod entries;
mod walker;
mod weigh;

/// `hop` entry of a port that does not lead to another switch.
const NONE: u32 = u32::MAX;
/// `hop` bit: the link goes up (by the up/down ranks, when given).
const UP: u32 = 1 << 12;
/// A `hop` entry packs, from the low bits: the out port (6 bits), the
/// far port (6), [`UP`] and the next switch (19), so that one word read
/// per source per destination gives all a step needs.
const FAR_SHIFT: u32 = 6;
const NEXT_SHIFT: u32 = 13;

/// The switch a `hop` entry leads to.
#[inline(always)]
fn next_of(h: u32) -> usize {
    (h >> NEXT_SHIFT) as usize
}

/// The in port by which a `hop` entry enters its next switch.
#[inline(always)]
fn far_of(h: u32) -> u32 {
    (h >> FAR_SHIFT) & 63
}

/// The out port of a `hop` entry.
#[inline(always)]
fn out_of(h: u32) -> u8 {
    (h & 63) as u8
}
/// Fates in `depth`: not reached yet, on the walk's stack.
const UNKNOWN: u8 = u8::MAX;
const ON_STACK: u8 = u8::MAX - 1;
/// Deepest route the fast path follows; longer ones go to the exact pass.
const MAX_DEPTH: u32 = 200;

/// Per-port tables of the fast path, built once per check.
pub(crate) struct FastTables {
    /// Per switch port, 64 slots a switch (`s << 6 | p`): `next switch <<
    /// 13 | UP | far port << 6 | p`, or `NONE` when the port does not lead
    /// to a switch or is beyond the switch's. A fixed stride rather than
    /// the flat port numbering saves the per-switch base lookup of every
    /// hop. Parts of the tables' blocks are loaded as these entries
    /// ([`FastTables::load_part`]).
    hop: Vec<u32>,
    /// Source weight of each switch toward a CA LID (its end ports, plus
    /// the switch itself with `all_paths`), before the destination's own.
    weight: Vec<u32>,
    /// The VL of each SL at every hop (one map for all ports).
    vl_of_sl: [u8; 16],
    /// SLs whose VL is 15 (drop) or beyond some switch's operational VLs:
    /// destinations with paths on them take the exact pass (V021/V022).
    bad_sls: u16,
    hop_limit: u8,
    /// Per switch, its in ports whose hop into it goes down by the ranks
    /// (those whose peer's entry lacks [`UP`]): a turn from one of them
    /// onto an up port breaks up/down. The down half of the in-tree's
    /// masks, known before any destination.
    down_in: Vec<u64>,
    /// Whether parts of CA LIDs pay to load the switches with end ports
    /// alone (`leaf_runs`: under three quarters of the switches): without
    /// `all_paths` they are the only sources toward a CA LID, and the walk
    /// loads the few other switches on their routes itself
    /// (`Acc::load_part`). `false`: every part is loaded whole.
    source_parts: bool,
    /// The switches with end ports as runs of consecutive indices
    /// (`(first, end)`): what a sources-only part loads, and, when they are
    /// few, how the sources of a CA LID are walked and weighed
    /// (`fast/weigh.rs`).
    leaf_runs: Vec<(u32, u32)>,
    /// Whether `leaf_runs` are few enough to walk and weigh by.
    few_leaf_runs: bool,
    /// A weight of 1 per switch: every switch is one source of a switch LID
    /// (weighed with `all_paths` only: otherwise they are only counted).
    ones: Vec<u32>,
}

impl FastTables {
    /// The switches with end ports as runs, when sources-only parts load them.
    pub(super) fn source_runs(&self) -> Option<&[(u32, u32)]> {
        self.source_parts.then_some(&self.leaf_runs[..])
    }

    /// The switches with end ports as runs, when few enough to walk and
    /// weigh the sources of a CA LID by.
    pub(super) fn leaf_runs(&self) -> Option<&[(u32, u32)]> {
        self.few_leaf_runs.then_some(&self.leaf_runs[..])
    }

    /// The tables, or `None` where the fast path does not apply: real
    /// per-port SL2VL tables, switches of more than 64 ports, or tables
    /// of another switch count.
    pub fn new(cx: &WalkCtx) -> Option<Self> {
        let topo = cx.topo;
        let n = topo.num_switches();
        if cx.lfts.num_switches() != n {
            return None;
        }
        let map = cx.port_map?;
        if (0..n).any(|s| topo.num_ports(s) > 64) || n >= (1 << (32 - NEXT_SHIFT)) - 1 {
            return None;
        }
        let rank = |s: usize| cx.ranks.and_then(|r| r.get(s).copied()).unwrap_or(u32::MAX);
        let mut hop = vec![NONE; n << 6];
        let mut down_in = vec![0u64; n];
        for s in 0..n {
            for p in 0..topo.num_ports(s) {
                if let Link::Switch(m, q) = topo.link[topo.base[s] as usize + p] {
                    let up = cx.ranks.is_some()
                        && updown::is_up(
                            rank(s),
                            cx.guids[s],
                            rank(m as usize),
                            cx.guids[m as usize],
                        );
                    if !up {
                        down_in[m as usize] |= 1 << q;
                    }
                    hop[s << 6 | p] = m << NEXT_SHIFT
                        | if up { UP } else { 0 }
                        | u32::from(q) << FAR_SHIFT
                        | p as u32;
                }
            }
        }
        let weight = topo
            .hosts
            .iter()
            .map(|&h| h + u32::from(cx.all_paths))
            .collect();
        let vl_of_sl = map.map(|v| v & 15);
        // check_lane's rule, against the fewest operational VLs of any switch
        let min_op = cx
            .op_vls
            .map(|o| o.iter().copied().min().unwrap_or(u8::MAX));
        let bad_sls = (0..16)
            .filter(|&sl| {
                let v = vl_of_sl[sl];
                min_op.is_some_and(|m| v >= m || v == crate::model::vl::VL_DROP)
            })
            .fold(0u16, |m, sl| m | 1 << sl);
        let leaf_runs = weigh::runs_of(cx.leaves);
        Some(FastTables {
            hop,
            weight,
            vl_of_sl,
            bad_sls,
            hop_limit: cx.hop_limit.min(MAX_DEPTH) as u8,
            down_in,
            source_parts: !cx.all_paths && cx.leaves.len() * 4 < n * 3,
            few_leaf_runs: weigh::few_runs(&leaf_runs, cx.leaves.len()),
            leaf_runs,
            ones: vec![1; n],
        })
    }
}

#[cfg(test)]
impl FastTables {
    /// Tables with the given `hop` entries and nothing else (tests of the
    /// block load).
    pub(super) fn for_test(hop: Vec<u32>) -> Self {
        FastTables {
            hop,
            weight: Vec::new(),
            vl_of_sl: [0; 16],
            bad_sls: 0,
            hop_limit: 64,
            down_in: Vec::new(),
            source_parts: false,
            leaf_runs: Vec::new(),
            few_leaf_runs: false,
            ones: Vec::new(),
        }
    }
}

/// Per-thread scratch of the fast path.
#[derive(Default)]
pub(crate) struct FastScratch {
    /// Per switch: hops to the destination, or `UNKNOWN` / `ON_STACK`.
    depth: Vec<u8>,
    /// Per switch: the in ports the in-tree enters it by. Which of them
    /// are entered going down is a property of the port, not of the
    /// destination ([`FastTables::down_in`]), so one word per switch: the
    /// walk reads and writes 23 KB on the 27,648-host RLFT, not twice that.
    masks: Vec<u64>,
    stack: Vec<(u32, u32)>,
    /// Switches whose in-port mask is set for the current destination: the
    /// in-tree's forwarding part, a few per cent of the switches on a fat
    /// tree, so [`Acc::fast_turns`] visits them instead of every switch.
    touched: Vec<u32>,
    /// How many of `touched` (sized for every switch) are in use.
    ntouched: usize,
    /// Source weight per hop count of the destination's sources
    /// (`hist[..=max]`), committed once the destination is proven clean:
    /// one add per source instead of a list of (hops, weight) replayed.
    hist: Vec<u64>,
    /// With several SLs toward one destination: per switch the SLs of the
    /// paths that cross it.
    slm: Vec<u16>,
    /// Switch ports in all (`topo.link.len()`): the length of a turn mask.
    flat_ports: usize,
    /// Per VL in use, per flat switch port `o`: the in ports with a turn
    /// into `o` on that VL.
    pub turns: Vec<(u8, Vec<u64>)>,
}

impl FastScratch {
    pub fn new(topo: &Topo) -> Self {
        let n = topo.num_switches();
        FastScratch {
            depth: vec![UNKNOWN; n],
            masks: vec![0; n],
            stack: Vec::new(),
            touched: vec![0; n + 1],
            ntouched: 0,
            hist: vec![0; usize::from(u8::MAX) + 1],
            slm: vec![0; n],
            flat_ports: topo.link.len(),
            turns: Vec::new(),
        }
    }

    /// Where the turn masks of VL `vl` are in `turns`, made on first use.
    fn turns_on(&mut self, vl: u8) -> usize {
        match self.turns.iter().position(|(v, _)| *v == vl) {
            Some(i) => i,
            None => {
                self.turns.push((vl, vec![0; self.flat_ports]));
                self.turns.len() - 1
            }
        }
    }

    pub fn merge(&mut self, o: FastScratch) {
        for (vl, t) in o.turns {
            let i = self.turns_on(vl);
            let mine = &mut self.turns[i].1;
            if mine.len() < t.len() {
                mine.resize(t.len(), 0);
            }
            for (a, b) in mine.iter_mut().zip(&t) {
                *a |= b;
            }
        }
    }
}

impl FastScratch {
    /// Forgets what was gathered toward a destination the fast path gives
    /// up (sources down to depth `maxd` counted).
    fn forget(&mut self, maxd: Option<u8>) {
        if let Some(m) = maxd {
            self.hist[..=usize::from(m)].fill(0);
        }
        self.clear_marks();
    }

    /// Forgets the in-tree marks of the current destination.
    fn clear_marks(&mut self) {
        for &s in &self.touched[..self.ntouched] {
            self.masks[s as usize] = 0;
        }
        self.ntouched = 0;
    }
}
