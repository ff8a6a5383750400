//! The fast path of the per-destination pass (`walk/fast.rs`) against the
//! exact pass alone: the whole verdict — findings, counts, statistics,
//! CDG size and credit loops — must be the same for any tables. Tables
//! here are mostly shortest paths (clean destinations, the fast path's
//! case) with random damage: other ports (loops, detours, down-up turns),
//! holes, port 0, ports beyond the switch, so that every destination kind
//! is hit, with and without up/down ranks, `all_paths` and tight hop limits.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{VerifyOptions, verify_with};
use crate::model::{Fabric, Lfts, LidMap, NO_ROUTE};

/// `n` switches in a ring (port 3 → next, 4 → previous), chords on port 5
/// between switch `i` and `i + n/2` for even `i`, hosts on ports 1–2 of
/// every switch but the last (a switch without end ports).
pub(super) fn ring(n: usize) -> Fabric {
    crate::verify::test_ring::ring(n, |i| i % 2 == 0 && i < n / 2, |i| i + 1 < n)
}

/// Shortest ring paths (next or previous switch, whichever is nearer),
/// then `damage` of the entries replaced at random.
pub(super) fn tables(f: &Fabric, lids: &LidMap, damage: f64, rng: &mut ChaCha8Rng) -> Lfts {
    let n = f.num_switches();
    let mut t = Lfts::new(n, lids.max_lid());
    for (lid, o) in lids.iter() {
        let (home, port) = crate::verify::test_ring::home(f, o);
        for s in 0..n {
            let ahead = (home + n - s) % n;
            let mut p = match ahead {
                0 => port,
                a if a <= n / 2 => 3,
                _ => 4,
            };
            if rng.random_bool(damage) {
                p = match rng.random_range(0..8u8) {
                    0 => NO_ROUTE,
                    1 => 0,
                    2 => 7,
                    r => r - 2,
                };
            }
            t.set(s, lid, p);
        }
    }
    t
}

#[test]
fn fast_path_gives_the_exact_verdict() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    // cases where every destination is clean (all on the fast path), and
    // cases with dead ends, loops or long routes (both paths)
    let (mut all_fast, mut mixed) = (0, 0);
    for case in 0..60 {
        let f = ring([6, 8, 9, 12][case % 4]);
        let lids = LidMap::new(&f).unwrap();
        let damage = [0.0, 0.002, 0.01, 0.05][case / 4 % 4];
        let t = tables(&f, &lids, damage, &mut rng);
        let n = f.num_switches() as u32;
        let opts = VerifyOptions {
            // ranks by distance from switch 0: shortest ring paths break
            // up/down on the far side, damage elsewhere
            up_down_ranks: (case % 2 == 0).then(|| (0..n).map(|s| s.min(n - s) / 2).collect()),
            all_paths: case % 3 == 0,
            hop_limit: [64, 3, 2][case % 5 % 3],
            max_findings_per_code: 3,
            ..VerifyOptions::default()
        };
        let exact = verify_with(&f, &lids, &t, &opts, false);
        let fast = verify_with(&f, &lids, &t, &opts, true);
        assert_eq!(fast, exact, "case {case}: damage {damage}, {opts:?}");
        let routes_fail = ["V001", "V002", "V003", "V004"]
            .iter()
            .any(|c| exact.counts.contains_key(*c));
        if routes_fail {
            mixed += 1
        } else {
            all_fast += 1
        }
    }
    assert!(
        all_fast >= 10 && mixed >= 10,
        "{all_fast} clean, {mixed} mixed"
    );
}
