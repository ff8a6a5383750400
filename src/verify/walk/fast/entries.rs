//! Loading one 64-LID block of the tables for the fast path as `hop`
//! entries rather than bytes: `out[j * n + s]` is the [`FastTables`] `hop`
//! entry of switch `s`'s port toward LID `64 b + j`.
//!
//! Why: the fast walk used to read each source's byte, then look its port
//! up in the 737 KB `hop` table — a chain of two dependent loads, the
//! second an L2 miss, per source per destination (the hottest load of the
//! stage on the 27,648-host RLFT). Here the look-up is made source-major,
//! where a switch's 64 entries of the block hit the same 256-byte `hop`
//! row, already in L1; the walk then reads one word per source from a
//! column that lies contiguous.

use super::{FastTables, NONE};
use crate::model::{LFT_BLOCK, Lfts};

/// Switches loaded together: their rows are read in parallel (one cache
/// miss each, 30 KB apart), and each LID's eight entries are stored as one
/// 32-byte run of its column.
const LANES: usize = 8;

impl FastTables {
    /// Writes block `b` of switches `0..n` into `out` as `hop` entries,
    /// LID-major (`NONE` for an entry beyond 63: no port of a switch the
    /// fast path takes).
    pub fn load_block(&self, lfts: &Lfts, b: usize, n: usize, out: &mut Vec<u32>) {
        out.resize(n * LFT_BLOCK, NONE);
        let full = n - n % LANES;
        for s0 in (0..full).step_by(LANES) {
            let rows: [&[u8]; LANES] = std::array::from_fn(|i| lfts.block(s0 + i, b));
            let hops: [&[u32]; LANES] =
                std::array::from_fn(|i| &self.hop[(s0 + i) << 6..((s0 + i) << 6) + 64]);
            for j in 0..LFT_BLOCK {
                let at = j * n + s0;
                let run: &mut [u32; LANES] = (&mut out[at..at + LANES])
                    .try_into()
                    .expect("a run of LANES entries");
                for i in 0..LANES {
                    *run.get_mut(i).expect("lane") = self.entry(hops[i], rows[i][j]);
                }
            }
        }
        for s in full..n {
            let row = lfts.block(s, b);
            let hops = &self.hop[s << 6..(s << 6) + 64];
            for j in 0..LFT_BLOCK {
                out[j * n + s] = self.entry(hops, row[j]);
            }
        }
    }

    /// The entry of port `p` in a switch's 64-slot `hop` row.
    #[inline(always)]
    fn entry(&self, hops: &[u32], p: u8) -> u32 {
        if p < 64 { hops[usize::from(p)] } else { NONE }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every switch count modulo 8 and every byte value (0xFF included):
    /// the loaded block is the `hop` row of each entry, read one by one.
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
                let mut out = Vec::new();
                ft.load_block(&t, b, n, &mut out);
                for s in 0..n {
                    for j in 0..LFT_BLOCK {
                        let lid = (b * LFT_BLOCK + j) as u16;
                        let p = usize::from(t.get(s, lid));
                        let want = if p < 64 { hop[s * 64 + p] } else { NONE };
                        assert_eq!(out[j * n + s], want, "n {n} switch {s} LID {lid}");
                    }
                }
            }
        }
    }
}
