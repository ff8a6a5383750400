//! The fast path's walk toward one destination, on slices of the scratch.
//!
//! Why a view of slices rather than methods of [`FastScratch`]: the walk
//! writes into the scratch's vectors at every step, and through `&mut
//! FastScratch` the compiler cannot tell those writes from the vectors'
//! own pointers and lengths, so it read them again at every source (the
//! hottest loads of `fast_destination` on the 27,648-host RLFT). Slices
//! split from the scratch once per destination are known not to overlap.

use super::entries::{UNLOADED, entry};
use super::{FastScratch, FastTables, NONE, ON_STACK, PART, UNKNOWN, far_of, next_of};
use crate::model::{Lfts, Lid};

/// Where a walk loads the entries a sources-only part left out
/// (`Acc::load_part`): the tables, the destination, and the list of the
/// slots it fills (reset before the next part).
pub(in crate::verify::walk) struct Loader<'a> {
    pub ft: &'a FastTables,
    pub lfts: &'a Lfts,
    pub lid: Lid,
    pub filled: &'a mut Vec<u32>,
}

/// One destination's walk: the scratch split into slices, the column of
/// `hop` entries toward it and its target switch. `MARK`: whether the
/// walk marks the in ports of the in-tree (for its turns); routes toward
/// a switch LID stay out of the CDG (unless `--all-paths`), so their walk
/// only finds depths.
pub(super) struct Walker<'a, const MARK: bool> {
    depth: &'a mut [u8],
    masks: &'a mut [u64],
    touched: &'a mut [u32],
    ntouched: usize,
    stack: &'a mut Vec<(u32, u32)>,
    col: &'a mut [u32],
    load: Loader<'a>,
    t: usize,
    hop_limit: u8,
    /// The switch the last hops entered, and their in ports not yet in
    /// `masks`: consecutive sources mostly enter one switch.
    run_to: usize,
    run_mask: u64,
}

impl FastScratch {
    /// The walk toward the destination whose column is `col` and target
    /// switch `t`; [`Walker::done`] gives the scratch back its count of
    /// touched switches.
    pub(super) fn walker<'a, const MARK: bool>(
        &'a mut self,
        col: &'a mut [u32],
        t: usize,
        load: Loader<'a>,
    ) -> Walker<'a, MARK> {
        let hop_limit = load.ft.hop_limit;
        // one length for the four per-switch slices: their bounds checks
        // then share it (one register fewer in the walk's loop)
        let n = col.len();
        Walker {
            depth: &mut self.depth[..n],
            masks: &mut self.masks[..n],
            touched: &mut self.touched,
            ntouched: self.ntouched,
            stack: &mut self.stack,
            col,
            load,
            t,
            hop_limit,
            run_to: t,
            run_mask: 0,
        }
    }
}

impl FastScratch {
    /// Walks the sources toward the destination whose column is `col` and
    /// target switch `t` (`runs` of them when they lie in few, else the
    /// list `sources`), keeping the count of touched switches; `false` at
    /// the first source whose route is not clean. The walk alone, the
    /// weights and SLs after it: with them in one loop its state did not
    /// fit the registers, and the run of weights and the scratch's
    /// pointers went to the stack and back at every source (issue 17).
    pub(super) fn walk_sources<const MARK: bool>(
        &mut self,
        col: &mut [u32],
        t: usize,
        load: Loader<'_>,
        runs: Option<&[(u32, u32)]>,
        sources: &[u32],
    ) -> bool {
        let mut walker = self.walker::<MARK>(col, t, load);
        let clean = match runs {
            Some(r) => r
                .iter()
                .all(|&(lo, hi)| walker.walk_span(lo as usize, hi as usize)),
            None => sources
                .iter()
                .all(|&s| walker.depth_of(s as usize).is_some()),
        };
        self.ntouched = walker.done();
        clean
    }
}

