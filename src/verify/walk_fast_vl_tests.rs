//! The fast path with a VL plan (`walk/fast.rs`: path SLs, one SL2VL map
//! for every port) against the exact pass alone, as `walk_fast_tests.rs`
//! does without a plan: the whole verdict — findings, counts, statistics,
//! CDG size, VLs used and credit loops per VL — must be the same. Ring
//! tables with random damage, random path SLs per (source switch, LID)
//! (one SL per destination, several, and a second SL per pair), maps that
//! put two SLs on one VL, maps with a dropped SL (V021), and too few
//! operational VLs on some switches (V022). Shortest ring paths close a
//! credit loop on every VL that carries paths both ways round.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::walk_fast_tests::{ring, tables};
use super::{VerifyOptions, verify_with};
use crate::model::{Fabric, Lfts, LidMap, PathSl, VlPlan};

/// How the SLs of the paths toward each LID are spread.
#[derive(Clone, Copy, Debug)]
enum Spread {
    /// One SL per destination LID (its LID mod 3).
    PerLid,
    /// Any of SLs 0–3 per (source switch, LID).
    PerPair,
    /// Per pair, and a second SL on some pairs (`PathSl::add`).
    Several,
}

fn path_sls(f: &Fabric, lids: &LidMap, t: &Lfts, spread: Spread, rng: &mut ChaCha8Rng) -> PathSl {
    let mut p = PathSl::zeros(t);
    for (lid, _) in lids.iter() {
        for s in 0..f.num_switches() {
            let sl = match spread {
                Spread::PerLid => (lid % 3) as u8,
                _ => rng.random_range(0..4u8),
            };
            p.set(s, lid, sl);
            if matches!(spread, Spread::Several) && rng.random_bool(0.2) {
                p.add(s, lid, rng.random_range(0..4u8));
            }
        }
    }
    p
}

#[test]
fn fast_path_with_a_vl_plan_gives_the_exact_verdict() {
    let mut rng = ChaCha8Rng::seed_from_u64(1717);
    let maps: [[u8; 16]; 3] = [
        std::array::from_fn(|sl| sl as u8 % 4), // one VL per SL in use
        std::array::from_fn(|sl| sl as u8 % 2), // SLs 0 and 2 share VL 0
        std::array::from_fn(|sl| if sl == 3 { 15 } else { sl as u8 }), // SL 3 dropped
    ];
    let spreads = [Spread::PerLid, Spread::PerPair, Spread::Several];
    // `routes_clean`: no route or lane finding, so every destination is on
    // the fast path (credit loops are found later, on the CDG)
    let (mut routes_clean, mut loops, mut lanes, mut broken) = (0, 0, 0, 0);
    for case in 0..72 {
        // 30 switches: LIDs beyond one 64-LID block
        let f = ring([6, 8, 9, 12, 30][case % 5]);
        let lids = LidMap::new(&f).unwrap();
        let damage = [0.0, 0.0, 0.004, 0.03][case / 5 % 4];
        let t = tables(&f, &lids, damage, &mut rng);
        let n = f.num_switches() as u32;
        let spread = spreads[case % 3];
        let map = maps[case / 3 % 3];
        let psl = path_sls(&f, &lids, &t, spread, &mut rng);
        // some switches with fewer lanes than the plan uses
        let narrow = case % 4 == 1;
        let opts = VerifyOptions {
            up_down_ranks: (case % 2 == 0).then(|| (0..n).map(|s| s.min(n - s) / 2).collect()),
            vl_plan: Some(VlPlan::uniform(psl, map, 4)),
            all_paths: case % 7 == 3,
            hop_limit: [64, 64, 3][case % 3],
            max_findings_per_code: 3,
            switch_vls: narrow.then(|| (0..n).map(|s| if s % 3 == 0 { 2 } else { 8 }).collect()),
            ..VerifyOptions::default()
        };
        let exact = verify_with(&f, &lids, &t, &opts, false);
        let fast = verify_with(&f, &lids, &t, &opts, true);
        assert_eq!(
            fast, exact,
            "case {case}: {spread:?} {map:?} damage {damage}"
        );
        let has = |c: &str| exact.counts.contains_key(c);
        if ["V001", "V002", "V003", "V004", "V021", "V022"]
            .iter()
            .all(|c| !has(c))
        {
            routes_clean += 1;
        }
        if has("V020") && exact.stats.vls_used > 1 {
            loops += 1;
        }
        if has("V021") || has("V022") {
            lanes += 1;
        }
        if ["V001", "V002", "V003"].iter().any(|c| has(c)) {
            broken += 1;
        }
    }
    // every kind of verdict occurs: the comparison is not vacuous
    assert!(
        loops >= 10 && lanes >= 10 && broken >= 10 && routes_clean >= 10,
        "{loops} with credit loops over several VLs, {lanes} with lane findings, \
         {broken} with broken routes, {routes_clean} with clean routes"
    );
}
