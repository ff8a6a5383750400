//! Loading part of a 64-LID block of the tables ([`PART`] LIDs) for the
//! fast path as `hop` entries rather than bytes: `out[j * n + s]` is the
//! [`FastTables`] `hop` entry of switch `s`'s port toward LID `64 b +
//! PART k + j`.
//!
//! Why: the fast walk used to read each source's byte, then look its port
//! up in the 737 KB `hop` table — a chain of two dependent loads, the
//! second an L2 miss, per source per destination (the hottest load of the
//! stage on the 27,648-host RLFT). Here the look-up is made source-major,
//! where a switch's 64 entries of the block hit the same 256-byte `hop`
//! row, already in L1; the walk then reads one word per source from a
//! column that lies contiguous. [`Acc::load_part`] decides per part
//! whether every switch is loaded or the sources only.

use super::{Acc, FastTables, NONE, WalkCtx};
use crate::model::{LFT_BLOCK, Lfts};

/// Switches loaded together: their rows are read in parallel (one cache
/// miss each, 30 KB apart), and each LID's sixteen entries are stored as
/// one 64-byte run of its column.
const LANES: usize = 16;

/// LIDs loaded at once, a part of a 64-LID block. Measured on a 2-core
/// AMD EPYC with 1 MB of L2 per core (`cargo bench --bench verify`,
/// criterion means, four alternating runs each): 27,648 hosts 220–259 ms
/// with 32 against 259–289 ms with whole blocks (64) and 276–287 ms with
/// 16, whose shorter runs of columns and extra row reads cost more than
/// the smaller part saves; 11,664 hosts (a 414 KB block) 50–71 ms against
/// 66–71 ms.
pub(crate) const PART: usize = 32;

/// A slot of a sources-only part not loaded yet (`Acc::load_part`): no
/// `hop` entry has it, since its next switch (2^19 − 1) is beyond any
/// fabric the fast path takes. Just below `NONE`, so that one compare
/// tells both from a hop.
pub(crate) const UNLOADED: u32 = u32::MAX - 1;
const _: () = assert!(UNLOADED + 1 == NONE);

impl FastTables {
    /// Writes part `k` of block `b` (LIDs `64 b + PART k ..`, see
    /// [`PART`]) of switches `0..n` into `out` as `hop` entries, LID-major
    /// (`NONE` for an entry beyond 63: no port of a switch the fast path
    /// takes).
    pub fn load_part(&self, lfts: &Lfts, b: usize, k: usize, n: usize, out: &mut Vec<u32>) {
        out.resize(n * PART, NONE);
        self.load_range(lfts, b, k, n, 0..n, out);
    }

    /// [`FastTables::load_part`] for the switches of `runs` only (ranges
    /// of switch indices); the other slots of `out` are left as they are.
    pub fn load_runs(
        &self,
        lfts: &Lfts,
        (b, k): (usize, usize),
        n: usize,
        runs: &[(u32, u32)],
        out: &mut [u32],
    ) {
        for &(lo, hi) in runs {
            self.load_range(lfts, b, k, n, lo as usize..hi as usize, out);
        }
    }

    /// Loads the entries of switches `range` (of `n`) into `out`.
    fn load_range(
        &self,
        lfts: &Lfts,
        b: usize,
        k: usize,
        n: usize,
        range: std::ops::Range<usize>,
        out: &mut [u32],
    ) {
        let at = k * PART..(k + 1) * PART;
        let full = range.end - (range.end - range.start) % LANES;
        for s0 in (range.start..full).step_by(LANES) {
            // the next group's rows, read now so that their misses overlap
            // this group's work (no prefetch intrinsic without `unsafe`)
            if s0 + 2 * LANES <= range.end {
                let warm =
                    (s0 + LANES..s0 + 2 * LANES).fold(0u8, |a, s| a ^ lfts.block(s, b)[at.start]);
                std::hint::black_box(warm);
            }
            let rows: [&[u8; PART]; LANES] =
                std::array::from_fn(|i| part(lfts, s0 + i, b, at.start));
            let hops: [&[u32; 64]; LANES] = std::array::from_fn(|i| self.hop_row(s0 + i));
            for (j, col) in out[..n * PART].chunks_exact_mut(n).enumerate() {
                let run: &mut [u32; LANES] = (&mut col[s0..s0 + LANES])
                    .try_into()
                    .expect("a run of LANES entries");
                for (i, e) in run.iter_mut().enumerate() {
                    *e = entry(hops[i], rows[i][j]);
                }
            }
        }
        for s in full..range.end {
            let (row, hops) = (part(lfts, s, b, at.start), self.hop_row(s));
            for (j, &p) in row.iter().enumerate() {
                out[j * n + s] = entry(hops, p);
            }
        }
    }

    /// The 64 `hop` slots of switch `s`.
    #[inline(always)]
    pub(super) fn hop_row(&self, s: usize) -> &[u32; 64] {
        self.hop[s << 6..(s << 6) + 64]
            .try_into()
            .expect("64 slots a switch")
    }
}

/// Switch LIDs a part may hold and still be loaded for the sources only.
/// Each walks from every switch, loading the ~1,700 entries of the others
/// one by one (a few times the cost of their share of a whole load), while
/// each CA LID saves most of its share: on the 27,648-host RLFT the two
/// should balance at about 7 switch LIDs in a part of 32 (an estimate from
/// per-entry costs, not a measured optimum; a switch LID after every 10 CA
/// LIDs measured a gain). OpenSM's LIDs may strew switch LIDs among CA
/// LIDs (those of `fixtures/opensm/ft3f` run CA, 6 switches, 31 CAs, 21
/// switches).
const SWITCH_LIDS_LAZY: usize = 4;

