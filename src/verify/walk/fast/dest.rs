//! The per-destination side of the fast path: one destination's routes
//! followed down its in-tree with the scratch of the parent module, and
//! the turns it gathered per VL handed to the accumulator's set.

use super::walker::Loader;
use super::{
    Acc, FastScratch, FastTables, LFT_BLOCK, Lid, PART, UNKNOWN, UP, WalkCtx, far_of, next_of,
    out_of,
};

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
        let delivers = if tgt.is_end { tgt.port } else { 0 };
        if cx.lfts.get(t, lid) != delivers {
            return false;
        }
        // the sources, also as runs of switches when they lie in few
        let all_run = [(0, n as u32)];
        let (sources, runs) = if tgt.is_end && !cx.all_paths {
            (cx.leaves, ft.leaf_runs())
        } else {
            (cx.all, Some(&all_run[..]))
        };
        let f = &mut self.fast;
        if f.depth.is_empty() {
            *f = FastScratch::new(cx.topo);
        }
        f.depth.fill(UNKNOWN);
        f.depth[t] = 0;
        // a switch weighs its end ports toward a CA LID (less the
        // destination's own), 1 toward a switch LID
        let weights = if tgt.is_end { &ft.weight } else { &ft.ones };
        let weight = |s: usize| weights[s] - u32::from(tgt.is_end && s == t);
        let j = lid as usize % PART;
        let load = Loader {
            ft,
            lfts: cx.lfts,
            lid,
            filled: &mut self.filled,
        };
        // (the turns of switch-LID routes stay out of the CDG without
        // `--all-paths`, as ibdmchk's without -a: their walk marks no in
        // ports)
        let turns = tgt.is_end || cx.all_paths;
        let col = &mut self.hblk[j * n..(j + 1) * n];
        let clean = if turns {
            f.walk_sources::<true>(col, t, load, runs, sources)
        } else {
            f.walk_sources::<false>(col, t, load, runs, sources)
        };
        if !clean {
            f.clear_marks();
            return false;
        }
        if !turns {
            // a switch LID: every switch is a source weighing 1, and its
            // routes add to neither the CDG nor the hop histogram
            self.switch_pairs += sources.len() as u64;
            return true;
        }
        // `t` is a source: it has the destination's end port, or every
        // switch is one
        let by_runs = runs.and_then(|r| f.weigh_runs(r, weights, weight(t)));
        let maxd = by_runs.unwrap_or_else(|| f.weigh(sources, weight));
        let (all_sls, fwd_sls) = self.source_sls(cx, (lid, t), sources, weight, maxd);
        if all_sls & ft.bad_sls != 0 {
            // a lane problem somewhere: the exact pass finds and reports it
            self.fast.forget(maxd);
            return false;
        }
        if fwd_sls.count_ones() > 1 {
            self.fast_turns(cx, ft, lid, None);
            self.fast_sl_turns(cx, ft, lid, sources);
        } else {
            // one SL (SL 0 without a plan): the whole in-tree on its VL
            let sl = fwd_sls.trailing_zeros() as usize & 15;
            self.fast_turns(cx, ft, lid, Some(ft.vl_of_sl[sl]));
        }
        if let Some(maxd) = maxd {
            self.commit_hist(tgt.is_end, maxd);
        }
        true
    }

    /// The SLs of all the sources toward `lid` (at target switch `t`),
    /// and of those that forward (all but `t`), as bit sets; `maxd`: the
    /// deepest source's hops, `None` when no source weighs anything.
    #[inline(always)]
    fn source_sls(
        &self,
        cx: &WalkCtx,
        (lid, t): (Lid, usize),
        sources: &[u32],
        weight: impl Fn(usize) -> u32,
        maxd: Option<u8>,
    ) -> (u16, u16) {
        let n = self.st.len();
        let per_source = cx
            .path_sl
            .is_some_and(|p| p.has_more() || !sl0_column(&self.slblk, n, lid));
        if !per_source {
            // no plan: no SLs; else every source on SL 0, and only `t` has
            // depth 0, so a source deeper than 0 forwards
            return match cx.path_sl {
                None => (0, 0),
                Some(_) => (u16::from(maxd.is_some()), u16::from(maxd > Some(0))),
            };
        }
        let (mut all_sls, mut fwd_sls) = (0u16, 0u16);
        for &s in sources.iter().filter(|&&s| weight(s as usize) > 0) {
            let x = super::super::path_sls(cx, &self.slblk, n, s, lid);
            all_sls |= x;
            if s as usize != t {
                fwd_sls |= x;
            }
        }
        (all_sls, fwd_sls)
    }

    /// Adds the destination's source weights per hop count (`hist[..=
    /// maxd]`, taken) to the pair counts and, toward a CA LID, the hop
    /// histogram.
    #[inline(always)]
    fn commit_hist(&mut self, is_end: bool, maxd: u8) {
        let hist = &mut self.fast.hist[..=usize::from(maxd)];
        if is_end && self.hop_hist.len() < hist.len() {
            self.hop_hist.resize(hist.len(), 0);
        }
        for (h, w) in hist.iter_mut().enumerate() {
            let w = std::mem::take(w);
            if is_end {
                self.ca_pairs += w;
                // a depth no source has adds nothing, as before
                self.hop_hist[h] += w;
            } else {
                self.switch_pairs += w;
            }
        }
    }

    /// The turns of the (clean) in-tree toward `lid` (their in ports
    /// gathered by `Walker::walk`) on VL `vl` (`None`: left to
    /// [`Acc::fast_sl_turns`]), and its up/down violations.
    #[inline(never)]
    fn fast_turns(&mut self, cx: &WalkCtx, ft: &FastTables, lid: Lid, vl: Option<u8>) {
        // each switch's next hop is its entry of the column
        let next = column(&self.hblk, self.st.len(), lid);
        let f = &mut self.fast;
        let ranks = cx.ranks.is_some();
        let vi = vl.map(|v| f.turns_on(v));
        // each switch once (pushed when its mask became non-zero); the
        // masks are OR-ed and violations kept at their lowest LID, so the
        // order does not matter
        for k in 0..f.ntouched {
            let s = f.touched[k] as usize;
            let im = std::mem::take(&mut f.masks[s]);
            let o = out_of(next[s]);
            if let Some(i) = vi {
                f.turns[i].1[cx.topo.base[s] as usize + usize::from(o)] |= im;
            }
            if !ranks || next[s] & UP == 0 {
                continue;
            }
            let mut down = im & ft.down_in[s];
            while down != 0 {
                let q = down.trailing_zeros() as u8;
                down &= down - 1;
                let e = self.updown.entry((s as u32, q, o)).or_insert(lid);
                *e = (*e).min(lid);
            }
        }
        f.ntouched = 0;
    }

    /// The turns toward the destination at target switch `t` when its
    /// sources use several SLs: each switch's SLs are those of the sources
    /// upstream (pushed down the in-tree from each forwarding source,
    /// stopping where a switch already has them all), and its turn is on
    /// each one's VL — what the exact pass's per-SL marking (`turns.rs`)
    /// finds. The sources' SLs are read again here rather than kept by
    /// [`Acc::fast_destination`] for every destination: few take this way.
    #[inline(never)]
    fn fast_sl_turns(&mut self, cx: &WalkCtx, ft: &FastTables, lid: Lid, sources: &[u32]) {
        let Some(t) = cx.topo.target[lid as usize].map(|g| g.sw as usize) else {
            return;
        };
        let n = self.st.len();
        let next = column(&self.hblk, n, lid);
        let f = &mut self.fast;
        for &s in sources {
            let si = s as usize;
            // `t` forwards nothing; it is also the one source that may
            // weigh nothing (see `fast_destination`)
            if si == t {
                continue;
            }
            let x = super::super::path_sls(cx, &self.slblk, n, s, lid);
            let mut cur = si;
            while f.slm[cur] & x != x {
                f.slm[cur] |= x;
                if cur == t {
                    break;
                }
                cur = next_of(next[cur]);
            }
        }
        for m in 0..f.slm.len() {
            let mut sls = std::mem::take(&mut f.slm[m]);
            if sls == 0 || m == t {
                continue;
            }
            let h = next[m];
            let to = next_of(h);
            if to == t {
                continue;
            }
            let at = cx.topo.base[to] as usize + usize::from(out_of(next[to]));
            let bit = 1u64 << far_of(h);
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

    /// The fast path's turn masks, taken out (for `cdg_masks`).
    pub fn take_turn_masks(&mut self) -> Vec<(u8, Vec<u64>)> {
        std::mem::take(&mut self.fast.turns)
    }

    /// Puts back masks taken by [`Acc::take_turn_masks`].
    pub fn put_turn_masks(&mut self, masks: Vec<(u8, Vec<u64>)>) {
        self.fast.turns = masks;
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

/// Whether every switch's path toward `lid` is on SL 0 by the loaded
/// block's path SLs `slblk` (`n` switches): one OR over the column, which
/// vectorises, instead of an SL read per source in the walk's loop. With
/// a CA on every switch every switch is a source of every CA LID, and
/// only the few LIDs that take escape routes have other SLs.
fn sl0_column(slblk: &[u8], n: usize, lid: Lid) -> bool {
    let j = lid as usize % LFT_BLOCK;
    slblk[j * n..(j + 1) * n].iter().fold(0, |a, &sl| a | sl) == 0
}

/// The `hop` entries toward `lid` of the loaded part `hblk` (`n`
/// switches): the walk's column, and each switch's next hop.
fn column(hblk: &[u32], n: usize, lid: Lid) -> &[u32] {
    let j = lid as usize % PART;
    &hblk[j * n..(j + 1) * n]
}
