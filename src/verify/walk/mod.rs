//! The per-destination pass (algorithms.md §3.2). Routing is
//! destination-based, so the fate of a packet toward LID `d` at switch `s`
//! does not depend on where it came from: each switch's fate is computed
//! once per destination by a memoised next-hop walk from the sources, and
//! the turns of the destination's in-tree are collected in the same pass.
//! Total cost O(LIDs × switches).

use std::collections::BTreeMap;

mod fast;
mod found;
mod transpose;
mod turns;

pub(crate) use fast::FastTables;

pub(crate) use found::{DeadKind, LaneProblem, Loop, TooLong, TopK, Unreach};
pub(crate) use turns::host_vl_table;

use super::cdg::TurnSets;
use super::topo::{Link, Target, Topo};
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
    /// The current block as the fast path's `hop` entries (LID-major like
    /// `blk`; `fast/entries.rs`).
    hblk: Vec<u32>,
    /// The path SLs of the same block, transposed alike (with a VL plan):
    /// read per source switch and destination, row-major they cost a
    /// cache miss each (88 M on the 27,648-host RLFT with a CA on every
    /// switch).
    slblk: Vec<u8>,
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
            slblk: Vec::new(),
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
        self
    }

    /// Loads LFT block `b` of every switch (LIDs `64 b .. 64 b + 63`) for
    /// the following [`Acc::destination`] calls: as `hop` entries for the
    /// fast path when it applies (`ft`), else as bytes.
    pub fn load_block(&mut self, cx: &WalkCtx, ft: Option<&FastTables>, b: usize) {
        let n = cx.topo.num_switches();
        match ft {
            Some(ft) => {
                ft.load_block(cx.lfts, b, n, &mut self.hblk);
                self.blk_at = None;
            }
            None => self.load_bytes(cx, b),
        }
        if let Some(psl) = cx.path_sl {
            self.slblk.resize(n * LFT_BLOCK, 0);
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

    /// Checks every route toward `lid` (in the loaded block) and collects
    /// its turns.
    pub fn destination(&mut self, cx: &WalkCtx, lid: Lid) {
        let Some(tgt) = cx.topo.target.get(lid as usize).copied().flatten() else {
            return;
        };
        let sources = if tgt.is_end && !cx.all_paths {
            cx.leaves
        } else {
            cx.all
        };
        self.load_bytes(cx, lid as usize / LFT_BLOCK);
        self.deads.clear();
        self.loops.clear();
        for &s in sources {
            if self.weight(cx, s, tgt) > 0 {
                self.walk(cx, lid, tgt, s);
            }
        }
        self.tally(cx, lid, tgt, sources);
        if tgt.is_end || cx.all_paths {
            self.collect_turns(cx, lid, tgt, sources);
        }
        for &s in &self.active {
            self.st[s as usize] = UNKNOWN;
            self.vlmask[s as usize] = 0;
        }
        self.active.clear();
    }

    /// Source end ports (or 1 for a switch source) whose route to the LID
    /// starts at switch `s`; an end port is not its own source.
    fn weight(&self, cx: &WalkCtx, s: u32, tgt: Target) -> u64 {
        if !tgt.is_end {
            return 1;
        }
        let own = u32::from(tgt.sw == s);
        let hosts = u64::from(cx.topo.hosts[s as usize] - own);
        if cx.all_paths { hosts + 1 } else { hosts }
    }

    fn step(
        cx: &WalkCtx,
        s: u32,
        p: PortNum,
        tgt: Target,
    ) -> Result<Option<(u32, PortNum)>, DeadKind> {
        if tgt.sw == u32::MAX {
            return Err(DeadKind::NoSwitch);
        }
        if p == NO_ROUTE {
            return Err(DeadKind::NoRoute);
        }
        let link = cx.topo.link(s as usize, p).ok_or(DeadKind::BadPort)?;
        if p == 0 {
            return if !tgt.is_end && tgt.sw == s {
                Ok(None)
            } else {
                Err(DeadKind::Port0)
            };
        }
        match link {
            Link::None => Err(DeadKind::NotCabled),
            Link::Switch(n, q) => Ok(Some((n, q))),
            Link::End(node, port) => {
                if tgt.is_end && tgt.sw == s && tgt.port == p {
                    Ok(None)
                } else {
                    Err(DeadKind::WrongEnd(node, port))
                }
            }
        }
    }

    /// Follows next hops from `src` until a switch of known fate, then
    /// gives every switch on the way that fate.
    fn walk(&mut self, cx: &WalkCtx, lid: Lid, tgt: Target, src: u32) {
        self.stack.clear();
        let mut cur = src;
        let (state, mut value) = loop {
            let c = cur as usize;
            match self.st[c] {
                UNKNOWN => {
                    self.st[c] = ON_STACK;
                    self.val[c] = self.stack.len() as u32;
                    self.stack.push(cur);
                    self.active.push(cur);
                    let p = self.block_entry(c, lid);
                    self.out[c] = p;
                    match Self::step(cx, cur, p, tgt) {
                        Ok(Some((n, q))) => {
                            self.nxt[c] = n;
                            self.nin[c] = q;
                            cur = n;
                        }
                        Ok(None) => {
                            self.nxt[c] = u32::MAX;
                            self.stack.pop();
                            self.st[c] = DELIVERED;
                            self.val[c] = 0;
                            break (DELIVERED, 0);
                        }
                        Err(kind) => {
                            self.nxt[c] = u32::MAX;
                            self.deads.push((cur, p, kind));
                            break (DEAD, (self.deads.len() - 1) as u32);
                        }
                    }
                }
                ON_STACK => {
                    let from = self.val[c] as usize;
                    let cyc = self.stack[from..].to_vec();
                    let last = *cyc.last().unwrap_or(&cur) as usize;
                    let mut prev_in = self.nin[last];
                    let mut cycle = Vec::with_capacity(cyc.len());
                    for &s in &cyc {
                        cycle.push((s, prev_in, self.out[s as usize]));
                        prev_in = self.nin[s as usize];
                    }
                    self.loops.push(cycle);
                    break (LOOPING, (self.loops.len() - 1) as u32);
                }
                st => break (st, self.val[c]),
            }
        };
        while let Some(s) = self.stack.pop() {
            if state == DELIVERED {
                value += 1;
            }
            self.st[s as usize] = state;
            self.val[s as usize] = value;
        }
    }

    /// Turns fates into findings and counts.
    fn tally(&mut self, cx: &WalkCtx, lid: Lid, tgt: Target, sources: &[u32]) {
        let mut dead_srcs: Vec<(u32, u32)> = vec![(u32::MAX, 0); self.deads.len()];
        let mut loop_srcs: Vec<u32> = vec![0; self.loops.len()];
        let mut longest: Option<(u32, u32)> = None;
        for &s in sources {
            let w = self.weight(cx, s, tgt);
            if w == 0 {
                continue;
            }
            let (st, v) = (self.st[s as usize], self.val[s as usize]);
            if tgt.is_end {
                self.ca_pairs += w;
            } else {
                self.switch_pairs += w;
            }
            match st {
                DELIVERED => {
                    if tgt.is_end {
                        let h = v as usize;
                        if self.hop_hist.len() <= h {
                            self.hop_hist.resize(h + 1, 0);
                        }
                        self.hop_hist[h] += w;
                    }
                    if v > cx.hop_limit && longest.is_none_or(|(_, h)| v > h) {
                        longest = Some((s, v));
                    }
                }
                DEAD => {
                    let e = &mut dead_srcs[v as usize];
                    e.0 = e.0.min(s);
                    e.1 += 1;
                    if tgt.is_end {
                        self.unreachable_pairs += w;
                    } else {
                        self.switch_pairs_unreachable += w;
                    }
                }
                _ => {
                    loop_srcs[v as usize] += 1;
                    self.looping_pairs += w;
                }
            }
        }
        for (i, &(sw, port, kind)) in self.deads.iter().enumerate() {
            let (example_src, n) = dead_srcs[i];
            // A dead end found while walking is always reached by some source.
            let u = Unreach {
                lid,
                dead_sw: sw,
                dead_port: port,
                kind,
                example_src,
                sources: n,
            };
            if tgt.is_end {
                self.unreach_ca.push(u)
            } else {
                self.unreach_sw.push(u)
            }
        }
        for (i, cycle) in self.loops.drain(..).enumerate() {
            self.loops_found.push(Loop {
                lid,
                cycle,
                sources: loop_srcs[i],
            });
        }
        if let Some((src, hops)) = longest {
            self.too_long.push(TooLong { lid, src, hops });
        }
    }

    /// Whether switch `s` passes packets toward the LID on to a neighbour
    /// (delivered or dead further on, not looping, not the last switch).
    fn forwards(&self, s: u32) -> bool {
        let st = self.st[s as usize];
        (st == DELIVERED || st == DEAD) && self.nxt[s as usize] != u32::MAX
    }
}
