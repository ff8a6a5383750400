//! The channel dependency graph's compressed rows: its channels numbered
//! in key order, and each row's edges sorted once.

use fixedbitset::FixedBitSet;

use super::cdg::Channel;
use super::topo::Topo;
use crate::model::PortNum;

/// The used channels in key order (a channel's id is its place here).
pub(super) fn number_channels(topo: &Topo, used: &FixedBitSet) -> Vec<Channel> {
    let mut nodes = Vec::with_capacity(used.count_ones(..));
    let mut sw = 0usize;
    for k in used.ones() {
        let flat = (k >> 4) as u32;
        while topo.base[sw + 1] <= flat {
            sw += 1;
        }
        nodes.push(Channel {
            sw: sw as u32,
            port: (flat - topo.base[sw]) as PortNum,
            vl: (k & 15) as u8,
        });
    }
    nodes
}

/// A used channel key's id: how many used keys are below it, counted from
/// the bitset's words and the count before each word. An array over every
/// key (16 VL slots a port, 9 MB on the 27,648-host RLFT with aggregation
/// nodes) was zeroed, faulted in and read at random: half of building that
/// fabric's escape-VL graph (4.6–5.0 ms numbering, 4.8–6.3 ms indexing).
pub(super) struct ChannelIds<'a> {
    words: &'a [usize],
    before: Vec<u32>,
}

impl<'a> ChannelIds<'a> {
    pub(super) fn new(used: &'a FixedBitSet) -> Self {
        let words = used.as_slice();
        let mut n = 0u32;
        let before = words
            .iter()
            .map(|w| {
                let b = n;
                n += w.count_ones();
                b
            })
            .collect();
        ChannelIds { words, before }
    }

    /// The id of used key `k`.
    #[inline]
    pub(super) fn get(&self, k: u32) -> u32 {
        let (w, bit) = (k as usize / usize::BITS as usize, k % usize::BITS);
        let below = self.words[w] & ((1usize << bit) - 1);
        self.before[w] + below.count_ones()
    }
}

/// Sorts each adjacency row and drops repeated edges, compacting the rows.
pub(super) fn sort_dedup_rows(start: Vec<u32>, mut adj: Vec<u32>) -> (Vec<u32>, Vec<u32>) {
    let mut out_start = Vec::with_capacity(start.len());
    out_start.push(0u32);
    let mut w = 0usize;
    for r in start.windows(2) {
        let row = &mut adj[r[0] as usize..r[1] as usize];
        row.sort_unstable();
        let mut last = None;
        for i in r[0] as usize..r[1] as usize {
            let v = adj[i];
            if last != Some(v) {
                adj[w] = v;
                w += 1;
                last = Some(v);
            }
        }
        out_start.push(w as u32);
    }
    adj.truncate(w);
    (out_start, adj)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A used key's id is its place among the used keys, across word
    /// boundaries, whatever the gaps.
    #[test]
    fn ids_count_the_used_keys_below() {
        let mut used = FixedBitSet::with_capacity(1000);
        for k in [0, 1, 63, 64, 65, 127, 128, 500, 511, 512, 999] {
            used.insert(k);
        }
        used.extend((700..780).step_by(3));
        let ids = ChannelIds::new(&used);
        for (place, k) in used.ones().enumerate() {
            assert_eq!(ids.get(k as u32), place as u32, "key {k}");
        }
    }
}