impl Acc {
    /// Loads part `k` of LFT block `b` of every switch (LIDs `64 b + PART
    /// k ..`) as `hop` entries for the fast path's following calls. Parts
    /// rather than whole blocks: a block of `hop` entries is 737 KB on the
    /// 27,648-host RLFT, more than a 1 MB L2 keeps beside the walk's other
    /// data and the rows streaming in; half of it stays in L2 while its
    /// LIDs are walked ([`PART`] says what was measured).
    ///
    /// A part with at most [`SWITCH_LIDS_LAZY`] switch LIDs is loaded for
    /// the switches with end ports only, when `ft` says so: they are the
    /// only sources toward its CA LIDs, and on the 27,648-host RLFT the
    /// walks from them step on 47 of the other 1,728 switches per LID on
    /// average, which then load their own entries (`fast/walker.rs`). A
    /// switch LID's sources are all switches, each then loaded by its walk.
    pub fn load_part(&mut self, cx: &WalkCtx, ft: &FastTables, b: usize, k: usize) {
        let n = cx.topo.num_switches();
        let first = b * LFT_BLOCK + k * PART;
        let few_switch_lids = || {
            let target = |lid: usize| cx.topo.target.get(lid).copied().flatten();
            (first..first + PART)
                .filter(|&lid| target(lid).is_some_and(|t| !t.is_end))
                .count()
                <= SWITCH_LIDS_LAZY
        };
        let Some(runs) = ft.source_runs().filter(|_| few_switch_lids()) else {
            ft.load_part(cx.lfts, b, k, n, &mut self.hblk);
            self.hblk_sources = false;
            return;
        };
        // (one accumulator checks one fabric: a sources-only part before
        // this one left the buffer at `n * PART` slots)
        if self.hblk_sources {
            for &i in &self.filled {
                self.hblk[i as usize] = UNLOADED;
            }
        } else {
            self.hblk.clear();
            self.hblk.resize(n * PART, UNLOADED);
        }
        self.filled.clear();
        self.hblk_sources = true;
        self.shortcuts.source_parts += 1;
        ft.load_runs(cx.lfts, (b, k), n, runs, &mut self.hblk);
    }
}

/// The `PART` entries of block `b` of switch `s`'s table from `j0` on.
#[inline(always)]
fn part(lfts: &Lfts, s: usize, b: usize, j0: usize) -> &[u8; PART] {
    lfts.block(s, b)[j0..j0 + PART]
        .try_into()
        .expect("a part of PART entries")
}

/// The entry of port `p` in a switch's `hop` row.
#[inline(always)]
pub(super) fn entry(hops: &[u32; 64], p: u8) -> u32 {
    let h = hops[usize::from(p & 63)];
    if p < 64 { h } else { NONE }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LFT_BLOCK;

    /// Every switch count modulo 8 and every byte value (0xFF included):
    /// each loaded part is the `hop` row of each entry, read one by one.
    #[test]
    fn block_is_the_hop_entries_of_the_tables() {
        for n in [1, 7, 8, 9, 16, 21] {
            let hop: Vec<u32> = (0..n * 64).map(|i| (i * 7919 % 100_003) as u32).collect();
            let ft = FastTables::for_test(hop.clone());
            let mut t = Lfts::new(n, 300);
            for s in 0..n {
                for lid in 0..=300u16 {
                    t.set(s, lid, ((s * 31 + lid as usize * 7) % 256) as u8);
                }
            }
            for b in 0..t.num_blocks() {
                for k in 0..LFT_BLOCK / PART {
                    let mut out = Vec::new();
                    ft.load_part(&t, b, k, n, &mut out);
                    for s in 0..n {
                        for j in 0..PART {
                            let lid = (b * LFT_BLOCK + k * PART + j) as u16;
                            let p = usize::from(t.get(s, lid));
                            let want = if p < 64 { hop[s * 64 + p] } else { NONE };
                            assert_eq!(out[j * n + s], want, "n {n} switch {s} LID {lid}");
                        }
                    }
                }
            }
        }
    }

    /// Runs of every length around the 16-switch groups: the switches of
    /// the runs get what a whole load gives them, the others keep
    /// [`UNLOADED`].
    #[test]
    fn runs_load_their_switches_only() {
        let n = 45;
        let hop: Vec<u32> = (0..n * 64).map(|i| (i * 7919 % 100_003) as u32).collect();
        let ft = FastTables::for_test(hop);
        let mut t = Lfts::new(n, 200);
        for s in 0..n {
            for lid in 0..=200u16 {
                t.set(s, lid, ((s * 13 + lid as usize * 5) % 70) as u8);
            }
        }
        let runs = [(0, 1), (2, 19), (20, 21), (23, 41), (44, 45)];
        for (b, k) in [(0, 0), (1, 1), (3, 0)] {
            let mut whole = Vec::new();
            ft.load_part(&t, b, k, n, &mut whole);
            let mut some = vec![UNLOADED; n * PART];
            ft.load_runs(&t, (b, k), n, &runs, &mut some);
            for s in 0..n {
                let inside = runs.iter().any(|&(lo, hi)| (lo..hi).contains(&(s as u32)));
                for j in 0..PART {
                    let want = if inside { whole[j * n + s] } else { UNLOADED };
                    assert_eq!(
                        some[j * n + s],
                        want,
                        "block {b} part {k} switch {s} lane {j}"
                    );
                }
            }
        }
    }
}
