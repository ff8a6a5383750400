//! Deadlock freedom by layering (`route::layers`): min-hop on rings and
//! random irregular fabrics has credit loops on one VL; layered, every VL's
//! channel dependency graph is acyclic — checked by routec's verifier and
//! by the per-pair petgraph oracle of `verify/oracle.rs`, which shares no code
//! with either.

use crate::verify::{brute_force, random_fabric};

use routec::model::{Fabric, Lfts, LidMap, VlPlan};
use routec::parse::{LoadOptions, load_topology};
use routec::route::layers::assign_layers;
use routec::route::{RouteOptions, engine_by_name};
use routec::verify::{Code, VerifyOptions, verify_tables};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn minhop(path: &str) -> (Fabric, LidMap, Lfts) {
    let f = load_topology(format!("{ROOT}/{path}").as_ref(), &LoadOptions::default())
        .unwrap()
        .fabric;
    let lids = LidMap::new(&f).unwrap();
    let r = engine_by_name("minhop")
        .unwrap()
        .route(&f, &lids, &RouteOptions::default())
        .unwrap();
    (f, lids, r.lfts)
}

fn verify_with(
    f: &Fabric,
    lids: &LidMap,
    t: &Lfts,
    plan: Option<VlPlan>,
) -> routec::verify::Verdict {
    let opts = VerifyOptions {
        vl_plan: plan,
        ..Default::default()
    };
    verify_tables(f, lids, t, &opts)
}

#[test]
fn ring6_min_hop_needs_two_lanes_and_gets_them() {
    let (f, lids, t) = minhop("fixtures/verify/ring6/ibnetdiscover.txt");
    assert_eq!(verify_with(&f, &lids, &t, None).count(Code::V020), 2);
    // one VL allowed: nothing to do but report
    let one = assign_layers(&f, &lids, &t, 1);
    assert_eq!((one.plan.vls, one.unplaced > 0), (1, true));
    assert_eq!(one.notes[0].code, "L001");
    let l = assign_layers(&f, &lids, &t, 8);
    assert_eq!((l.plan.vls, l.unplaced), (2, 0));
    // 12 CAs, each sending to 11 others: 132 (source, destination) pairs
    assert_eq!(l.load.iter().sum::<u64>(), 132);
    assert!(l.load.iter().all(|&x| x == 66), "{:?}", l.load);
    let v = verify_with(&f, &lids, &t, Some(l.plan.clone()));
    assert!(v.is_clean(), "{}", v.render());
    assert_eq!(v.stats.vls_used, 2);
    assert_eq!(brute_force(&f, &lids, &t, &l.plan), (0, false));
}

#[test]
fn layered_random_fabrics_have_no_credit_loop_by_an_independent_oracle() {
    let mut needed_more = 0;
    for seed in 0..150 {
        let (f, lids, t) = random_fabric(seed);
        let (_, cyclic) = brute_force(&f, &lids, &t, &VlPlan::single(&t));
        let l = assign_layers(&f, &lids, &t, 15);
        assert_eq!(l.unplaced, 0, "seed {seed}");
        let (unreachable, still) = brute_force(&f, &lids, &t, &l.plan);
        assert!(
            !still,
            "seed {seed}: layered plan on {} VLs has a cycle",
            l.plan.vls
        );
        let v = verify_with(&f, &lids, &t, Some(l.plan.clone()));
        assert_eq!(v.count(Code::V020), 0, "seed {seed}: {}", v.render());
        assert_eq!(v.stats.unreachable_pairs, unreachable, "seed {seed}");
        // a routing without a credit loop needs no second layer
        assert_eq!(l.plan.vls > 1, cyclic, "seed {seed}");
        needed_more += u32::from(cyclic);
    }
    assert!(
        needed_more > 10,
        "{needed_more} of 150 fabrics needed layers"
    );
}

#[test]
fn min_hop_engine_on_random_fabrics_layers_clean() {
    for seed in 0..60 {
        let (f, lids, _) = random_fabric(seed);
        let r = engine_by_name("minhop")
            .unwrap()
            .route(&f, &lids, &RouteOptions::default())
            .unwrap();
        let l = assign_layers(&f, &lids, &r.lfts, 8);
        assert_eq!(
            brute_force(&f, &lids, &r.lfts, &l.plan),
            (0, false),
            "seed {seed}"
        );
        assert!(
            l.plan.vls <= 3,
            "seed {seed}: {} VLs for at most 8 switches",
            l.plan.vls
        );
    }
}

