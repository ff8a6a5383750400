//! The path SLs' record of the LID blocks written off SL 0
//! (`PathSl::written_blocks`) stands for a scan of the whole table: the
//! verifier's verdict, the image's VL section and the report's paths per
//! SL are the same whether a plan knows its blocks or not (its rows copied
//! through `row_mut`, which forgets them), on layered random fabrics, clean
//! and with paths moved back to SL 0 until credit loops appear (blocks
//! written back to 0 stay in the record: a superset).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{aggregation_nodes, pgft_with};
use crate::verify::random_fabric;

use routec::emit::image_vl::{ImageVl, Section};
use routec::emit::report::VlSummary;
use routec::model::vl::PathSl;
use routec::model::{Fabric, Lfts, LidMap, VlPlan};
use routec::route::layers::assign_layers;
use routec::route::{RouteOptions, engine_by_name};
use routec::verify::{Code, VerifyOptions, verify_tables};

/// The plan with its path SLs copied row by row: same SLs, no record.
fn forgetful(plan: &VlPlan, t: &Lfts, n: usize) -> VlPlan {
    let mut p = PathSl::zeros(t);
    for s in 0..n {
        p.row_mut(s).copy_from_slice(plan.path_sl.row(s));
    }
    assert!(p.written_blocks().is_none());
    VlPlan {
        path_sl: p,
        ..plan.clone()
    }
}

fn section_bytes(f: &Fabric, plan: &VlPlan) -> Vec<u8> {
    let vl = ImageVl::of(f, plan);
    let mut out = Vec::new();
    Section::of(&vl).write_to(&mut out).unwrap();
    out
}

/// Every reader of the path SLs answers alike for `plan` and its copy.
fn readers_agree(f: &Fabric, lids: &LidMap, t: &Lfts, plan: &VlPlan, what: &str) -> bool {
    let copy = forgetful(plan, t, f.num_switches());
    let verdict = |p: &VlPlan| {
        let opts = VerifyOptions {
            vl_plan: Some(p.clone()),
            ..Default::default()
        };
        verify_tables(f, lids, t, &opts)
    };
    let (a, b) = (verdict(plan), verdict(&copy));
    assert_eq!(
        a,
        b,
        "{what}: verdicts differ\n{}\n{}",
        a.render(),
        b.render()
    );
    assert_eq!(
        section_bytes(f, plan),
        section_bytes(f, &copy),
        "{what}: VL section"
    );
    let vl = Section::of(&ImageVl::of(f, plan)).digest();
    assert_eq!(vl, Section::of(&ImageVl::of(f, &copy)).digest(), "{what}");
    let (ra, rb) = (VlSummary::of(f, lids, plan), VlSummary::of(f, lids, &copy));
    assert_eq!(ra, rb, "{what}: report");
    a.count(Code::V020) > 0
}

#[test]
fn written_blocks_stand_for_the_whole_table() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let (mut layered, mut looped) = (0, 0);
    for seed in 0..80 {
        let (f, lids, t) = random_fabric(seed);
        let mut plan = assign_layers(&f, &lids, &t, 8).plan;
        if plan.vls < 2 {
            continue;
        }
        layered += 1;
        assert!(!readers_agree(
            &f,
            &lids,
            &t,
            &plan,
            &format!("seed {seed}")
        ));
        // some paths back on SL 0: their blocks stay in the record
        let lids_top = t.top();
        for _ in 0..200 {
            let (s, lid) = (
                rng.random_range(0..f.num_switches()),
                rng.random_range(1..=lids_top),
            );
            plan.path_sl.set(s, lid, 0);
        }
        looped += u32::from(readers_agree(
            &f,
            &lids,
            &t,
            &plan,
            &format!("seed {seed}, SL 0"),
        ));
    }
    assert!(layered >= 10, "{layered} layered fabrics");
    assert!(
        looped >= 3,
        "{looped} fabrics with credit loops back on SL 0"
    );
}

/// Dmodc's escape SLs on a PGFT with an aggregation node on every switch
/// lie in a few of its LID blocks: the record skips the others, and every
/// reader still agrees with the whole table.
#[test]
fn escape_sls_in_few_blocks() {
    let f = pgft_with(&[4, 4, 8], &[1, 4, 4], &aggregation_nodes());
    let lids = LidMap::new(&f).unwrap();
    let opts = RouteOptions {
        vls: 4,
        ..RouteOptions::default()
    };
    let r = engine_by_name("dmodc")
        .unwrap()
        .route(&f, &lids, &opts)
        .unwrap();
    let plan = r.vl_plan.clone().expect("escape VLs");
    let written = plan.path_sl.written_blocks().expect("set by the engine");
    let blocks = usize::from(r.lfts.top()) / 64 + 1;
    assert!(
        written.count_ones(..) > 0 && written.count_ones(..) < blocks,
        "{written:?} of {blocks}"
    );
    assert!(!readers_agree(
        &f,
        &lids,
        &r.lfts,
        &plan,
        "aggregation nodes"
    ));
}
