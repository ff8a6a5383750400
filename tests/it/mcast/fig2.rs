//! The paper's Figure 2 as the paper draws it: with one MLID the four
//! groups share a colour, three trees and one merged pair; without the
//! limit, two colours and no merge; the tables and colours pinned by
//! snapshots.

use super::{colours, fig2_groups, figure2, findings, mcfdbs, run};

#[test]
fn figure2_one_colour_three_trees_one_merged_pair() {
    let f = figure2();
    let groups = fig2_groups(&f);
    let r = run(&f, &groups, 1, false);
    let s = routec::mcast::summary(&r);
    // All four groups on colour 0 (MLID 0xC000): the trees of 1), 2) and
    // 3) share no switch; 4) needs sw0, sw3, sw4 like 3) and is merged.
    assert_eq!(
        (0..4).map(|g| r.mlid(g)).collect::<Vec<_>>(),
        vec![0xC000; 4]
    );
    assert_eq!((s.colours_used, s.trees, s.merges, s.max_tfi), (1, 3, 1, 2));
    assert_eq!(r.group_tree[2], r.group_tree[3]);
    let merged = &r.state.trees[r.group_tree[3] as usize];
    let mut sws: Vec<u32> = merged.nodes.iter().map(|n| n.sw.0).collect();
    sws.sort();
    assert_eq!(sws, vec![0, 3, 4], "E,F,G,H tree = sw0, sw3, sw4");
    assert_eq!(
        r.state.trees[r.group_tree[0] as usize].nodes.len(),
        1,
        "A,B tree = sw1 alone"
    );
    assert!(findings(&f, &groups, &r).is_empty());
    // Strategy 1 (rebuild) gives the same tree here.
    assert_eq!(mcfdbs(&f, &run(&f, &groups, 1, true)), mcfdbs(&f, &r));
}

#[test]
fn figure2_without_limit_uses_two_colours_and_no_merge() {
    let f = figure2();
    let groups = fig2_groups(&f);
    let r = run(&f, &groups, 16383, false);
    let s = routec::mcast::summary(&r);
    assert_eq!((s.colours_used, s.merges, s.max_tfi), (2, 0, 1));
    assert_eq!(
        (0..4).map(|g| r.mlid(g)).collect::<Vec<_>>(),
        vec![0xC000, 0xC000, 0xC000, 0xC001]
    );
    assert!(findings(&f, &groups, &r).is_empty());
}

#[test]
fn figure2_snapshots() {
    let f = figure2();
    let groups = fig2_groups(&f);
    let r = run(&f, &groups, 1, false);
    insta::assert_snapshot!("fig2_mcfdbs", mcfdbs(&f, &r));
    insta::assert_snapshot!("fig2_colours", colours(&f, &groups, &r));
}
