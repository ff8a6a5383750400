//! The fast path (`walk/fast.rs`) against the exact pass on the shape of
//! Dmodc's escape plans (issue 13): nearly every (source switch, LID) path
//! on SL 0, a handful on escape SLs 1–2, so most destinations take the
//! one-SL way and a few the several-SL one, mixed in one 64-LID block with
//! damaged destinations the fast path starts and then gives up (a walk
//! that fails after other sources were counted and in-tree marks set: what
//! it gathered must not leak into the next destination). The whole verdict
//! must be the same; the tally below proves each kind of case occurred.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::walk_fast_tests::{ring, tables};
use super::{VerifyOptions, verify_with};
use crate::model::{LidMap, PathSl, VlPlan};

#[test]
fn fast_path_on_escape_plans_gives_the_exact_verdict() {
    let mut rng = ChaCha8Rng::seed_from_u64(1313);
    // SL i on VL i, or both escape SLs on VL 1
    let maps: [[u8; 16]; 2] = [
        std::array::from_fn(|sl| sl as u8),
        std::array::from_fn(|sl| sl.min(1) as u8),
    ];
    let (mut clean, mut escape_loops, mut broken) = (0, 0, 0);
    for case in 0..48 {
        let f = ring([9, 12, 30][case % 3]);
        let lids = LidMap::new(&f).unwrap();
        let damage = [0.0, 0.003, 0.02][case / 3 % 3];
        let t = tables(&f, &lids, damage, &mut rng);
        let n = f.num_switches() as u32;
        let mut psl = PathSl::zeros(&t);
        for (lid, _) in lids.iter() {
            for s in 0..f.num_switches() {
                if rng.random_bool(0.06) {
                    psl.set(s, lid, rng.random_range(1..3u8));
                }
            }
        }
        let opts = VerifyOptions {
            up_down_ranks: (case % 2 == 0).then(|| (0..n).map(|s| s.min(n - s) / 2).collect()),
            vl_plan: Some(VlPlan::uniform(psl, maps[case / 9 % 2], 3)),
            all_paths: case % 5 == 2,
            hop_limit: [64, 64, 4][case % 3],
            max_findings_per_code: 4,
            ..VerifyOptions::default()
        };
        let exact = verify_with(&f, &lids, &t, &opts, false);
        let fast = verify_with(&f, &lids, &t, &opts, true);
        assert_eq!(fast, exact, "case {case}: damage {damage}");
        let has = |c: &str| exact.counts.contains_key(c);
        if ["V001", "V002", "V003", "V004"].iter().any(|c| has(c)) {
            broken += 1;
        } else {
            clean += 1;
        }
        // shortest ring paths close a loop on each VL carrying both ways
        if has("V020") && exact.stats.vls_used > 1 {
            escape_loops += 1;
        }
    }
    assert!(
        clean >= 8 && broken >= 8 && escape_loops >= 8,
        "{clean} clean, {broken} broken, {escape_loops} with credit loops on several VLs"
    );
}
