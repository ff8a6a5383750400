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

use super::super::topo::{Link, Topo};
use super::super::updown;
use super::{Acc, WalkCtx};
use crate::model::{LFT_BLOCK, Lid};

/// `hop` entry of a port that does not lead to another switch.
const NONE: u32 = u32::MAX;
/// `hop` bit: the link goes up (by the up/down ranks, when given).
const UP: u32 = 1 << 8;
/// Fates in `depth`: not reached yet, on the walk's stack.
const UNKNOWN: u8 = u8::MAX;
const ON_STACK: u8 = u8::MAX - 1;
/// Deepest route the fast path follows; longer ones go to the exact pass.
const MAX_DEPTH: u32 = 200;

/// Per-port tables of the fast path, built once per check.
pub(crate) struct FastTables {
    /// Per flat switch port (`topo.base[s] + p`): `next switch << 9 |
    /// UP | far port`, or `NONE` when the port does not lead to a switch.
    hop: Vec<u32>,
    /// Per switch: its first flat port and its port count.
    ports: Vec<(u32, u32)>,
    /// Source weight of each switch toward a CA LID (its end ports, plus
    /// the switch itself with `all_paths`), before the destination's own.
    weight: Vec<u32>,
    /// The VL of each SL at every hop (one map for all ports).
    vl_of_sl: [u8; 16],
    /// SLs whose VL is 15 (drop) or beyond some switch's operational VLs:
    /// destinations with paths on them take the exact pass (V021/V022).
    bad_sls: u16,
    hop_limit: u8,
}

impl FastTables {
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
        if (0..n).any(|s| topo.num_ports(s) > 64) || n >= 1 << 23 {
            return None;
        }
        let rank = |s: usize| cx.ranks.and_then(|r| r.get(s).copied()).unwrap_or(u32::MAX);
        let mut hop = vec![NONE; topo.link.len()];
        for s in 0..n {
            for p in 0..topo.num_ports(s) {
                let i = topo.base[s] as usize + p;
                if let Link::Switch(m, q) = topo.link[i] {
                    let up = cx.ranks.is_some()
                        && updown::is_up(
                            rank(s),
                            cx.guids[s],
                            rank(m as usize),
                            cx.guids[m as usize],
                        );
                    hop[i] = m << 9 | if up { UP } else { 0 } | u32::from(q);
                }
            }
        }
        let weight = topo
            .hosts
            .iter()
            .map(|&h| h + u32::from(cx.all_paths))
            .collect();
        let ports = (0..n)
            .map(|s| (topo.base[s], topo.num_ports(s) as u32))
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
        Some(FastTables {
            hop,
            ports,
            weight,
            vl_of_sl,
            bad_sls,
            hop_limit: cx.hop_limit.min(MAX_DEPTH) as u8,
        })
    }
}

/// Per-thread scratch of the fast path.
#[derive(Default)]
pub(crate) struct FastScratch {
    /// Per switch: hops to the destination, or `UNKNOWN` / `ON_STACK`.
    depth: Vec<u8>,
    /// Per switch: its `hop` entry toward the destination, and out port.
    next: Vec<u32>,
    out: Vec<u8>,
    /// Per switch: in ports the in-tree enters it by, and those of them
    /// entered going down (for up/down).
    inmask: Vec<u64>,
    downin: Vec<u64>,
    stack: Vec<(u32, u32)>,
    /// Switches whose `inmask` is set for the current destination: the
    /// in-tree's forwarding part, a few per cent of the switches on a fat
    /// tree, so [`Acc::fast_turns`] visits them instead of every switch.
    touched: Vec<u32>,
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
            next: vec![NONE; n],
            out: vec![0; n],
            inmask: vec![0; n],
            downin: vec![0; n],
            stack: Vec::new(),
            touched: Vec::new(),
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
    /// Follows next hops from `src` to a switch of known depth, then gives
    /// every switch on the way its depth and marks the in port by which it
    /// enters its next hop (unless that is `t`, which forwards nothing).
    /// `false` on a loop, a dead end or a route beyond the hop limit.
    #[inline(always)]
    fn walk(&mut self, ft: &FastTables, col: &[u8], t: usize, src: usize) -> bool {
        self.stack.clear();
        let mut cur = src;
        let mut d = loop {
            match self.depth[cur] {
                UNKNOWN => {}
                ON_STACK => return false,
                d => break d,
            }
            self.depth[cur] = ON_STACK;
            let p = col[cur];
            let (base, ports) = ft.ports[cur];
            if u32::from(p) >= ports {
                return false;
            }
            let h = ft.hop[(base + u32::from(p)) as usize];
            if h == NONE {
                return false;
            }
            self.stack.push((cur as u32, h));
            self.out[cur] = p;
            cur = (h >> 9) as usize;
        };
        while let Some((x, h)) = self.stack.pop() {
            d += 1;
            if d > ft.hop_limit {
                return false;
            }
            self.depth[x as usize] = d;
            self.next[x as usize] = h;
            self.enter(h, t);
        }
        true
    }

