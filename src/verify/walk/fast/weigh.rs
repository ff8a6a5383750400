//! The hop counts of one destination's sources, weighed by their end
//! ports, once its walk has proved every route clean.
//!
//! Why two ways: one source at a time, the add waits on a branch per
//! source (does its depth continue the current run?) that mispredicts at
//! every pod; a fifth of the fast path's time on the 11,664-host minhop
//! tables (issue 17). Where the sources lie in a few runs of consecutive
//! switches (the leaves of a generated or a cabled fat tree) a pass per
//! hop count present sums each run's weights at that depth in vector
//! lanes, with no branch per source; a destination whose sources span
//! more than [`MAX_PASSES`] depths, or sources strewn over many runs,
//! keep the per-source way.

use super::FastScratch;

/// Depths summed a pass each before the per-source way is cheaper: a
/// pass costs about an eighth of a per-source loop.
const MAX_PASSES: u8 = 8;

/// Runs `(first, end)` of consecutive switch indices in `sources`.
pub(super) fn runs_of(sources: &[u32]) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &s in sources {
        match runs.last_mut() {
            Some(r) if r.1 == s => r.1 += 1,
            _ => runs.push((s, s + 1)),
        }
    }
    runs
}

/// Whether `runs` of `sources` are few enough for [`FastScratch::weigh_runs`].
pub(super) fn few_runs(runs: &[(u32, u32)], sources: usize) -> bool {
    runs.len() * 8 <= sources
}

impl FastScratch {
    /// Adds each source's `weight` at its depth to `hist` (after a clean
    /// walk, every source with weight has one); the deepest such depth,
    /// `None` when no source has weight.
    pub(super) fn weigh(&mut self, sources: &[u32], weight: impl Fn(usize) -> u32) -> Option<u8> {
        let mut maxd: Option<u8> = None;
        // weight of the current run of sources at one depth, added to
        // `hist` when the depth changes: consecutive adds to one slot
        // would wait on each other (sources of a pod share their depth)
        let (mut run_d, mut run_w) = (0u8, 0u64);
        for &s in sources {
            let w = u64::from(weight(s as usize));
            if w == 0 {
                continue;
            }
            let d = self.depth[s as usize];
            if d == run_d {
                run_w += w;
            } else {
                if run_w > 0 {
                    self.hist[usize::from(run_d)] += run_w;
                    maxd = maxd.max(Some(run_d));
                }
                (run_d, run_w) = (d, w);
            }
        }
        if run_w > 0 {
            self.hist[usize::from(run_d)] += run_w;
            maxd = maxd.max(Some(run_d));
        }
        maxd
    }

    /// [`FastScratch::weigh`] for sources that are `runs` of switches,
    /// each weighing `weights[s]` (at least 1) but the target, at depth 0,
    /// which weighs `t_weight`. `None`, with nothing added, when the
    /// sources span more than [`MAX_PASSES`] depths.
    pub(super) fn weigh_runs(
        &mut self,
        runs: &[(u32, u32)],
        weights: &[u32],
        t_weight: u32,
    ) -> Option<Option<u8>> {
        let span = |&(a, b): &(u32, u32)| a as usize..b as usize;
        // the shallowest depth but the target's (0 wraps to the top) and
        // the deepest, as byte minima and maxima over the runs
        let (mut lo, mut hi) = (u8::MAX, 0u8);
        for r in runs {
            let ds = &self.depth[span(r)];
            lo = ds.iter().fold(lo, |m, &d| m.min(d.wrapping_sub(1)));
            hi = ds.iter().fold(hi, |m, &d| m.max(d));
        }
        if hi > 0 && hi - lo > MAX_PASSES {
            return None;
        }
        self.hist[0] += u64::from(t_weight);
        if hi == 0 {
            return Some((t_weight > 0).then_some(0));
        }
        for d in lo + 1..=hi {
            let mut sum = 0u64;
            for r in runs {
                let (ds, ws) = (&self.depth[span(r)], &weights[span(r)]);
                // no branch: a select and an add per lane (u32: a switch
                // weighs at most 65, runs are at most 2^19 switches)
                let at_d: u32 = ds
                    .iter()
                    .zip(ws)
                    .map(|(&x, &w)| if x == d { w } else { 0 })
                    .sum();
                sum += u64::from(at_d);
            }
            self.hist[usize::from(d)] += sum;
        }
        Some(Some(hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways give the same histogram and deepest depth, for runs of
    /// every shape, depths up to the pass limit and beyond it, and a
    /// target that weighs nothing.
    #[test]
    fn runs_weigh_as_sources_one_by_one() {
        let n = 40usize;
        let weights: Vec<u32> = (0..n).map(|s| 1 + (s as u32 * 7) % 5).collect();
        let cases: [(&[(u32, u32)], u32); 4] = [
            (&[(0, 40)], 3),
            (&[(2, 9), (12, 13), (20, 31)], 5),
            (&[(0, 1)], 0),
            (&[(5, 6), (7, 40)], 20),
        ];
        for (runs, spread) in cases {
            for t in [0usize, 5, 7] {
                for t_weight in [0, 1, 4] {
                    let mut depth: Vec<u8> = (0..n)
                        .map(|s| 1 + ((s * 13) as u32 % spread.max(1)) as u8)
                        .collect();
                    depth[t] = 0;
                    let sources: Vec<u32> = runs.iter().flat_map(|&(a, b)| a..b).collect();
                    let weight = |s: usize| if s == t { t_weight } else { weights[s] };
                    let mut one = FastScratch {
                        depth: depth.clone(),
                        hist: vec![0; 256],
                        ..Default::default()
                    };
                    let mut by_runs = FastScratch {
                        depth,
                        hist: vec![0; 256],
                        ..Default::default()
                    };
                    let t_in = sources.contains(&(t as u32));
                    let want = one.weigh(&sources, weight);
                    let got = by_runs.weigh_runs(runs, &weights, if t_in { t_weight } else { 0 });
                    if spread > u32::from(MAX_PASSES) + 1 {
                        assert_eq!(got, None, "{runs:?}");
                        continue;
                    }
                    assert_eq!(got, Some(want), "{runs:?} t {t} weighs {t_weight}");
                    assert_eq!(one.hist, by_runs.hist, "{runs:?} t {t} weighs {t_weight}");
                }
            }
        }
        assert_eq!(runs_of(&[0, 1, 2, 5, 6, 9]), [(0, 3), (5, 7), (9, 10)]);
        assert!(runs_of(&[]).is_empty());
    }
}
