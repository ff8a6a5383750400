//! Every (source leaf, destination) route walked once, for the permutation
//! passes (issue 17: `report --pattern shift` on 11,664 hosts).
//!
//! The N − 1 shift permutations route N·(N − 1) pairs, but destination-based
//! tables give every source on one leaf switch the same route to a
//! destination, so there are only leaves·N distinct routes. Walking a route
//! means one LFT lookup per hop at a switch that changes from pair to pair:
//! over the shifts each lookup misses the cache (the 11,664-host tables are
//! 19 MB). Walked once and stored as their link slots, the routes are read
//! back in order: for a shift k the sources of a leaf are consecutive in the
//! node order and so are their destinations, so a leaf's run of pairs reads
//! one contiguous stretch of its row. The memo is built only when it fits
//! [`MEMO_WORDS`]; above that the passes walk each pair as before. Either way
//! the loads are the same integers.

use rayon::prelude::*;

use super::{Fate, Walker};

/// Largest memo, in 4-byte words (256 MB). The 11,664-host RLFT needs
/// 648 leaves × 11,664 nodes × 6 words = 45 M.
pub(crate) const MEMO_WORDS: usize = 64 << 20;

/// First word of an entry that holds no route.
const UNROUTED: u32 = u32::MAX;
const OVER_HOP_LIMIT: u32 = u32::MAX - 1;

/// Every route from a leaf is stored in a fixed-width entry of `width`
/// words — its length, its switch-to-switch slots, the switch → CA slot —
/// so one pair is one contiguous read and a leaf's run of pairs in a shift
/// is one stream through its row.
pub(crate) struct RouteMemo {
    width: usize,
    /// Per order node: the row of its leaf, or `u32::MAX` when it hangs on
    /// no switch.
    node_row: Vec<u32>,
    /// Per switch: its row, or `u32::MAX` for a switch without sources.
    switch_row: Vec<u32>,
    /// Per row (leaf): `n × width` words. Rows stay apart so the memo never
    /// needs twice its size while built.
    rows: Vec<Vec<u32>>,
}

impl RouteMemo {
    /// The memo of `w`'s tables, or `None` when it would exceed the bound.
    pub(crate) fn build(w: &Walker) -> Option<RouteMemo> {
        let n = w.lid.len();
        let mut switch_row = vec![u32::MAX; w.topo.num_switches()];
        let mut leaves = Vec::new();
        for &l in w.leaf.iter().filter(|&&l| l != u32::MAX) {
            if switch_row[l as usize] == u32::MAX {
                switch_row[l as usize] = leaves.len() as u32;
                leaves.push(l);
            }
        }
        // A 3-level fat tree's routes have at most 4 switch links; a longer
        // route found while building sets the width of a second build.
        let mut width = FAT_TREE_WIDTH;
        let rows = loop {
            if leaves.len().checked_mul(n)?.checked_mul(width)? > MEMO_WORDS {
                return None;
            }
            match walk_rows(w, &leaves, width) {
                Ok(rows) => break rows,
                Err(longest) => width = longest + 2,
            }
        };
        let node_row = w
            .leaf
            .iter()
            .map(|&l| switch_row.get(l as usize).copied().unwrap_or(u32::MAX))
            .collect();
        Some(RouteMemo {
            width,
            node_row,
            switch_row,
            rows,
        })
    }

    /// The route from order node `src`'s leaf to order node `dst`.
    #[inline(always)]
    pub(crate) fn route_from_node(&self, src: usize, dst: usize) -> (Fate, &[u32]) {
        self.route_in(self.node_row[src], dst)
    }

    /// The route from switch `leaf` to order node `dst`.
    #[inline(always)]
    pub(crate) fn route(&self, leaf: u32, dst: usize) -> (Fate, &[u32]) {
        let row = self.switch_row.get(leaf as usize).copied();
        self.route_in(row.unwrap_or(u32::MAX), dst)
    }

