//! Aggregation nodes on small PGFTs: a spine's reached through a leaf,
//! worked by hand on one VL, and spines and cores of a pod escaping on a
//! second lane (SLs against the oracle, check, shift load, ibdmchk).

use std::path::Path;

use crate::common::{lfts_for, routec, subnet_lst};

use super::oracle::sls_follow_up_down;
use super::{ROOT, compile, generate, ibdmchk_loops, tmp};

/// PGFT(2; 2,2; 1,2) with an aggregation node on each of its four
/// switches (LIDs: switches 1–4, hosts 5–8, aggregation nodes 9–12).
/// Spine L2S0000 has no up–down path to spine L2S0001. Its escape length
/// to it is 2 through either leaf; the candidates are its two down groups
/// (L1S0000, L1S0001 by GUID); the destination index of L2S0001's LIDs is
/// d = N + t = 4 + 3 = 7 and Π of a spine is 2, so ⌊7/2⌋ mod 2 = 1: the
/// second group, port 2 (L1S0001), which goes up its port 4. Symmetrically
/// L2S0001 reaches L2S0000 (d = 6, ⌊6/2⌋ mod 2 = 1) through L1S0001,
/// which goes up its port 3. The whole routing closes no cycle, so one VL
/// carries it and no SL file is written.
#[test]
fn a_spines_aggregation_node_is_reached_through_a_leaf_by_hand() {
    let dir = tmp("tiny");
    let topo = generate(&dir, "--h 2 --m 2,2 --w 1,2 --aggregation-nodes");
    let (code, err) = compile(&topo, &dir.join("out"), "1");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("note[D005]") && err.contains("1 VL(s) in all"),
        "{err}"
    );
    assert!(!dir.join("out/ibdmchk.psl").exists());
    let out = dir.join("out");
    let (f, lids) = subnet_lst(&out.join("opensm-subnet.lst"));
    let lfts = lfts_for(&f, &lids, &out.join("opensm-lfts.dump"));
    let row = |desc: &str| {
        let s = f
            .switches()
            .iter()
            .position(|&n| f.node(n).desc == desc)
            .unwrap();
        (1..=12).map(|l| lfts.get(s, l)).collect::<Vec<u8>>()
    };
    //                    LID:  1  2  3  4  5  6  7  8  9 10 11 12
    assert_eq!(row("L2S0000"), [1, 2, 0, 2, 1, 1, 2, 2, 1, 2, 3, 2]);
    assert_eq!(row("L2S0001"), [1, 2, 2, 0, 1, 1, 2, 2, 1, 2, 2, 3]);
    assert_eq!(row("L1S0001")[2], 3);
    assert_eq!(row("L1S0001")[3], 4);

    // Compute hosts keep Dmodc's routes: the same PGFT without
    // aggregation nodes has the same LIDs 1–8 and the same entries there.
    let plain = tmp("tiny_plain");
    let topo = generate(&plain, "--h 2 --m 2,2 --w 1,2");
    assert_eq!(compile(&topo, &plain.join("out"), "1").0, 0);
    let (pf, pl) = subnet_lst(&plain.join("out/opensm-subnet.lst"));
    let plfts = lfts_for(&pf, &pl, &plain.join("out/opensm-lfts.dump"));
    for s in 0..f.num_switches() {
        for lid in 5..=8 {
            assert_eq!(lfts.get(s, lid), plfts.get(s, lid), "switch {s} LID {lid}");
        }
    }
}

/// PGFT(3; 2,2,2; 1,2,2) with aggregation nodes: spines and cores of one
/// pod (or plane) reach each other only through a valley. One VL would
/// hold a credit loop, so `--vls 1` refuses naming the pairs and the
/// `--vls` that routes them; `--vls 2` puts exactly the pairs without an
/// up–down path on SL 1, routec's check and ibdmchk find no credit loop,
/// and the compute hosts' shift load is still 1.
#[test]
fn aggregation_nodes_escape_on_a_second_lane() {
    let dir = tmp("agg");
    let topo = generate(&dir, "--h 3 --m 2,2,2 --w 1,2,2 --aggregation-nodes");
    let (code, err) = compile(&topo, &dir.join("one"), "1");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("have no up-down path") && err.contains("--vls 2 routes them"),
        "{err}"
    );
    assert!(!dir.join("one").exists());

    let out = dir.join("two");
    let (code, err) = compile(&topo, &out, "2");
    assert_eq!(code, 0, "{err}");
    let (on0, escaped) = sls_follow_up_down(&out, true);
    assert_eq!((on0, escaped), (344, 36));
    let (code, text) = routec(
        &["check", &topo, "--lfts", out.to_str().unwrap()],
        Path::new(ROOT),
    );
    assert_eq!(code, 0, "{text}");
    let (_, shift) = routec(
        &[
            "report",
            &topo,
            "--lfts",
            out.to_str().unwrap(),
            "--pattern",
            "shift",
        ],
        Path::new(ROOT),
    );
    assert!(shift.contains("max 1 (mean 1.000)"), "{shift}");
    if let Some(loops) = ibdmchk_loops(&out, None) {
        assert!(loops, "one VL: ibdmchk sees the valley paths' loop");
        assert_eq!(ibdmchk_loops(&out, Some("ibdmchk.psl")), Some(false));
    }
}
