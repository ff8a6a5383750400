//! The byte-wide counting kernel behind the candidate sets C_{s,t} of
//! formula (1) (seed `dmodc-fault-resiliency-in-fat-trees.txt` §3.4) and of
//! the escape hops (`formats/dmodc.md` §9): a group Ω of switch s hits
//! target t when v[Ω][t] + 1 = want[t] (v the neighbour's cost or escape
//! row), and a row needs, per target, how many groups hit and — where one
//! does — which.
//!
//! The route stage used to add one group at a time, reading and writing
//! both per-target accumulators once per group; here four groups share one
//! pass, so the accumulators move once per four groups (issue 17: the
//! counting was about a third of the route stage on the 27,648-host RLFT).
//! Hits are counted with wrapping byte adds (a switch has fewer than 255
//! groups), and the only hit is kept as the wrapping sum of the hitting
//! group indices: a sum does not depend on the order of its terms, so the
//! chunking changes no byte.

/// Adds the hits of groups `gis` (indices into the switch's groups, `row`
/// giving each one's neighbour row) over targets `0..want.len()` to
/// `count`, and their group indices to `first` (wrapping). `want` is 0
/// (no hit possible: `saturating_add` never gives 0) or a finite value.
pub(super) fn count_hits<'a>(
    gis: &[u8],
    row: impl Fn(u8) -> &'a [u8],
    want: &[u8],
    count: &mut [u8],
    first: &mut [u8],
) {
    let n = want.len();
    let (count, first) = (&mut count[..n], &mut first[..n]);
    let mut quads = gis.chunks_exact(4);
    for q in &mut quads {
        let rows = [row(q[0]), row(q[1]), row(q[2]), row(q[3])].map(|r| &r[..n]);
        hits4(rows, [q[0], q[1], q[2], q[3]], want, count, first);
    }
    for &gi in quads.remainder() {
        hits1(&row(gi)[..n], gi, want, count, first);
    }
}

/// One group: `0u8.wrapping_sub(hit)` is the all-ones mask of a hit.
fn hits1(v: &[u8], gi: u8, want: &[u8], count: &mut [u8], first: &mut [u8]) {
    let it = count
        .iter_mut()
        .zip(first.iter_mut())
        .zip(v.iter().zip(want));
    for ((cnt, only), (&o, &w)) in it {
        let hit = u8::from(o.saturating_add(1) == w);
        *cnt = cnt.wrapping_add(hit);
        *only = only.wrapping_add(gi & 0u8.wrapping_sub(hit));
    }
}

/// Four groups in one pass over the accumulators.
fn hits4(v: [&[u8]; 4], gi: [u8; 4], want: &[u8], count: &mut [u8], first: &mut [u8]) {
    let [a, b, c, d] = v;
    let rows = a.iter().zip(b).zip(c.iter().zip(d));
    let it = count
        .iter_mut()
        .zip(first.iter_mut())
        .zip(want.iter().zip(rows));
    for ((cnt, only), (&w, ((&oa, &ob), (&oc, &od)))) in it {
        let ha = u8::from(oa.saturating_add(1) == w);
        let hb = u8::from(ob.saturating_add(1) == w);
        let hc = u8::from(oc.saturating_add(1) == w);
        let hd = u8::from(od.saturating_add(1) == w);
        *cnt = cnt.wrapping_add(ha + hb + hc + hd);
        let sum = (gi[0] & 0u8.wrapping_sub(ha))
            .wrapping_add(gi[1] & 0u8.wrapping_sub(hb))
            .wrapping_add(gi[2] & 0u8.wrapping_sub(hc))
            .wrapping_add(gi[3] & 0u8.wrapping_sub(hd));
        *only = only.wrapping_add(sum);
    }
}

#[cfg(test)]
mod tests {
    use super::count_hits;

    /// Against the definition, one group and one target at a time, for
    /// group counts around the chunk size.
    #[test]
    fn counts_and_only_hit_are_the_definition() {
        let n = 37;
        // want is never ∞ (255): it is a finite cost or 0 (no candidate).
        let want: Vec<u8> = (0..n).map(|t| [0u8, 1, 2, 3, 4][t % 5]).collect();
        for groups in 0..11usize {
            // Neighbour rows of varied values, 255 (∞) included.
            let rows: Vec<Vec<u8>> = (0..groups)
                .map(|g| {
                    (0..n)
                        .map(|t| [0u8, 1, 2, 3, 255][(t * 7 + g * 3) % 5])
                        .collect()
                })
                .collect();
            let gis: Vec<u8> = (0..groups as u8).map(|g| g * 2 + 1).collect();
            let (mut count, mut first) = (vec![0u8; n], vec![0u8; n]);
            let row = |gi: u8| rows[(gi / 2) as usize].as_slice();
            count_hits(&gis, row, &want, &mut count, &mut first);
            for t in 0..n {
                let hits: Vec<u8> = gis
                    .iter()
                    .copied()
                    .filter(|&gi| {
                        let v = rows[(gi / 2) as usize][t];
                        v != 255 && want[t] != 0 && v + 1 == want[t]
                    })
                    .collect();
                assert_eq!(count[t] as usize, hits.len(), "{groups} groups, target {t}");
                if hits.len() == 1 {
                    assert_eq!(first[t], hits[0], "{groups} groups, target {t}");
                }
            }
        }
    }
}
