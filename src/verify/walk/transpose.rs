//! Loading one 64-LID block of every switch's table LID-major (issue 12:
//! a destination's column then lies in a few contiguous KB instead of one
//! byte per 30 KB row, a cache and TLB miss per switch). Eight switches at
//! a time: eight 8-byte words of their rows are transposed as an 8×8 byte
//! matrix in registers and stored as eight 8-byte words of the columns,
//! instead of 64 single-byte stores per switch scattered over 64 columns.

use crate::model::{LFT_BLOCK, Lfts};

/// Writes block `b` of switches `0..n` into `out`, LID-major:
/// `out[j * n + s]` = entry of switch `s` for LID `64 b + j`.
pub(crate) fn load_block(lfts: &Lfts, b: usize, n: usize, out: &mut [u8]) {
    load_rows(|s| lfts.block(s, b), n, out);
}

/// [`load_block`] for any switch-major table: `row(s)` is the 64 bytes of
/// switch `s` (the path SLs of a VL plan use it too).
pub(crate) fn load_rows<'a>(row: impl Fn(usize) -> &'a [u8], n: usize, out: &mut [u8]) {
    let full = n - n % 8;
    for s0 in (0..full).step_by(8) {
        let rows: [&[u8]; 8] = std::array::from_fn(|i| row(s0 + i));
        for j0 in (0..LFT_BLOCK).step_by(8) {
            let mut x: [u64; 8] = std::array::from_fn(|i| word(&rows[i][j0..j0 + 8]));
            transpose8(&mut x);
            for (k, w) in x.iter().enumerate() {
                let at = (j0 + k) * n + s0;
                out[at..at + 8].copy_from_slice(&w.to_le_bytes());
            }
        }
    }
    for s in full..n {
        for (j, &p) in row(s)[..LFT_BLOCK].iter().enumerate() {
            out[j * n + s] = p;
        }
    }
}

fn word(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(b);
    u64::from_le_bytes(w)
}

/// Transposes the 8×8 byte matrix whose row `r` is `x[r]` (byte `c` =
/// column `c`, little-endian): three rounds of swapping the off-diagonal
/// halves of 2×2, 4×4 and 8×8 sub-blocks.
fn transpose8(x: &mut [u64; 8]) {
    const ROUNDS: [(usize, u32, u64); 3] = [
        (1, 8, 0x00FF_00FF_00FF_00FF),
        (2, 16, 0x0000_FFFF_0000_FFFF),
        (4, 32, 0x0000_0000_FFFF_FFFF),
    ];
    for (d, shift, mask) in ROUNDS {
        for r in (0..8).filter(|r| r & d == 0) {
            let t = ((x[r] >> shift) ^ x[r + d]) & mask;
            x[r + d] ^= t;
            x[r] ^= t << shift;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose8_swaps_rows_and_columns() {
        let mut x: [u64; 8] =
            std::array::from_fn(|r| u64::from_le_bytes(std::array::from_fn(|c| (r * 8 + c) as u8)));
        transpose8(&mut x);
        for (c, w) in x.iter().enumerate() {
            let want: [u8; 8] = std::array::from_fn(|r| (r * 8 + c) as u8);
            assert_eq!(w.to_le_bytes(), want, "column {c}");
        }
    }

    /// Every switch count modulo 8, entries all distinct per (switch, LID)
    /// pattern: the block equals the entries read one by one.
    #[test]
    fn block_is_the_tables_read_lid_major() {
        for n in [1, 7, 8, 9, 16, 21] {
            let mut t = Lfts::new(n, 200);
            for s in 0..n {
                for lid in 0..=200u16 {
                    t.set(s, lid, ((s * 31 + lid as usize * 7) % 251) as u8);
                }
            }
            for b in 0..t.num_blocks() {
                let mut out = vec![0u8; n * LFT_BLOCK];
                load_block(&t, b, n, &mut out);
                for s in 0..n {
                    for j in 0..LFT_BLOCK {
                        let lid = (b * LFT_BLOCK + j) as u16;
                        assert_eq!(out[j * n + s], t.get(s, lid), "n {n} switch {s} LID {lid}");
                    }
                }
            }
        }
    }
}
