//! The per-destination pass (algorithms.md §3.2). Routing is
//! destination-based, so the fate of a packet toward LID `d` at switch `s`
//! does not depend on where it came from: each switch's fate is computed
//! once per destination by a memoised next-hop walk from the sources, and
//! the turns of the destination's in-tree are collected in the same pass.
//! Total cost O(LIDs × switches). The exact pass is `exact.rs`; clean
//! destinations take the fast path of `fast.rs`.

use std::collections::BTreeMap;

use fixedbitset::FixedBitSet;

mod exact;
mod fast;
mod found;
mod transpose;
mod turns;

pub(crate) use fast::{FastTables, PART};

pub(crate) use found::{DeadKind, LaneProblem, Loop, TooLong, TopK, Unreach};
pub(crate) use turns::host_vl_table;

use super::cdg::TurnSets;
use super::topo::Topo;
use crate::model::{LFT_BLOCK, Lfts, Lid, NO_ROUTE, PathSl, PortNum, Sl2Vl};

/// What the pass needs besides the tables.
pub(crate) struct WalkCtx<'a> {
    pub topo: &'a Topo,
    pub lfts: &'a Lfts,
    pub sl2vl: &'a Sl2Vl,
    /// `sl2vl.port_map()`, computed once: with it the VL of a hop depends
    /// on the SL only, and the per-port gathering is skipped.
    pub port_map: Option<[u8; 16]>,
    /// The SL of every (source switch, LID) path; `None` = SL 0 for all.
    pub path_sl: Option<&'a PathSl>,
    /// With `path_sl`: the LFT blocks where some path is not on SL 0
    /// (`PathSl::nonzero_blocks`, a superset); the others need no SL
    /// transpose.
    pub sl_blocks: Option<FixedBitSet>,
    /// Switches with end ports, and all switches.
    pub leaves: &'a [u32],
    pub all: &'a [u32],
    /// Trace switch-sourced routes to CA LIDs and route switch LIDs into the CDG.
    pub all_paths: bool,
    pub hop_limit: u32,
    pub ranks: Option<&'a [u32]>,
    /// Operational data VLs per switch: a hop on a higher VL (or on VL 15,
    /// "drop") is a finding. Checked only when a VL plan is given.
    pub op_vls: Option<&'a [u8]>,
    pub guids: &'a [u64],
    pub cap: usize,
    /// With real SL2VL tables: the VLs a switch's own end ports send on
    /// out of each port, per SL (`[(base[s] + out) * 16 + sl]`), from
    /// [`turns::host_vl_table`]; scanning every end port per destination
    /// and SL instead dominated the check of per-port plans (VTFTR's).
    pub host_vl: Option<Vec<u16>>,
}

const UNKNOWN: u8 = 0;
const ON_STACK: u8 = 1;
const DELIVERED: u8 = 2;
const DEAD: u8 = 3;
const LOOPING: u8 = 4;

/// How often the pass took its shortcuts: destinations proven by the fast
/// path, and parts loaded for the sources only ([`Acc::load_part`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Shortcuts {
    pub fast_lids: u64,
    pub source_parts: u64,
}

