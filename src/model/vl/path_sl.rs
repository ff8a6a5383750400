//! The path SLs of a VL plan, and which LID blocks of them may be non-zero.

use fixedbitset::FixedBitSet;

use super::NUM_SL;
use crate::model::{LFT_BLOCK, Lfts, Lid};

/// The SL of every (source switch, destination LID) pair, laid out like the
/// LFTs (one byte per switch and LID, rows padded to whole blocks): the SL
/// of the path that starts at the switch (from the switch itself or any of
/// its end ports) toward the LID.
///
/// A switch whose end ports use different SLs toward one LID (a subnet
/// manager that assigns SLs per source port, like OpenSM's dfsssp, read
/// back with `check --psl`) keeps the further SLs in a sparse side table:
/// the switch is then a source on each of them.
#[derive(Clone, Debug)]
pub struct PathSl {
    stride: usize,
    sls: Vec<u8>,
    /// Further SLs (bit set) of (switch, LID) pairs with more than one.
    more: std::collections::BTreeMap<(u32, Lid), u16>,
    /// What [`PathSl::set`] wrote, `None` once a row was lent for writing.
    written: Option<Written>,
}

/// The SLs other than 0 that [`PathSl::set`] wrote. Readers that want only
/// those (the verifier's SL columns, the image's VL section, the report's
/// SL counts) then need not read the table: one byte per switch and LID,
/// 96 MB on the 27,648-host RLFT with aggregation nodes, where 27 of its
/// 522 LID blocks hold one. Reading the rest faulted its untouched pages
/// in (zero pages, 17 K faults), and the verifier's scan for the non-zero
/// blocks took 64–75 ms of that compile's verify stage (traced; the
/// image writer read the same pages beside it).
#[derive(Clone, Debug)]
struct Written {
    /// How many pairs have an SL other than 0: [`PathSl::all_zero`].
    nonzero: usize,
    /// The LID blocks where some row got an SL other than 0 (a block
    /// written back to 0 stays in: a superset of the non-zero blocks).
    blocks: FixedBitSet,
}

/// Equal SLs, however they were written.
impl PartialEq for PathSl {
    fn eq(&self, o: &Self) -> bool {
        (self.stride, &self.sls, &self.more) == (o.stride, &o.sls, &o.more)
    }
}

impl Eq for PathSl {}

impl PathSl {
    /// SL 0 for every pair, shaped like `lfts`.
    pub fn zeros(lfts: &Lfts) -> Self {
        PathSl {
            stride: lfts.stride(),
            sls: vec![0; lfts.num_switches() * lfts.stride()],
            more: Default::default(),
            written: Some(Written {
                nonzero: 0,
                blocks: FixedBitSet::with_capacity(lfts.stride().div_ceil(LFT_BLOCK)),
            }),
        }
    }

    /// The SL of the path from switch `sw` toward `lid` (0 past the table).
    pub fn get(&self, sw: usize, lid: Lid) -> u8 {
        self.row(sw).get(lid as usize).copied().unwrap_or(0)
    }

    /// Sets the SL of the path from switch `sw` toward `lid`.
    pub fn set(&mut self, sw: usize, lid: Lid, sl: u8) {
        let at = &mut self.sls[sw * self.stride..(sw + 1) * self.stride][lid as usize];
        let was = std::mem::replace(at, sl & 15);
        if let Some(w) = &mut self.written {
            w.nonzero = w.nonzero + usize::from(sl & 15 != 0) - usize::from(was != 0);
            if sl & 15 != 0 {
                w.blocks.insert(lid as usize / LFT_BLOCK);
            }
        }
    }

    /// Every SL of the paths from switch `sw` toward `lid`, as a bit set.
    pub fn sls(&self, sw: usize, lid: Lid) -> u16 {
        let more = if self.more.is_empty() {
            0
        } else {
            self.more.get(&(sw as u32, lid)).copied().unwrap_or(0)
        };
        1 << self.get(sw, lid) | more
    }

    /// Adds `sl` to the SLs of the paths from switch `sw` toward `lid`,
    /// whose first SL was set with [`PathSl::set`].
    pub fn add(&mut self, sw: usize, lid: Lid, sl: u8) {
        if self.get(sw, lid) != sl & 15 {
            *self.more.entry((sw as u32, lid)).or_default() |= 1 << (sl & 15);
        }
    }

    /// Whether some (switch, LID) pair has more than one SL.
    pub fn has_more(&self) -> bool {
        !self.more.is_empty()
    }

    /// The SLs of switch `sw`'s paths, LID-indexed.
    pub fn row(&self, sw: usize) -> &[u8] {
        &self.sls[sw * self.stride..(sw + 1) * self.stride]
    }

    /// The SLs of switch `sw`'s paths, LID-indexed, for writing.
    pub fn row_mut(&mut self, sw: usize) -> &mut [u8] {
        self.written = None;
        &mut self.sls[sw * self.stride..(sw + 1) * self.stride]
    }

    /// Whether every path is on SL 0 and on it alone.
    pub fn all_zero(&self) -> bool {
        self.more.is_empty()
            && self
                .written
                .as_ref()
                .map_or_else(|| self.sls.iter().all(|&sl| sl == 0), |w| w.nonzero == 0)
    }

    /// The LID blocks that may hold an SL other than 0 in some row, when
    /// known without reading the table (every SL went through
    /// [`PathSl::set`]); every other block is 0 in every row.
    pub fn written_blocks(&self) -> Option<&FixedBitSet> {
        self.written.as_ref().map(|w| &w.blocks)
    }

    /// The LID blocks where some row may hold an SL other than 0 (a
    /// superset): the record when every SL went through [`PathSl::set`],
    /// else a scan of the rows. Readers that want only the SLs off 0 (the
    /// verifier transposes the SLs of these blocks alone: 27 of 522 on the
    /// 27,648-host RLFT with aggregation nodes, where transposing the zeros
    /// around them took 8 % of its check; the report counts them) ask here.
    pub fn nonzero_blocks(&self) -> std::borrow::Cow<'_, FixedBitSet> {
        use rayon::prelude::*;
        if let Some(w) = self.written_blocks() {
            return std::borrow::Cow::Borrowed(w);
        }
        let blocks = self.stride.div_ceil(LFT_BLOCK);
        let scanned = self
            .sls
            .par_chunks(self.stride.max(1))
            .fold(
                || FixedBitSet::with_capacity(blocks),
                |mut m, row| {
                    for (b, c) in row.chunks(LFT_BLOCK).enumerate() {
                        if c.iter().fold(0, |a, &sl| a | sl) != 0 {
                            m.insert(b);
                        }
                    }
                    m
                },
            )
            .reduce(
                || FixedBitSet::with_capacity(blocks),
                |mut a, b| {
                    a.union_with(&b);
                    a
                },
            );
        std::borrow::Cow::Owned(scanned)
    }

    /// The bit set of SLs used by any pair.
    pub fn used(&self) -> u16 {
        let mut seen = [false; NUM_SL];
        for &sl in &self.sls {
            seen[sl as usize & 15] = true;
        }
        let primary = (0..NUM_SL).filter(|&i| seen[i]).fold(0, |m, i| m | 1 << i);
        self.more.values().fold(primary, |m, &x| m | x)
    }
}