    /// Marks the in port by which the hop `h` (a `hop` entry) enters its
    /// next switch, unless that is the target `t`.
    #[inline(always)]
    fn enter(&mut self, h: u32, t: usize) {
        let to = (h >> 9) as usize;
        if to != t {
            let bit = 1u64 << (h & 0xFF);
            if self.inmask[to] == 0 {
                self.touched.push(to as u32);
            }
            self.inmask[to] |= bit;
            self.downin[to] |= if h & UP == 0 { bit } else { 0 };
        }
    }

    /// [`FastScratch::walk`] for the common source whose next hop already
    /// has a depth (every leaf of a pod after the first, on a fat tree):
    /// no stack. `None` when the walk is needed.
    #[inline(always)]
    fn one_step(&mut self, ft: &FastTables, col: &[u8], t: usize, src: usize) -> Option<()> {
        let p = col[src];
        let (base, ports) = ft.ports[src];
        if u32::from(p) >= ports {
            return None;
        }
        let h = ft.hop[(base + u32::from(p)) as usize];
        if h == NONE {
            return None;
        }
        let d = self.depth[(h >> 9) as usize];
        if d >= ON_STACK || d >= ft.hop_limit {
            return None;
        }
        self.depth[src] = d + 1;
        self.next[src] = h;
        self.out[src] = p;
        self.enter(h, t);
        Some(())
    }

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
        for &s in &self.touched {
            self.inmask[s as usize] = 0;
            self.downin[s as usize] = 0;
        }
        self.touched.clear();
    }
}

impl Acc {
    /// Checks every route toward `lid` when all are clean; `false`, with
    /// nothing recorded, otherwise. (Not inlined: its own line in profiles.)
    #[inline(never)]
    pub fn fast_destination(&mut self, cx: &WalkCtx, ft: &FastTables, lid: Lid) -> bool {
        let Some(tgt) = cx.topo.target.get(lid as usize).copied().flatten() else {
            return true;
        };
        if tgt.sw == u32::MAX {
            return false;
        }
        let t = tgt.sw as usize;
        let n = self.st.len();
        let j = lid as usize % LFT_BLOCK;
        let col = &self.blk[j * n..(j + 1) * n];
        let delivers = if tgt.is_end { tgt.port } else { 0 };
        if col[t] != delivers {
            return false;
        }
        let sources = if tgt.is_end && !cx.all_paths {
            cx.leaves
        } else {
            cx.all
        };
        let f = &mut self.fast;
        if f.depth.is_empty() {
            *f = FastScratch::new(cx.topo);
        }
        f.depth.fill(UNKNOWN);
        f.depth[t] = 0;
        f.next[t] = NONE;
        // the deepest source, once some source has weight
        let mut maxd: Option<u8> = None;
        // SLs of all sources, and of those that forward (not at `t`)
        let (mut all_sls, mut fwd_sls) = (0u16, 0u16);
        for &s in sources {
            let w = if tgt.is_end {
                u64::from(ft.weight[s as usize] - u32::from(s as usize == t))
            } else {
                1
            };
            if w == 0 {
                continue;
            }
            if f.depth[s as usize] == UNKNOWN
                && f.one_step(ft, col, t, s as usize).is_none()
                && !f.walk(ft, col, t, s as usize)
            {
                f.forget(maxd);
                return false;
            }
            let d = f.depth[s as usize];
            f.hist[usize::from(d)] += w;
            maxd = maxd.max(Some(d));
            if cx.path_sl.is_some() {
                let x = super::path_sls(cx, &self.slblk, n, s, lid);
                all_sls |= x;
                if s as usize != t {
                    fwd_sls |= x;
                }
            }
        }
        let turns = tgt.is_end || cx.all_paths;
        if turns && all_sls & ft.bad_sls != 0 {
            // a lane problem somewhere: the exact pass finds and reports it
            f.forget(maxd);
            return false;
        }
        if turns && fwd_sls.count_ones() > 1 {
            self.fast_turns(cx, lid, None);
            self.fast_sl_turns(cx, ft, lid, tgt.is_end, sources);
        } else if turns {
            // one SL (SL 0 without a plan): the whole in-tree on its VL
            let sl = fwd_sls.trailing_zeros() as usize & 15;
            self.fast_turns(cx, lid, Some(ft.vl_of_sl[sl]));
        } else {
            // switch-LID routes stay out of the CDG (ibdmchk without -a)
            self.fast.clear_marks();
        }
        let Some(maxd) = maxd else {
            return true;
        };
        let hist = &mut self.fast.hist[..=usize::from(maxd)];
        if tgt.is_end && self.hop_hist.len() < hist.len() {
            self.hop_hist.resize(hist.len(), 0);
        }
        for (h, w) in hist.iter_mut().enumerate() {
            let w = std::mem::take(w);
            if tgt.is_end {
                self.ca_pairs += w;
                // a depth no source has adds nothing, as before
                self.hop_hist[h] += w;
            } else {
                self.switch_pairs += w;
            }
        }
        true
    }

