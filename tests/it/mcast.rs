//! MR4LMS multicast: the paper's Figure 2, verification of random groups on
//! small fat-trees, file formats, snapshots and determinism.

use proptest::prelude::*;
use routec::emit::mcast::write_colours;
use routec::generate::mcast_pattern::{Pattern, generate};
use routec::generate::pgft::PgftSpec;
use routec::mcast::{McastConfig, McastResult, assign, group_colours};
use routec::model::{
    Fabric, FabricBuilder, Guid, McastGroup, Member, Mfts, NodeIdx, NodeKind, NodeSpec,
};
use routec::parse::mcast_colours::parse_colours;
use routec::parse::mcast_groups::parse_groups;
use routec::verify::mcast::verify_mfts;
use routec::verify::{Code, Finding};

/// seed:mr4lms Figure 2: sw0 above sw1..sw4; A,B on sw1, C,D on sw2,
/// E,F on sw3, G,H on sw4. Switch GUIDs 0x100+i, host port GUIDs 0x20+i.
fn figure2() -> Fabric {
    let mut b = FabricBuilder::new();
    let sw: Vec<NodeIdx> = (0..5)
        .map(|i| {
            b.add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(0x100 + i),
                4,
                format!("sw{i}"),
            ))
            .unwrap()
        })
        .collect();
    for i in 1..5 {
        b.connect(sw[0], i as u8, sw[i], 1).unwrap();
    }
    for h in 0..8u64 {
        let n = b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(0x10 + h),
                1,
                format!("{}", (b'A' + h as u8) as char),
            ))
            .unwrap();
        b.port_mut(n, 1).unwrap().guid = Guid(0x20 + h);
        b.connect(n, 1, sw[1 + h as usize / 2], 2 + (h % 2) as u8)
            .unwrap();
    }
    b.build()
}

/// PGFT(h; m; w; 1..1) as the OpenSM harness numbers it.
fn pgft(m: &[u32], w: &[u32]) -> Fabric {
    routec::generate::pgft::pgft(&PgftSpec::new(m.len(), m, w, None)).unwrap()
}

fn run(fabric: &Fabric, groups: &[McastGroup], mft_size: u32, rebuild: bool) -> McastResult {
    assign(
        fabric,
        groups,
        McastConfig {
            mft_size,
            rebuild_merged: rebuild,
        },
    )
    .unwrap()
}

fn findings(fabric: &Fabric, groups: &[McastGroup], r: &McastResult) -> Vec<Finding> {
    let mfts = routec::mcast::mfts(fabric, r);
    verify_mfts(fabric, &mfts, groups, &group_colours(groups, r)).findings
}

fn fig2_groups(f: &Fabric) -> Vec<McastGroup> {
    parse_groups(
        "fig2.groups",
        include_str!("../../fixtures/mcast/fig2.groups"),
        f,
    )
    .unwrap()
}

