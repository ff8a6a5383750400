//! Columns of the tables: the next channel of every switch toward one
//! LID, read where the walks along a destination's in-tree need them — a
//! whole LFT block's columns at once, or the columns of chosen LIDs filled
//! once for every pass ([`PathWalk::preload`]).

use super::{NONE, PathWalk};
use crate::model::{LFT_BLOCK, Lid};

/// The next channel of every switch toward each LID of one LFT block,
/// LID-major: `next[(lid % 64) * switches + s]` (`NONE` where the path
/// ends). Walks along a destination's in-tree read one contiguous column
/// instead of one LFT row per switch, rows a stride apart (30 KB on the
/// 27,648-host RLFT: a cache miss at every step); the 64 entries of a
/// block are one cache line of each row, read once for 64 LIDs.
pub(in crate::route::layers) struct Block {
    b: usize,
    next: Vec<u32>,
}

impl Default for Block {
    fn default() -> Self {
        Block {
            b: usize::MAX,
            next: Vec::new(),
        }
    }
}

impl Block {
    /// The column of `lid`, which must be in the loaded block.
    pub fn col(&self, lid: Lid) -> Col<'_> {
        let n = self.next.len() / LFT_BLOCK;
        let j = lid as usize % LFT_BLOCK;
        Col(&self.next[j * n..(j + 1) * n])
    }
}

/// The next channels toward one LID, per switch.
#[derive(Clone, Copy)]
pub(in crate::route::layers) struct Col<'a>(&'a [u32]);

impl Col<'_> {
    /// The channel switch `s` sends the LID out on toward another switch;
    /// `None` where the path ends (delivered, dropped, or leaving to an
    /// end port).
    pub fn hop(&self, s: u32) -> Option<u32> {
        let c = self.0[s as usize];
        (c != NONE).then_some(c)
    }
}

impl PathWalk<'_> {
    /// Fills the columns of `lids` once, in parallel, for every later walk
    /// toward them: the escape targets of Dmodc are walked by the base
    /// pass, the seed and both first-fit passes, and each would otherwise
    /// fill them again (switches × 1,728 entries on the 27,648-host RLFT
    /// with aggregation nodes). A task per LFT block reads each row's
    /// cache line of the block once for all of the block's LIDs.
    pub fn preload(&mut self, lids: &[Lid]) {
        use rayon::prelude::*;
        let n = self.switches();
        let blocks = self.destination_blocks_of(lids);
        let mut at = vec![u32::MAX; self.target.len()];
        for (i, &l) in blocks.iter().flatten().enumerate() {
            at[l as usize] = i as u32;
        }
        // zeroed, on fresh pages: each task fills its own (`fill_cols`)
        let mut pre = vec![0; n * blocks.iter().map(Vec::len).sum::<usize>()];
        super::super::cut(&mut pre, blocks.iter().map(|b| n * b.len()))
            .into_par_iter()
            .zip(&blocks)
            .for_each(|(cols, blk)| self.fill_cols(cols, blk));
        (self.pre_at, self.pre) = (at, pre);
    }

    /// The next channel of every switch toward each of `lids` (one LFT
    /// block's), column after column, into `cols` (all of it: `NONE` where
    /// the path ends).
    fn fill_cols(&self, cols: &mut [u32], lids: &[Lid]) {
        let n = self.switches();
        cols.fill(NONE);
        let dst: Vec<u32> = lids
            .iter()
            .map(|&l| self.target[l as usize].map_or(NONE, |t| t.0))
            .collect();
        for s in 0..n {
            let row = self.lfts.row(s);
            for (k, &lid) in lids.iter().enumerate() {
                if dst[k] != NONE && dst[k] != s as u32 {
                    cols[k * n + s] = self.channel(s, row[lid as usize]).unwrap_or(NONE);
                }
            }
        }
    }

    /// [`Self::destinations`] by LFT block.
    pub fn destination_blocks(&self) -> Vec<Vec<Lid>> {
        by_block(self.destinations())
    }

    /// The destinations among `lids` (ascending), by LFT block.
    pub fn destination_blocks_of(&self, lids: &[Lid]) -> Vec<Vec<Lid>> {
        by_block(lids.iter().copied().filter(|&l| self.is_destination(l)))
    }

    /// Loads into `blk` the next channels toward the LIDs of LFT block `b`
    /// (nothing to do when it holds them already).
    pub fn load(&self, blk: &mut Block, b: usize) {
        if blk.b == b {
            return;
        }
        let n = self.switches();
        blk.b = b;
        blk.next.clear();
        blk.next.resize(n * LFT_BLOCK, NONE);
        let first = b * LFT_BLOCK;
        let dst: Vec<u32> = (first..first + LFT_BLOCK)
            .map(|l| self.target.get(l).copied().flatten().map_or(NONE, |t| t.0))
            .collect();
        for s in 0..n {
            for (j, &p) in self.lfts.block(s, b).iter().enumerate() {
                if dst[j] != NONE && dst[j] != s as u32 {
                    blk.next[j * n + s] = self.channel(s, p).unwrap_or(NONE);
                }
            }
        }
    }

    /// The column of `lid`: preloaded, or from its block, loaded into
    /// `blk` if need be.
    pub fn col<'b>(&'b self, blk: &'b mut Block, lid: Lid) -> Col<'b> {
        if let Some(&i) = self.pre_at.get(lid as usize).filter(|&&i| i != u32::MAX) {
            let n = self.switches();
            return Col(&self.pre[i as usize * n..(i as usize + 1) * n]);
        }
        self.load(blk, lid as usize / LFT_BLOCK);
        blk.col(lid)
    }
}

/// Ascending LIDs grouped by LFT block.
fn by_block(lids: impl Iterator<Item = Lid>) -> Vec<Vec<Lid>> {
    let mut out: Vec<Vec<Lid>> = Vec::new();
    let mut last = usize::MAX;
    for lid in lids {
        let b = lid as usize / LFT_BLOCK;
        match out.last_mut() {
            Some(v) if b == last => v.push(lid),
            _ => out.push(vec![lid]),
        }
        last = b;
    }
    out
}
