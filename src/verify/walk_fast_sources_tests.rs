//! The fast path's sources-only parts (`walk::Acc::load_part`): on a fat
//! tree whose CA LIDs fill whole parts, those parts are loaded for the
//! leaves only, and the walks load the spine entries they step on
//! (`walk/fast/walker.rs`). Whatever the damage, ranks and hop limit, the
//! verdict must be the exact pass's; the counts prove the shortcut taken
//! and, on clean tables, every destination proven by the fast path.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::cdg_census_tests::{fat_tree, tables};
use super::{VerifyOptions, verify_counted};
use crate::model::lids::lid_ports;
use crate::model::{Fabric, Lid, LidMap, NodeKind};

/// The fabric's LIDs given again, OpenSM-like, with switch LIDs strewn
/// among the CA LIDs: after every 8 CA ports one switch, until 10 have
/// their LID, then the other switches (LIDs 91–136). The parts of LIDs
/// 0–31 and 32–63 then hold 3 and 4 switch LIDs (loaded for the sources
/// only), that of 64–95 holds 8 (loaded whole).
fn strew_switch_lids(f: &mut Fabric) {
    let ports: Vec<_> = lid_ports(f).collect();
    let (sw, ca): (Vec<_>, Vec<_>) = ports
        .into_iter()
        .partition(|&(n, _)| f.node(n).kind == NodeKind::Switch);
    let mut order = Vec::new();
    let mut sw = sw.into_iter();
    for (i, chunk) in ca.chunks(8).enumerate() {
        order.extend_from_slice(chunk);
        if i < 10 {
            order.extend(sw.next());
        }
    }
    order.extend(sw);
    for (i, (n, p)) in order.into_iter().enumerate() {
        f.set_lid(n, p, i as Lid + 1, 0);
    }
}

#[test]
fn sources_only_parts_give_the_exact_verdict() {
    for strewn in [false, true] {
        sources_only_case(strewn);
    }
}

fn sources_only_case(strewn: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(3434);
    // 56 switch LIDs (1–56), then 80 CA LIDs: the parts of LIDs 64–95 and
    // 96–127 hold CA LIDs only (and 128–159 CA LIDs and nobody's); with 16
    // spines a lane's route crosses the same spine in every part, so a
    // slot loaded in one part and not reset would be read in the next
    let (l, sp) = (40, 16);
    let mut f = fat_tree(l, sp);
    if strewn {
        strew_switch_lids(&mut f);
    }
    let lids = LidMap::new(&f).unwrap();
    assert_eq!(lids.max_lid(), 136);
    let mut with_findings = 0;
    for case in 0..24 {
        let damage = [0.0, 0.002, 0.01, 0.05][case % 4];
        let t = tables(&f, &lids, l, damage, &mut rng);
        let ranks = (case / 4 % 2 == 0).then(|| (0..l + sp).map(|s| u32::from(s < l)).collect());
        let opts = VerifyOptions {
            up_down_ranks: ranks,
            hop_limit: [64, 1][case / 8 % 2],
            max_findings_per_code: 3,
            ..VerifyOptions::default()
        };
        let (exact, _) = verify_counted(&f, &lids, &t, &opts, false);
        let (fast, taken) = verify_counted(&f, &lids, &t, &opts, true);
        assert_eq!(
            fast, exact,
            "strewn {strewn}, case {case}: damage {damage}, {opts:?}"
        );
        let parts = if strewn { 2 } else { 3 };
        assert_eq!(taken.source_parts, parts, "strewn {strewn}, case {case}");
        if damage == 0.0 && opts.hop_limit > 1 {
            assert_eq!(taken.fast_lids, 136, "strewn {strewn}, case {case}");
        }
        with_findings += usize::from(!exact.findings.is_empty());
    }
    assert!(with_findings >= 8, "{with_findings} cases with findings");
}