    #[inline(always)]
    fn route_in(&self, row: u32, dst: usize) -> (Fate, &[u32]) {
        let Some(r) = self.rows.get(row as usize) else {
            return (Fate::Unrouted, &[]);
        };
        read_entry(&r[dst * self.width..(dst + 1) * self.width])
    }
}

/// A stored route: its length word (or [`UNROUTED`], [`OVER_HOP_LIMIT`]),
/// its switch-to-switch slots, the switch → CA slot. The memo's rows and
/// `slide.rs`'s bands hold such entries.
#[inline(always)]
pub(super) fn read_entry(e: &[u32]) -> (Fate, &[u32]) {
    match e[0] {
        UNROUTED => (Fate::Unrouted, &[]),
        OVER_HOP_LIMIT => (Fate::OverHopLimit, &[]),
        hops => {
            let hops = hops as usize;
            let down = e[1 + hops];
            let fate = Fate::Delivered {
                hops: hops as u32,
                down,
            };
            (fate, &e[1..1 + hops])
        }
    }
}

/// Stores the walked route (`fate`, the slots in `path`) in the entry `e`;
/// `false`, with `e` untouched, when the route does not fit.
pub(super) fn write_entry(e: &mut [u32], fate: Fate, path: &[u32]) -> bool {
    match fate {
        Fate::Delivered { .. } if path.len() + 2 > e.len() => return false,
        Fate::Delivered { hops, down } => {
            e[0] = hops;
            e[1..1 + path.len()].copy_from_slice(path);
            e[1 + path.len()] = down;
        }
        Fate::Unrouted => e[0] = UNROUTED,
        Fate::OverHopLimit => e[0] = OVER_HOP_LIMIT,
    }
    true
}

/// Entry width (length word, 4 switch links, the CA link) that fits every
/// route of a 3-level fat tree.
pub(super) const FAT_TREE_WIDTH: usize = 6;

/// The row of `leaf`, or the length of a route that does not fit `width`.
/// Destinations walked together: their LFT columns (one 64-entry block per
/// switch) stay in cache while every leaf walks toward them.
const DEST_BLOCK: usize = 64;

/// The rows of `leaves`, walked destination block by destination block (in
/// parallel over blocks), or the length of a route that does not fit
/// `width`.
fn walk_rows(w: &Walker, leaves: &[u32], width: usize) -> Result<Vec<Vec<u32>>, usize> {
    let n = w.lid.len();
    let mut rows = vec![vec![0u32; n * width]; leaves.len()];
    let mut blocks: Vec<Vec<&mut [u32]>> = Vec::new();
    for row in rows.iter_mut() {
        for (b, chunk) in row.chunks_mut(DEST_BLOCK * width).enumerate() {
            if blocks.len() == b {
                blocks.push(Vec::with_capacity(leaves.len()));
            }
            blocks[b].push(chunk);
        }
    }
    let too_long = blocks
        .into_par_iter()
        .enumerate()
        .map_init(Vec::new, |path, (b, mut chunks)| {
            let first = b * DEST_BLOCK;
            let longest = chunks
                .iter_mut()
                .zip(leaves)
                .map(|(chunk, &leaf)| walk_block(w, leaf, first, chunk, width, path));
            longest.max().unwrap_or(0)
        })
        .max()
        .unwrap_or(0);
    if too_long > 0 {
        Err(too_long)
    } else {
        Ok(rows)
    }
}

/// Fills `chunk`, the entries of destinations `first..` from `leaf`;
/// returns the longest route that did not fit (0 if all did).
fn walk_block(
    w: &Walker,
    leaf: u32,
    first: usize,
    chunk: &mut [u32],
    width: usize,
    path: &mut Vec<u32>,
) -> usize {
    let mut too_long = 0;
    for (i, e) in chunk.chunks_exact_mut(width).enumerate() {
        let fate = w.walk(leaf, first + i, path);
        if !write_entry(e, fate, path) {
            too_long = too_long.max(path.len());
        }
    }
    too_long
}
