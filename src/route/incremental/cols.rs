//! The columns (destination LIDs) a merge works on, LID-major copies of
//! them, and the blocks their marks fall in. A merge over every column is
//! the general case; when [`super::Previous::untouched_valid`] holds, only
//! the columns with an entry onto a port that lost its cable are merged
//! (2005 OpenSM memo §6: only the routes through the failed element need
//! new ports) and the rest are kept as they were.

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::walk::{Next, Ports};
use crate::model::incremental::ChangeReason;
use crate::model::{LFT_BLOCK, Lfts, NO_ROUTE};

/// The LIDs below `lids_n` for which some switch's entry in `old` leads
/// onto a port without a cable in the new fabric, ascending.
pub(super) fn touched(ports: &Ports, old: &Lfts, lids_n: usize) -> Vec<u16> {
    let mut lids: Vec<u16> = (0..old.num_switches())
        .into_par_iter()
        .flat_map_iter(|s| {
            // port 0 is the switch itself; NO_ROUTE is no port
            let mut dead = [false; 256];
            for p in 1..NO_ROUTE {
                dead[p as usize] = ports.get(s, p) == Next::Down;
            }
            let row = &old.row(s)[..lids_n];
            row.iter()
                .enumerate()
                .filter(move |&(_, &e)| dead[e as usize])
                .map(|(lid, _)| lid as u16)
                .collect::<Vec<_>>()
        })
        .collect();
    lids.par_sort_unstable();
    lids.dedup();
    lids
}

/// The columns `cols` of `t`, LID-major (`[i * switches + s]` for
/// `cols[i]`), copied 64 columns at a time so each row is read in runs.
pub(super) fn gather(t: &Lfts, cols: &[u16]) -> Vec<u8> {
    let n = t.num_switches();
    let mut out = vec![0u8; n * cols.len()];
    if n == 0 {
        return out;
    }
    out.par_chunks_mut(n * LFT_BLOCK)
        .zip(cols.par_chunks(LFT_BLOCK))
        .for_each(|(tile, lids)| {
            for s in 0..n {
                let row = t.row(s);
                for (j, &lid) in lids.iter().enumerate() {
                    tile[j * n + s] = row[lid as usize];
                }
            }
        });
    out
}

/// Entries below `lids_n` where `a` and `b` differ.
pub(super) fn differing(a: &Lfts, b: &Lfts, lids_n: usize) -> u64 {
    (0..a.num_switches())
        .into_par_iter()
        .map(|s| {
            let (x, y) = (&a.row(s)[..lids_n], &b.row(s)[..lids_n]);
            x.iter().zip(y).filter(|(p, q)| p != q).count() as u64
        })
        .sum()
}

/// The merged tables: `fresh`'s shape, the merged columns `out_t` (LID-major
/// over `cols`), and elsewhere `old`'s entries below the top when
/// `keep_old` (every column below the top is merged otherwise), `fresh`'s
/// padding past it. Starts from a copy of the tables most of whose
/// entries it keeps, so each row is written about once.
pub(super) fn merged(old: &Lfts, fresh: &Lfts, cols: &[u16], out_t: &[u8], keep_old: bool) -> Lfts {
    let n = fresh.num_switches();
    let lids_n = fresh.top() as usize + 1;
    // `old` is shaped like `fresh` ([`super::Previous::lfts`])
    let from_old = keep_old && (old.num_switches(), old.stride()) == (n, fresh.stride());
    let mut lfts = if from_old { old.clone() } else { fresh.clone() };
    let rows: Vec<&mut [u8]> = lfts.rows_mut().collect();
    rows.into_par_iter().enumerate().for_each(|(s, row)| {
        if from_old {
            row[lids_n..].copy_from_slice(&fresh.row(s)[lids_n..]);
        } else if keep_old {
            row[..lids_n].copy_from_slice(&old.row(s)[..lids_n]);
        }
        for (i, &lid) in cols.iter().enumerate() {
            row[lid as usize] = out_t[i * n + s];
        }
    });
    lfts
}

/// The floor's blocks, and the changed blocks above it by reason.
pub(super) struct Blocks {
    pub floor: u64,
    pub above: BTreeMap<ChangeReason, u64>,
}

impl Blocks {
    /// From must-change marks and change reasons (`None` = kept), LID-major
    /// over `cols` (ascending); columns outside `cols` hold neither. Every
    /// block of a switch new to the tables is forced.
    pub fn of(
        (must, why): (&[bool], &[Option<ChangeReason>]),
        cols: &[u16],
        lids_n: usize,
        new_switch: &[bool],
    ) -> Blocks {
        let n = new_switch.len();
        // per block, per switch: holds a floor entry; the first changed
        // entry's reason (in LID order); blocks in parallel
        let per_block: Vec<(Vec<bool>, Vec<Option<ChangeReason>>)> = (0..lids_n
            .div_ceil(LFT_BLOCK))
            .into_par_iter()
            .map(|b| {
                let (mut forced, mut first) = (new_switch.to_vec(), vec![None; n]);
                let lo = cols.partition_point(|&l| (l as usize) < b * LFT_BLOCK);
                let hi = cols.partition_point(|&l| (l as usize) < (b + 1) * LFT_BLOCK);
                for i in lo..hi {
                    let (m, w) = (&must[i * n..][..n], &why[i * n..][..n]);
                    for s in 0..n {
                        forced[s] |= m[s];
                        first[s] = first[s].or(w[s]);
                    }
                }
                (forced, first)
            })
            .collect();
        let mut b = Blocks {
            floor: 0,
            above: BTreeMap::new(),
        };
        for (forced, first) in &per_block {
            for (f, r) in forced.iter().zip(first) {
                match (f, r) {
                    (true, _) => b.floor += 1,
                    (false, Some(r)) => *b.above.entry(*r).or_default() += 1,
                    (false, None) => {}
                }
            }
        }
        b
    }
}