    /// The turns of the (clean) in-tree toward `lid` (their in ports
    /// gathered by [`FastScratch::walk`]) on VL `vl` (`None`: left to
    /// [`Acc::fast_sl_turns`]), and its up/down violations.
    #[inline(never)]
    fn fast_turns(&mut self, cx: &WalkCtx, lid: Lid, vl: Option<u8>) {
        let f = &mut self.fast;
        let ranks = cx.ranks.is_some();
        let vi = vl.map(|v| f.turns_on(v));
        // each switch once (pushed when its mask became non-zero); the
        // masks are OR-ed and violations kept at their lowest LID, so the
        // order does not matter
        for k in 0..f.touched.len() {
            let s = f.touched[k] as usize;
            let im = std::mem::take(&mut f.inmask[s]);
            let o = f.out[s];
            if let Some(i) = vi {
                f.turns[i].1[cx.topo.base[s] as usize + usize::from(o)] |= im;
            }
            let mut down = std::mem::take(&mut f.downin[s]);
            if !ranks || f.next[s] & UP == 0 {
                continue;
            }
            while down != 0 {
                let q = down.trailing_zeros() as u8;
                down &= down - 1;
                let e = self.updown.entry((s as u32, q, o)).or_insert(lid);
                *e = (*e).min(lid);
            }
        }
        f.touched.clear();
    }

    /// The turns toward the destination at target switch `t` when its
    /// sources use several SLs: each switch's SLs are those of the sources
    /// upstream (pushed down the in-tree from each forwarding source,
    /// stopping where a switch already has them all), and its turn is on
    /// each one's VL — what the exact pass's per-SL marking (`turns.rs`)
    /// finds. The sources' SLs are read again here rather than kept by
    /// [`Acc::fast_destination`] for every destination: few take this way.
    #[inline(never)]
    fn fast_sl_turns(
        &mut self,
        cx: &WalkCtx,
        ft: &FastTables,
        lid: Lid,
        is_end: bool,
        sources: &[u32],
    ) {
        let Some(t) = cx.topo.target[lid as usize].map(|g| g.sw as usize) else {
            return;
        };
        let n = self.st.len();
        let f = &mut self.fast;
        for &s in sources {
            let si = s as usize;
            let w = if is_end {
                ft.weight[si] - u32::from(si == t)
            } else {
                1
            };
            if w == 0 || si == t {
                continue;
            }
            let x = super::path_sls(cx, &self.slblk, n, s, lid);
            let mut cur = si;
            while f.slm[cur] & x != x {
                f.slm[cur] |= x;
                if cur == t {
                    break;
                }
                cur = (f.next[cur] >> 9) as usize;
            }
        }
        for m in 0..f.slm.len() {
            let mut sls = std::mem::take(&mut f.slm[m]);
            if sls == 0 || m == t {
                continue;
            }
            let h = f.next[m];
            let to = (h >> 9) as usize;
            if to == t {
                continue;
            }
            let at = ft.ports[to].0 as usize + usize::from(f.out[to]);
            let bit = 1u64 << (h & 0xFF);
            let mut vls = 0u16;
            while sls != 0 {
                vls |= 1 << ft.vl_of_sl[sls.trailing_zeros() as usize];
                sls &= sls - 1;
            }
            while vls != 0 {
                let i = f.turns_on(vls.trailing_zeros() as u8);
                vls &= vls - 1;
                f.turns[i].1[at] |= bit;
            }
        }
    }

    /// Moves the fast path's turn masks into the turn sets (per VL, on
    /// the VL they come in on), once all destinations are done.
    pub fn flush_fast(&mut self, cx: &WalkCtx) {
        let topo = cx.topo;
        for (vl, turns) in std::mem::take(&mut self.fast.turns) {
            for s in 0..topo.num_switches() {
                let b = topo.base[s] as usize;
                for o in 0..topo.num_ports(s) {
                    let mut m = turns[b + o];
                    while m != 0 {
                        let q = m.trailing_zeros() as u8;
                        m &= m - 1;
                        self.turns.insert((vl, vl), topo.turn_bit(s, q, o as u8));
                    }
                }
            }
        }
    }
}
