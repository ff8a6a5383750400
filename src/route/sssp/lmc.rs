//! The 2^LMC trees of one destination port: the GM-2 mapper's multiple
//! routes per destination "for route dispersion" (seed
//! `myrinet-gm2-mapper.txt`, "Routing" and "Route Computation"), carried by
//! IB's LMC: each LID offset of the port is a destination of its own with
//! its own LFT column, so a sender picks a route by picking the DLID.
//!
//! Offset k's tree is grown with a penalty on every link that offsets
//! 0..k−1 of the same port used (the seed's "search is done more than once
//! for every set of routes … to spread out routes in the local sense"), so
//! the trees part wherever shortest paths allow it. The offsets of one
//! port are routed one after the other, as OpenSM's sssp routes each LID of
//! a port in turn, so the penalties of one port are all the state needed.
//! Loads are kept per offset (plane k of [`Weights`]): offset k's tree
//! avoids the offset-k routes of other ports, so each offset is balanced
//! as an LMC-0 routing would be, and the base LIDs — what traffic that
//! ignores LMC uses — get exactly the LMC-0 balance.

use super::dests::Dest;
use super::tree::{Graph, NONE, Tree};
use super::weights::Weights;
use crate::model::{LFT_BLOCK, Lfts, NO_ROUTE};

/// Routes every LID of `d`: grows its trees, writes their LFT columns into
/// `cols` and adds their loads to `w`.
/// Call [`Columns::flush`] after the last port.
pub fn route_port(
    gr: &Graph,
    w: &mut Weights,
    tree: &mut Tree,
    (lfts, cols): (&mut Lfts, &mut Columns),
    d: &Dest,
) {
    let mut used: Vec<usize> = Vec::new();
    for k in 0..d.count {
        w.select(usize::from(k));
        used.iter().for_each(|&e| w.add_penalty(e));
        tree.grow(gr, w, d.sw);
        cols.write(lfts, gr, tree, d, d.lid + k);
        tree.count_sources(gr, Some(w));
        w.clear_penalties();
        if k + 1 < d.count {
            used.extend(tree.used_links());
        }
    }
    w.select(0);
}

/// LFT columns staged one 64-LID block at a time: a column has one byte per
/// switch, a whole LFT row apart in [`Lfts`]; staged, a block's columns
/// share cache lines and go back as one 64-byte copy per switch.
pub struct Columns {
    switches: usize,
    /// The block staged, if any.
    block: Option<usize>,
    /// `data[s * LFT_BLOCK + lid % LFT_BLOCK]`.
    data: Vec<u8>,
}

impl Columns {
    pub fn new(switches: usize) -> Self {
        Columns {
            switches,
            block: None,
            data: vec![NO_ROUTE; switches * LFT_BLOCK],
        }
    }

    /// Writes the column of `lid` from `tree` (rooted at `d.sw`); switches
    /// the tree does not reach keep what `lfts` holds (`NO_ROUTE`).
    pub fn write(&mut self, lfts: &mut Lfts, gr: &Graph, tree: &Tree, d: &Dest, lid: u16) {
        self.stage(lfts, lid);
        let at = usize::from(lid) % LFT_BLOCK;
        for &s in &tree.order {
            let via = tree.via[s as usize];
            self.data[s as usize * LFT_BLOCK + at] = if via == NONE {
                d.port
            } else {
                gr.g.port[via as usize]
            };
        }
    }

    /// The port switch `s` forwards `lid` on, staged or in `lfts`.
    pub fn get(&self, lfts: &Lfts, s: usize, lid: u16) -> u8 {
        if self.block == Some(usize::from(lid) / LFT_BLOCK) {
            self.data[s * LFT_BLOCK + usize::from(lid) % LFT_BLOCK]
        } else {
            lfts.get(s, lid)
        }
    }

    /// Stages the block of `lid` (writing back the one staged before).
    fn stage(&mut self, lfts: &mut Lfts, lid: u16) {
        let b = usize::from(lid) / LFT_BLOCK;
        if self.block == Some(b) {
            return;
        }
        self.flush(lfts);
        for s in 0..self.switches {
            self.data[s * LFT_BLOCK..][..LFT_BLOCK]
                .copy_from_slice(&lfts.row(s)[b * LFT_BLOCK..][..LFT_BLOCK]);
        }
        self.block = Some(b);
    }

    /// Writes the staged block back.
    pub fn flush(&mut self, lfts: &mut Lfts) {
        if let Some(b) = self.block.take() {
            for s in 0..self.switches {
                lfts.row_mut(s)[b * LFT_BLOCK..][..LFT_BLOCK]
                    .copy_from_slice(&self.data[s * LFT_BLOCK..][..LFT_BLOCK]);
            }
        }
    }
}

/// The column of `d`'s LIDs as a vector by switch (for switch LIDs routed
/// in parallel).
pub fn column(gr: &Graph, tree: &Tree, d: &Dest) -> Vec<u8> {
    let mut col = vec![NO_ROUTE; gr.num_switches()];
    for &s in &tree.order {
        let via = tree.via[s as usize];
        col[s as usize] = if via == NONE {
            d.port
        } else {
            gr.g.port[via as usize]
        };
    }
    col
}
