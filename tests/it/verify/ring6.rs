//! OpenSM's tables on the ring6 fixture and hand-broken copies: its two
//! topology files agree, the min-hop credit loop, up/down ranks, a routing
//! loop, an unreachable LID, and SLs and SL2VL moving the loop between VLs.

use crate::common;
use crate::fabric_eq;

use std::path::Path;

use routec::model::{PathSl, Sl2Vl, SwIdx, VlPlan};
use routec::verify::{Code, VerifyOptions, verify_tables};

use super::{fixture, roots_ranks};

/// ring6's two topology files (OpenSM's subnet list, which the ibdmchk
/// comparison needs, and ibnetdiscover's) describe the same cables and LIDs.
#[test]
fn ring6_subnet_lst_and_ibnetdiscover_agree() {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/verify/ring6");
    let (lst, _) = common::subnet_lst(&d.join("opensm-subnet.lst"));
    let opts = routec::parse::LoadOptions::default();
    let ibnd = routec::parse::load_topology(&d.join("ibnetdiscover.txt"), &opts)
        .unwrap()
        .fabric;
    assert_eq!(lst.num_nodes(), 18);
    fabric_eq::assert_same_wiring(&lst, &ibnd);
}

#[test]
fn ring6_minhop_has_a_credit_loop() {
    let (f, lids, t) = fixture("ring6", "minhop.lfts.dump");
    let v = verify_tables(&f, &lids, &t, &VerifyOptions::default());
    // one loop each way round the ring (ibdmchk stops at the first)
    assert_eq!(v.count(Code::V020), 2, "{}", v.render());
    assert_eq!(v.count(Code::V001) + v.count(Code::V002), 0);
    assert_eq!(v.stats.ca_pairs, 12 * 11);
    for (k, fnd) in v
        .findings
        .iter()
        .filter(|x| x.code == Code::V020)
        .enumerate()
    {
        // 6 channels, one per switch, all leaving by port 1 (clockwise)
        // or all by port 2
        assert_eq!(fnd.hops.len(), 6);
        let mut sw: Vec<u64> = fnd.hops.iter().map(|h| h.switch.0).collect();
        sw.sort();
        sw.dedup();
        assert_eq!(sw.len(), 6);
        assert!(
            fnd.hops
                .iter()
                .all(|h| h.out_port == k as u8 + 1 && h.in_port == Some(2 - k as u8))
        );
    }
    insta::assert_snapshot!("ring6_minhop", v.render());
}

#[test]
fn ring6_updn_is_clean_and_minhop_breaks_up_down() {
    let (f, lids, t) = fixture("ring6", "updn.lfts.dump");
    let ranks = roots_ranks(&f, "ring6", "ring6.roots");
    let opts = VerifyOptions {
        up_down_ranks: Some(ranks.clone()),
        ..Default::default()
    };
    let v = verify_tables(&f, &lids, &t, &opts);
    assert!(v.is_clean(), "{}", v.render());
    assert!(v.counts.is_empty(), "{}", v.render());
    assert_eq!(v.stats.vls_used, 1);
    insta::assert_snapshot!("ring6_updn", v.render());

    let (f, lids, t) = fixture("ring6", "minhop.lfts.dump");
    let v = verify_tables(
        &f,
        &lids,
        &t,
        &VerifyOptions {
            up_down_ranks: Some(ranks),
            ..Default::default()
        },
    );
    assert!(v.count(Code::V010) > 0);
    // root R0 has rank 0, so the bad turn is at the rank-3 switch R3,
    // reached going down from R2 or R4 and leaving up toward the other.
    let first = v.findings.iter().find(|x| x.code == Code::V010).unwrap();
    assert_eq!(first.hops[0].name, "R3", "{first}");
    insta::assert_snapshot!("ring6_minhop_updown", v.render());
}

#[test]
fn routing_loop_is_reported_with_its_cycle() {
    let (f, lids, t) = fixture("ring6", "loop.lfts.dump");
    let v = verify_tables(&f, &lids, &t, &VerifyOptions::default());
    assert_eq!(v.count(Code::V002), 1, "{}", v.render());
    let l = v.findings.iter().find(|x| x.code == Code::V002).unwrap();
    assert_eq!(l.lids, vec![1]);
    let names: Vec<&str> = l.hops.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(names, ["R0", "R1"]);
    assert_eq!((l.hops[0].in_port, l.hops[0].out_port), (Some(1), 1));
    assert!(v.stats.looping_pairs > 0);
    insta::assert_snapshot!("ring6_loop", v.render());
}

#[test]
fn unreachable_destination_names_the_dead_end() {
    let (f, lids, t) = fixture("ring6", "unreachable.lfts.dump");
    let v = verify_tables(&f, &lids, &t, &VerifyOptions::default());
    assert_eq!(v.count(Code::V001), 1, "{}", v.render());
    let u = v.findings.iter().find(|x| x.code == Code::V001).unwrap();
    assert_eq!(u.lids, vec![5]);
    assert_eq!(u.hops[0].name, "R2");
    assert!(v.stats.unreachable_pairs >= 2);
    insta::assert_snapshot!("ring6_unreachable", v.render());
}

#[test]
fn sl_and_sl2vl_move_the_ring_loop_between_lanes() {
    let (f, lids, t) = fixture("ring6", "minhop.lfts.dump");
    // every path on SL 3, identity SL2VL: the same loop, on VL 3
    let mut sl = PathSl::zeros(&t);
    for s in 0..f.num_switches() {
        sl.row_mut(s).fill(3);
    }
    let v = verify_tables(
        &f,
        &lids,
        &t,
        &VerifyOptions {
            vl_plan: Some(VlPlan {
                path_sl: sl,
                sl2vl: Sl2Vl::identity(),
                vls: 4,
            }),
            ..Default::default()
        },
    );
    assert_eq!(v.count(Code::V020), 2);
    assert_eq!(v.stats.vls_used, 1);
    let cyc = &v
        .findings
        .iter()
        .find(|x| x.code == Code::V020)
        .unwrap()
        .hops;
    assert!(cyc.iter().all(|h| h.vl == Some(3)));
    // Dateline: R0 sends packets arriving from R5 (port 2) on to R1 (port
    // 1) on VL 1. No min-hop route continues clockwise past R1 after that
    // turn, so the clockwise loop is cut; the counter-clockwise one stays.
    let mut m = Sl2Vl::identity();
    for s in 0..f.num_switches() {
        let n = f.switch_node(SwIdx(s as u32));
        let r0 = f.node(n).desc == "R0";
        m.set_switch(s, f.node(n).num_ports, |i, o, sl| {
            if r0 && i == 2 && o == 1 { 1 } else { sl }
        });
    }
    let v = verify_tables(
        &f,
        &lids,
        &t,
        &VerifyOptions {
            vl_plan: Some(VlPlan {
                sl2vl: m,
                ..VlPlan::single(&t)
            }),
            ..Default::default()
        },
    );
    assert_eq!(v.stats.vls_used, 2, "{}", v.render());
    assert_eq!(v.count(Code::V020), 1, "{}", v.render());
    let left = &v
        .findings
        .iter()
        .find(|x| x.code == Code::V020)
        .unwrap()
        .hops;
    assert!(left.iter().all(|h| h.out_port == 2 && h.vl == Some(0)));
}