#[test]
fn lanes_beyond_the_port_or_dropped_are_findings() {
    let (f, lids, t) = minhop("fixtures/verify/ring6/ibnetdiscover.txt");
    let plan = assign_layers(&f, &lids, &t, 8).plan;
    // The plan uses VLs 0 and 1: with one operational VL, every hop on VL 1 is V022.
    let one = VerifyOptions {
        vl_plan: Some(plan.clone()),
        operational_vls: 1,
        ..Default::default()
    };
    let v = verify_tables(&f, &lids, &t, &one);
    assert!(v.count(Code::V022) > 0, "{}", v.render());
    let first = v.findings.iter().find(|x| x.code == Code::V022).unwrap();
    assert_eq!(first.hops[0].vl, Some(1));
    assert!(
        first.message.contains("beyond the 1 operational data VLs"),
        "{}",
        first.message
    );
    // R0 drops SL 1: VL 15 on every switch hop of R0 that carries SL 1.
    let mut dropping = plan.clone();
    let r0 = (0..f.num_switches())
        .find(|&s| f.node(f.switch_node(routec::model::SwIdx(s as u32))).desc == "R0")
        .unwrap();
    dropping
        .sl2vl
        .set_switch(r0, 12, |_, _, sl| if sl == 1 { 15 } else { sl });
    let v = verify_with(&f, &lids, &t, Some(dropping));
    assert!(v.count(Code::V021) > 0, "{}", v.render());
    assert!(
        v.findings
            .iter()
            .filter(|x| x.code == Code::V021)
            .all(|x| x.switches[0] == f.node(f.switch_node(routec::model::SwIdx(r0 as u32))).guid)
    );
    // 8 VLs and the plan's own tables: clean.
    assert!(verify_with(&f, &lids, &t, Some(plan)).is_clean());
}

/// Per-switch operational VLs from a YAML topology (`vls:`): layering stays
/// within the fewest any switch has, the verifier reports a plan that uses
/// more on a switch as V022 naming it, and `vls` survives the YAML round
/// trip; `vls` on a CA or out of 1..15 is an input error with its line.
#[test]
fn yaml_vls_per_switch() {
    let (f, lids, t) = minhop("fixtures/verify/ring6/ibnetdiscover.txt");
    let mut yaml = Vec::new();
    routec::emit::yaml::write(&f, &mut yaml).unwrap();
    let yaml = String::from_utf8(yaml).unwrap();
    let r3 = "{guid: 0x2c90101000003, name: R3, ports: 8,";
    assert!(yaml.contains(r3), "{yaml}");
    let one = yaml.replace(r3, "{guid: 0x2c90101000003, name: R3, ports: 8, vls: 1,");
    let g = routec::parse::yaml::parse_topology("ring.yaml", &one).unwrap();
    let r3_ix = g
        .switches()
        .iter()
        .position(|&n| g.node(n).guid.0 == 0x2c90101000003)
        .unwrap();
    assert_eq!(g.node(g.switches()[r3_ix]).op_vls, Some(1));
    // round trip keeps it
    let mut again = Vec::new();
    routec::emit::yaml::write(&g, &mut again).unwrap();
    assert!(String::from_utf8(again).unwrap().contains("vls: 1"));
    // the 2-VL plan of ring6 crosses R3 on VL 1: V022 there, and only there
    let l = assign_layers(&f, &lids, &t, 8);
    assert_eq!(l.plan.vls, 2);
    let v = verify_with(&g, &lids, &t, Some(l.plan.clone()));
    assert!(v.count(Code::V022) > 0, "{}", v.render());
    assert!(v.render().contains("0x0002c90101000003"), "{}", v.render());
    assert!(verify_with(&f, &lids, &t, Some(l.plan)).is_clean());
    // bad values
    let bad = yaml.replace(r3, "{guid: 0x2c90101000003, name: R3, ports: 8, vls: 16,");
    let e = routec::parse::yaml::parse_topology("ring.yaml", &bad)
        .unwrap_err()
        .to_string();
    assert!(e.contains("1..15") && e.contains("ring.yaml"), "{e}");
}