fn mcfdbs(f: &Fabric, r: &McastResult) -> String {
    let mut out = Vec::new();
    routec::emit::mcfdbs::write_mcfdbs(f, &routec::mcast::mfts(f, r), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn colours(f: &Fabric, g: &[McastGroup], r: &McastResult) -> String {
    let mut out = Vec::new();
    write_colours(&routec::mcast::colour_lines(f, g, r), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

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

#[test]
fn mcfdbs_and_colours_read_back_and_verify() {
    let f = figure2();
    let groups = fig2_groups(&f);
    let r = run(&f, &groups, 1, false);
    let text = mcfdbs(&f, &r);
    let mfts = routec::parse::mcfdbs::parse_mcfdbs("x.mcfdbs", &text, &f).unwrap();
    assert_eq!(mfts, routec::mcast::mfts(&f, &r));
    let cols = parse_colours("c.txt", &colours(&f, &groups, &r)).unwrap();
    assert!(verify_mfts(&f, &mfts, &groups, &cols).findings.is_empty());
    // Declaring the merged pair as two trees is caught.
    let mut split = cols.clone();
    split[3].tree += 100;
    let found = verify_mfts(&f, &mfts, &groups, &split).findings;
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].code, Code::V036);
}

#[test]
fn broken_tables_are_reported() {
    let f = figure2();
    let groups = fig2_groups(&f);
    let r = run(&f, &groups, 1, false);
    let cols = group_colours(&groups, &r);
    let good = routec::mcast::mfts(&f, &r);
    let sw = routec::model::SwIdx;
    // Drop sw4's entry: G and H get nothing; sw0's port 4 leads out of the tree.
    let mut m = Mfts::new(5);
    for s in 0..4 {
        for (mlid, mask) in good.rows(sw(s)) {
            m.insert(sw(s), *mlid, *mask);
        }
    }
    let found = verify_mfts(&f, &m, &groups, &cols).findings;
    assert!(found.iter().any(|x| x.code == Code::V031), "{found:?}");
    assert!(
        found
            .iter()
            .any(|x| x.code == Code::V034 && x.hops[0].out_port == 4),
        "{found:?}"
    );
    // sw1 (A,B) also forwards up to sw0, and sw0 back down: the A,B tree
    // and the E..H tree now meet on sw0 and A,B's packets reach E..H.
    let mut m = good.clone();
    let mut up = *m.get(sw(1), 0xC000).unwrap();
    up.set(1);
    m.insert(sw(1), 0xC000, up);
    let mut top = *m.get(sw(0), 0xC000).unwrap();
    top.set(1);
    m.insert(sw(0), 0xC000, top);
    let found = verify_mfts(&f, &m, &groups, &cols).findings;
    assert!(found.iter().any(|x| x.code == Code::V036), "{found:?}");
    // A parallel second path would duplicate packets: a loop.
    let mut m = good.clone();
    let mut leaf = *m.get(sw(2), 0xC000).unwrap();
    leaf.set(1);
    m.insert(sw(2), 0xC000, leaf);
    let mut top = *m.get(sw(0), 0xC000).unwrap();
    top.set(2);
    m.insert(sw(0), 0xC000, top);
    let mut other = *m.get(sw(1), 0xC000).unwrap();
    other.set(1);
    m.insert(sw(1), 0xC000, other);
    top.set(1);
    m.insert(sw(0), 0xC000, top);
    let found = verify_mfts(&f, &m, &groups, &cols).findings;
    assert!(!found.is_empty());
}

#[test]
fn groups_files_text_yaml_and_sa_dump() {
    let f = figure2();
    let text = fig2_groups(&f);
    let yaml = parse_groups(
        "fig2.yaml",
        include_str!("../../fixtures/mcast/fig2.yaml"),
        &f,
    )
    .unwrap();
    assert_eq!(text, yaml);
    assert_eq!(text[3].mlid, Some(0xC004));
    let sa = parse_groups("sa", include_str!("../../fixtures/mcast/fig2-sa.dump"), &f).unwrap();
    assert_eq!(sa.len(), 2);
    assert_eq!(sa[0].name, "ff12:401b:ffff:0000:0000:0000:0000:0001");
    assert_eq!(
        (sa[0].mlid, sa[0].members.len(), sa[1].members.len()),
        (Some(0xC000), 2, 1)
    );
    let m: Member = sa[1].members[0];
    assert_eq!(m.guid(&f), Guid(0x22));
}

#[test]
fn groups_file_errors_name_line_and_column() {
    let f = figure2();
    let e = parse_groups(
        "bad.groups",
        include_str!("../../fixtures/mcast/bad-unknown.groups"),
        &f,
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.starts_with("bad.groups:3:23: expected a port GUID of the topology"),
        "{msg}"
    );
    for (text, want) in [
        ("g1\n", "bad:1:3: expected at least one member"),
        (
            "g1 0x20\ng1 0x21\n",
            "bad:2:1: expected a group name not used before",
        ),
        ("g1 mlid=0xB000 0x20\n", "bad:1:4: expected mlid="),
        ("g1 0xzz\n", "bad:1:4: expected a port GUID"),
        ("groups:\n  - name: g\n    members: [\"0x99\"]\n", "bad:3:"),
    ] {
        let msg = parse_groups("bad", text, &f).unwrap_err().to_string();
        assert!(msg.starts_with(want), "{text:?}: {msg}");
    }
}

#[test]
fn formats_docs_examples_parse() {
    let f = figure2();
    for doc in [
        "formats/mcast-groups.md",
        "formats/mcast-colors.md",
        "formats/mcfdbs.md",
    ] {
        let text = std::fs::read_to_string(doc).unwrap();
        let block = text
            .split("```text\n")
            .nth(1)
            .unwrap()
            .split("```")
            .next()
            .unwrap();
        match doc {
            "formats/mcast-groups.md" => assert_eq!(parse_groups(doc, block, &f).unwrap().len(), 4),
            "formats/mcast-colors.md" => assert_eq!(parse_colours(doc, block).unwrap().len(), 4),
            _ => assert!(
                routec::parse::mcfdbs::parse_mcfdbs(doc, block, &f)
                    .unwrap()
                    .num_entries()
                    > 0
            ),
        }
    }
}

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