/// Per-thread scratch and results, merged with [`Acc::merge`].
pub(crate) struct Acc {
    /// The current LFT block, transposed: `blk[(lid % 64) * switches + s]`.
    /// Rows of the tables are 30 KB apart, so walking them directly misses
    /// the cache at every switch; the transposed block keeps one LID's
    /// column of every switch in a few contiguous KB.
    blk: Vec<u8>,
    /// Which block `blk` holds: with the fast path it is loaded only when
    /// a destination of the block takes the exact pass.
    blk_at: Option<usize>,
    /// The current part of the block ([`PART`] LIDs) as the fast path's
    /// `hop` entries (LID-major like `blk`; `fast/entries.rs`).
    hblk: Vec<u32>,
    /// Whether `hblk` holds a sources-only part, and the slots of other
    /// switches the walks loaded into it (`UNLOADED` again before the next
    /// sources-only part).
    hblk_sources: bool,
    filled: Vec<u32>,
    /// The path SLs of the whole block, transposed alike (with a VL plan):
    /// read per source switch and destination, row-major they cost a
    /// cache miss each (88 M on the 27,648-host RLFT with a CA on every
    /// switch).
    slblk: Vec<u8>,
    /// Whether `slblk` holds only zeros (every path of its block on SL 0).
    slblk_zero: bool,
    st: Vec<u8>,
    val: Vec<u32>,
    nxt: Vec<u32>,
    nin: Vec<PortNum>,
    out: Vec<PortNum>,
    vlmask: Vec<u16>,
    /// Switches on the part of the in-tree used by one SL's paths.
    on_sl: Vec<bool>,
    active: Vec<u32>,
    stack: Vec<u32>,
    deads: Vec<(u32, PortNum, DeadKind)>,
    loops: Vec<Vec<(u32, PortNum, PortNum)>>,
    pub unreach_ca: TopK<Unreach>,
    pub unreach_sw: TopK<Unreach>,
    pub loops_found: TopK<Loop>,
    pub too_long: TopK<TooLong>,
    /// Hops dropped by SL2VL (VL 15) and hops beyond a port's VLs.
    pub dropped: TopK<LaneProblem>,
    pub beyond: TopK<LaneProblem>,
    /// Turns used, per (VL in, VL out), as bits of [`Topo::turn_bit`].
    pub turns: TurnSets,
    /// Up/down violations: turn → lowest LID whose routes take it.
    pub updown: BTreeMap<(u32, PortNum, PortNum), Lid>,
    /// Switch hops of delivered CA→CA routes, weighted by source CAs.
    pub hop_hist: Vec<u64>,
    pub ca_pairs: u64,
    pub unreachable_pairs: u64,
    pub looping_pairs: u64,
    pub switch_pairs: u64,
    pub switch_pairs_unreachable: u64,
    /// Scratch and turn masks of the fast path (`fast.rs`).
    fast: fast::FastScratch,
    pub shortcuts: Shortcuts,
}

/// [`Acc::sls`] on the transposed block `slblk` of `n` switches (a free
/// function so that the fast path can read it while it holds its scratch).
#[inline]
fn path_sls(cx: &WalkCtx, slblk: &[u8], n: usize, s: u32, lid: Lid) -> u16 {
    match cx.path_sl {
        Some(p) if p.has_more() => p.sls(s as usize, lid),
        Some(_) => 1 << slblk[(lid as usize % LFT_BLOCK) * n + s as usize],
        None => 1,
    }
}

impl Acc {
    pub fn new(cx: &WalkCtx) -> Self {
        let s = cx.topo.num_switches();
        Acc {
            blk: vec![NO_ROUTE; s * LFT_BLOCK],
            blk_at: None,
            hblk: Vec::new(),
            hblk_sources: false,
            filled: Vec::new(),
            slblk: Vec::new(),
            slblk_zero: false,
            st: vec![UNKNOWN; s],
            val: vec![0; s],
            nxt: vec![u32::MAX; s],
            nin: vec![0; s],
            out: vec![0; s],
            vlmask: vec![0; s],
            on_sl: vec![false; s],
            active: Vec::new(),
            stack: Vec::new(),
            deads: Vec::new(),
            loops: Vec::new(),
            unreach_ca: TopK::new(cx.cap),
            unreach_sw: TopK::new(cx.cap),
            loops_found: TopK::new(cx.cap),
            too_long: TopK::new(cx.cap),
            dropped: TopK::new(cx.cap),
            beyond: TopK::new(cx.cap),
            turns: TurnSets::new(*cx.topo.tbase.last().unwrap_or(&0)),
            updown: BTreeMap::new(),
            hop_hist: Vec::new(),
            ca_pairs: 0,
            unreachable_pairs: 0,
            looping_pairs: 0,
            switch_pairs: 0,
            switch_pairs_unreachable: 0,
            fast: fast::FastScratch::default(),
            shortcuts: Shortcuts::default(),
        }
    }

