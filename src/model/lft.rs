//! Linear forwarding tables: one byte per (switch, LID), one contiguous block.
//!
//! A row is padded to whole 64-entry blocks, the unit an SM uploads with one
//! LinearForwardingTable SMP, so emitting and diffing blocks is slicing.

use super::table_bytes::TableBytes;

/// No route to this LID (OpenSM's `OSM_NO_PATH`).
pub const NO_ROUTE: u8 = 0xFF;

/// Entries per LinearForwardingTable block.
pub const LFT_BLOCK: usize = 64;

/// The unicast tables of every switch of a fabric, indexed by [`super::SwIdx`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Lfts {
    num_switches: usize,
    top: u16,
    stride: usize,
    data: TableBytes,
}

impl Lfts {
    /// Tables for `num_switches` switches and LIDs `0..=top`, all [`NO_ROUTE`].
    pub fn new(num_switches: usize, top: u16) -> Self {
        let stride = (top as usize / LFT_BLOCK + 1) * LFT_BLOCK;
        Lfts {
            num_switches,
            top,
            stride,
            data: TableBytes::filled(num_switches * stride, NO_ROUTE),
        }
    }

    /// Tables shaped like [`Lfts::new`] but all 0, on fresh zeroed pages
    /// that nothing has touched yet: for an engine that fills every row
    /// (padding included, starting from [`NO_ROUTE`]) in parallel, so the
    /// pages fault in on the threads that fill them and the 88 MB of a
    /// large fabric are written once instead of twice (issue 17).
    pub fn zeroed(num_switches: usize, top: u16) -> Self {
        let stride = (top as usize / LFT_BLOCK + 1) * LFT_BLOCK;
        Lfts {
            num_switches,
            top,
            stride,
            data: TableBytes::zeroed(num_switches * stride),
        }
    }

    /// Number of switches.
    pub fn num_switches(&self) -> usize {
        self.num_switches
    }

    /// LinearFDBTop: the highest LID with an entry.
    pub fn top(&self) -> u16 {
        self.top
    }

    /// Entries per row (a multiple of [`LFT_BLOCK`], > top).
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Blocks per row.
    pub fn num_blocks(&self) -> usize {
        self.stride / LFT_BLOCK
    }

    /// The table of switch `sw`, indexed by LID (padding included).
    pub fn row(&self, sw: usize) -> &[u8] {
        &self.data[sw * self.stride..(sw + 1) * self.stride]
    }

    /// The table of switch `sw`, mutable.
    pub fn row_mut(&mut self, sw: usize) -> &mut [u8] {
        &mut self.data[sw * self.stride..(sw + 1) * self.stride]
    }

    /// All rows, mutable, for filling switches in parallel (`par_chunks_mut`).
    pub fn rows_mut(&mut self) -> std::slice::ChunksExactMut<'_, u8> {
        self.data.chunks_exact_mut(self.stride)
    }

    /// All rows.
    pub fn rows(&self) -> std::slice::ChunksExact<'_, u8> {
        self.data.chunks_exact(self.stride)
    }

    /// The whole table as one slice (`num_switches × stride` bytes).
    pub fn as_bytes(&self) -> &[u8] {
        &self.data
    }

    /// The output port of switch `sw` for `lid` ([`NO_ROUTE`] if none).
    pub fn get(&self, sw: usize, lid: u16) -> u8 {
        self.data[sw * self.stride + lid as usize]
    }

    /// Sets the output port of switch `sw` for `lid`.
    pub fn set(&mut self, sw: usize, lid: u16, port: u8) {
        self.data[sw * self.stride + lid as usize] = port;
    }

    /// Block `b` (64 entries) of switch `sw`.
    pub fn block(&self, sw: usize, b: usize) -> &[u8] {
        &self.row(sw)[b * LFT_BLOCK..(b + 1) * LFT_BLOCK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_padded_to_blocks() {
        let mut t = Lfts::new(2, 64);
        assert_eq!(t.stride(), 128);
        assert_eq!(t.num_blocks(), 2);
        t.set(1, 64, 3);
        assert_eq!(t.get(1, 64), 3);
        assert_eq!(t.block(1, 1)[0], 3);
        assert_eq!(t.get(0, 64), NO_ROUTE);
        assert_eq!(Lfts::new(1, 63).stride(), 64);
    }

    #[test]
    fn zeroed_is_new_shaped_and_all_zero() {
        let z = Lfts::zeroed(3, 100);
        assert_eq!((z.num_switches(), z.top(), z.stride()), (3, 100, 128));
        assert_eq!(z.as_bytes().len(), 3 * 128);
        assert!(z.as_bytes().iter().all(|&b| b == 0));
    }
}