impl<const MARK: bool> Walker<'_, MARK> {
    /// The number of switches touched, for the scratch's `ntouched`.
    pub(super) fn done(mut self) -> usize {
        self.flush_run();
        self.ntouched
    }

    /// Walks every source of switches `lo..hi` ([`Walker::depth_of`]);
    /// `false` at the first that fails. A source whose next switch is
    /// the previous source's takes its depth without reading it: the
    /// leaves of a pod mostly go up to one spine (issue 17).
    #[inline(always)]
    pub(super) fn walk_span(&mut self, lo: usize, hi: usize) -> bool {
        // the previous source's next switch and that switch's depth
        let (mut prev, mut prev_d) = (usize::MAX, 0u8);
        for s in lo..hi {
            if self.depth[s] != UNKNOWN {
                continue;
            }
            let h = self.col[s];
            if h < UNLOADED && next_of(h) == prev {
                // within the hop limit: the previous source's depth was
                self.depth[s] = prev_d + 1;
                self.enter(h);
                continue;
            }
            let Some(d) = self.depth_of(s) else {
                return false;
            };
            // (its entry, loaded by the walk if it was not)
            let h = self.col[s];
            if h < UNLOADED {
                (prev, prev_d) = (next_of(h), d - 1);
            }
        }
        true
    }

    /// The hops from source `src` to the target, walking its route if
    /// no earlier walk did; `None` on a loop, a dead end or a route
    /// beyond the hop limit.
    #[inline(always)]
    pub(super) fn depth_of(&mut self, src: usize) -> Option<u8> {
        let d = self.depth[src];
        if d != UNKNOWN {
            return Some(d);
        }
        match self.one_step(src) {
            Some(d) => Some(d),
            None if self.walk(src) => Some(self.depth[src]),
            None => None,
        }
    }

    /// Follows next hops from `src` to a switch of known depth, then gives
    /// every switch on the way its depth and marks the in port by which it
    /// enters its next hop (unless that is `t`, which forwards nothing).
    /// `false` on a loop, a dead end or a route beyond the hop limit.
    #[inline(always)]
    fn walk(&mut self, src: usize) -> bool {
        self.stack.clear();
        let mut cur = src;
        let mut d = loop {
            match self.depth[cur] {
                UNKNOWN => {}
                ON_STACK => return false,
                d => break d,
            }
            self.depth[cur] = ON_STACK;
            let mut h = self.col[cur];
            if h == UNLOADED {
                h = self.load(cur);
            }
            if h == NONE {
                return false;
            }
            self.stack.push((cur as u32, h));
            cur = next_of(h);
        };
        while let Some((x, h)) = self.stack.pop() {
            d += 1;
            if d > self.hop_limit {
                return false;
            }
            self.depth[x as usize] = d;
            self.enter(h);
        }
        true
    }

    /// Loads switch `cur`'s entry, left out of a sources-only part, into
    /// its slot of the column.
    fn load(&mut self, cur: usize) -> u32 {
        let l = &mut self.load;
        let h = entry(l.ft.hop_row(cur), l.lfts.get(cur, l.lid));
        self.col[cur] = h;
        // the slot's index in the part: the LID's column, then the switch
        let at = l.lid as usize % PART * self.col.len() + cur;
        l.filled.push(at as u32);
        h
    }

    /// Marks the in port by which the hop `h` (a `hop` entry) enters its
    /// next switch, unless that is the target `t`: gathered while hops
    /// enter one switch, written by [`Walker::flush_run`] at the next
    /// switch (one mask write per run of sources, not per source).
    #[inline(always)]
    fn enter(&mut self, h: u32) {
        if !MARK {
            return;
        }
        let to = next_of(h);
        let bit = 1u64 << far_of(h);
        if to == self.run_to {
            self.run_mask |= bit;
            return;
        }
        self.flush_run();
        self.run_to = to;
        self.run_mask = bit;
    }

    /// ORs the in ports gathered by [`Walker::enter`] into the mask of the
    /// switch they enter, listing it as touched when its mask was empty
    /// (`t` forwards nothing: not marked).
    #[inline(always)]
    fn flush_run(&mut self) {
        let to = self.run_to;
        if MARK && to != self.t {
            let was = self.masks[to];
            // branch-free: written always, kept when the mask was empty
            self.touched[self.ntouched] = to as u32;
            self.ntouched += usize::from(was == 0);
            self.masks[to] = was | self.run_mask;
        }
    }

    /// [`Walker::walk`] for the common source whose next hop already has
    /// a depth (every leaf of a pod after the first, on a fat tree): no
    /// stack. The source's depth, or `None` when the walk is needed.
    #[inline(always)]
    fn one_step(&mut self, src: usize) -> Option<u8> {
        let h = self.col[src];
        // a dead end, or a slot a sources-only part left out (a source of
        // a switch LID other than the leaves): the walk loads the latter
        if h >= UNLOADED {
            return None;
        }
        // UNKNOWN and ON_STACK are above any hop limit
        let d = self.depth[next_of(h)];
        if d >= self.hop_limit {
            return None;
        }
        self.depth[src] = d + 1;
        self.enter(h);
        Some(d + 1)
    }
}