    /// Folds another thread's results into this one.
    pub fn merge(mut self, o: Acc) -> Acc {
        self.unreach_ca.merge(o.unreach_ca);
        self.unreach_sw.merge(o.unreach_sw);
        self.loops_found.merge(o.loops_found);
        self.too_long.merge(o.too_long);
        self.dropped.merge(o.dropped);
        self.beyond.merge(o.beyond);
        self.turns.merge(o.turns);
        for (k, l) in o.updown {
            let e = self.updown.entry(k).or_insert(l);
            *e = (*e).min(l);
        }
        if self.hop_hist.len() < o.hop_hist.len() {
            self.hop_hist.resize(o.hop_hist.len(), 0);
        }
        for (a, b) in self.hop_hist.iter_mut().zip(&o.hop_hist) {
            *a += b;
        }
        self.ca_pairs += o.ca_pairs;
        self.unreachable_pairs += o.unreachable_pairs;
        self.looping_pairs += o.looping_pairs;
        self.switch_pairs += o.switch_pairs;
        self.switch_pairs_unreachable += o.switch_pairs_unreachable;
        self.fast.merge(o.fast);
        self.shortcuts.fast_lids += o.shortcuts.fast_lids;
        self.shortcuts.source_parts += o.shortcuts.source_parts;
        self
    }

    /// Loads what LFT block `b` (LIDs `64 b .. 64 b + 63`) needs besides
    /// the fast path's parts for the following [`Acc::destination`] calls:
    /// its path SLs, and its bytes when there is no fast path (`ft`).
    pub fn load_block(&mut self, cx: &WalkCtx, ft: Option<&FastTables>, b: usize) {
        let n = cx.topo.num_switches();
        match ft {
            Some(_) => self.blk_at = None,
            None => self.load_bytes(cx, b),
        }
        if let Some(psl) = cx.path_sl {
            self.slblk.resize(n * LFT_BLOCK, 0);
            if cx.sl_blocks.as_ref().is_some_and(|z| !z.contains(b)) {
                if !self.slblk_zero {
                    self.slblk.fill(0);
                    self.slblk_zero = true;
                }
                return;
            }
            self.slblk_zero = false;
            let at = b * LFT_BLOCK..(b + 1) * LFT_BLOCK;
            if n > 0 && psl.row(0).len() >= at.end {
                transpose::load_rows(|s| &psl.row(s)[at.clone()], n, &mut self.slblk);
                return;
            }
            for s in 0..n {
                let row = psl.row(s);
                for j in 0..LFT_BLOCK {
                    self.slblk[j * n + s] = row.get(b * LFT_BLOCK + j).copied().unwrap_or(0);
                }
            }
        }
    }

    /// Loads block `b` as bytes into `blk`, unless it is there.
    fn load_bytes(&mut self, cx: &WalkCtx, b: usize) {
        if self.blk_at != Some(b) {
            transpose::load_block(cx.lfts, b, cx.topo.num_switches(), &mut self.blk);
            self.blk_at = Some(b);
        }
    }

    /// Every SL of the paths from switch `s` toward `lid` (in the loaded
    /// block), as a bit set: `PathSl::sls` read from the transposed block.
    fn sls(&self, cx: &WalkCtx, s: u32, lid: Lid) -> u16 {
        path_sls(cx, &self.slblk, self.st.len(), s, lid)
    }

    /// The entry of switch `s` for `lid`, from the loaded block.
    fn block_entry(&self, s: usize, lid: Lid) -> PortNum {
        self.blk[(lid as usize % LFT_BLOCK) * self.st.len() + s]
    }
}
