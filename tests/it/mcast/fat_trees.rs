//! Generated groups on small PGFTs: the grid and random patterns, output
//! independent of the thread count, fewer colours and no worse links than
//! OpenSM's one MLID per group, and random groups that verify clean.

use proptest::prelude::*;
use routec::generate::mcast_pattern::{Pattern, generate};

use super::{colours, findings, mcfdbs, pgft, run};

#[test]
fn grid_patterns_count_and_map_processes_in_node_order() {
    let f = pgft(&[4, 4], &[1, 4]);
    let g2 = generate(&f, Pattern::Grid2d, &[4, 4], 1, 0).unwrap();
    assert_eq!(g2.len(), 8);
    // Row 0 = processes 0..3 = the four hosts of the first leaf.
    assert!(
        g2[0]
            .members
            .iter()
            .all(|m| m.leaf == g2[0].members[0].leaf)
    );
    let g3 = generate(&f, Pattern::Grid3d, &[2, 2, 4], 1, 0).unwrap();
    assert_eq!(g3.len(), 2 * 4 + 2 * 4 + 2 * 2);
    let two = generate(&f, Pattern::Grid2d, &[8, 4], 2, 0).unwrap();
    assert_eq!(two[0].members.len(), 4, "8 processes on 4 nodes");
    assert!(generate(&f, Pattern::Grid2d, &[8, 4], 1, 0).is_err());
    let r = generate(&f, Pattern::Random, &[5, 3], 1, 7).unwrap();
    assert_eq!(r, generate(&f, Pattern::Random, &[5, 3], 1, 7).unwrap());
    assert!(r.iter().all(|g| g.members.len() == 3));
}

#[test]
fn output_is_the_same_whatever_the_thread_count() {
    let f = pgft(&[4, 4, 4], &[1, 4, 4]);
    let groups = generate(&f, Pattern::Random, &[60, 6], 1, 3).unwrap();
    let go = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let r = run(&f, &groups, 4, false);
            (mcfdbs(&f, &r), colours(&f, &groups, &r))
        })
    };
    assert_eq!(go(1), go(2));
}

#[test]
fn fat_tree_grid_uses_few_colours_and_balances_links() {
    // 64 hosts, 8x8 grid: 16 groups.
    let f = pgft(&[4, 4, 4], &[1, 4, 4]);
    let groups = generate(&f, Pattern::Grid2d, &[8, 8], 1, 0).unwrap();
    let r = run(&f, &groups, 16383, false);
    let s = routec::mcast::summary(&r);
    assert_eq!(s.merges, 0);
    assert!(s.colours_used < groups.len(), "{s:?}");
    let graph = routec::mcast::SwitchGraph::new(&f);
    let base = routec::mcast::opensm_baseline(&f, &graph, &groups);
    assert_eq!(base.colours_used, 16);
    assert!(s.max_efi <= base.max_efi, "{s:?} vs {base:?}");
    assert!(findings(&f, &groups, &r).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn random_groups_on_small_fat_trees_verify_clean(
        seed in 0u64..1000, n in 1usize..40, size in 1usize..12, mft in 1u32..6, rebuild: bool, three: bool,
    ) {
        let f = if three { pgft(&[2, 4, 4], &[1, 2, 4]) } else { pgft(&[4, 6], &[1, 3]) };
        let groups = generate(&f, Pattern::Random, &[n, size], 1, seed).unwrap();
        let r = run(&f, &groups, mft, rebuild);
        let s = routec::mcast::summary(&r);
        prop_assert!(s.max_colours_per_switch <= mft);
        prop_assert_eq!(findings(&f, &groups, &r), vec![]);
    }
}
