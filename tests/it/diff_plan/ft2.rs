//! ft2 (12 switches) losing a cable or a spine, every engine, against
//! brute force; the CLI's text, JSON and exit codes.

use std::path::Path;

use routec::diff::plan::{Cycle, Verdict};
use routec::model::faults::Fault;
use routec::model::{Guid, LidMap};
use routec::route::RootSpec;

use super::fabrics::{ft2, route, without_cable};
use super::oracle::check_plan;
use crate::common;

/// ft2 (12 switches) losing one cable, every engine: the plan agrees with
/// brute force over the 4,096 mixtures; min-hop's all-at-once upload can
/// loop (OpenSM's own min-hop tables on this fixture), the plan cannot.
#[test]
fn ft2_cable_cut_every_engine() {
    let f = ft2();
    let g = without_cable(&f, 0x0002c90101000007, 5);
    let (lf, lg) = (LidMap::new(&f).unwrap(), LidMap::new(&g).unwrap());
    for engine in ["minhop", "updn", "dmodc"] {
        let old = route(&f, &lf, engine, RootSpec::Top).unwrap();
        let new = route(&g, &lg, engine, RootSpec::Top).unwrap();
        let (plan, bad, states) = check_plan(&g, &lg, &old, &new);
        assert!(plan.is_safe(), "{engine}: {plan:#?}");
        assert!(states > 0);
        if engine == "minhop" {
            assert!(bad > 0, "minhop: some mixture should loop");
            assert_eq!(plan.verdict, Verdict::Phased);
            assert!(matches!(
                plan.all_at_once_cycle,
                Some(Cycle::ForwardingLoop { .. })
            ));
        }
    }
}

/// The CLI on ft2 (min-hop, one cable cut): text summary, JSON as
/// `formats/diff-plan.md` shows it, exit codes.
#[test]
fn cli_plan_text_json_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cwd = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cut = common::ft2_without_one_cable(d);
    let (old, new) = (d.join("old"), d.join("new"));
    let ft2 = cwd.join(common::FT2);
    for (topo, out) in [(&ft2, &old), (&cut, &new)] {
        let args = [
            "compile",
            topo.to_str().unwrap(),
            "--engine",
            "minhop",
            "-q",
            "-o",
        ];
        let (code, _) = common::routec(&[&args[..], &[out.to_str().unwrap()]].concat(), cwd);
        assert_eq!(code, 0);
    }
    let (o, n, t) = (
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        cut.to_str().unwrap(),
    );
    let (code, text) = common::routec(&["diff", o, n, "--plan", "--topology", t], cwd);
    assert_eq!(code, 0);
    let plan_text = &text[text.find("upload plan:").unwrap()..];
    insta::assert_snapshot!("diff_plan_ft2_minhop", plan_text);
    let (code, json) = common::routec(&["diff", o, n, "--plan", "--topology", t, "--json"], cwd);
    assert_eq!(code, 0);
    let got: serde_json::Value = serde_json::from_str(&json).unwrap();
    let block = &crate::doc_blocks::fenced("formats/diff-plan.md", "json")[0];
    let doc: serde_json::Value = serde_json::from_str(block).unwrap();
    let (got, doc) = (&got["plan"], &doc["plan"]);
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(got), keys(doc));
    for k in [
        "verdict",
        "entries",
        "smps",
        "all_at_once_cycle",
        "entries_left",
    ] {
        assert_eq!(got[k], doc[k], "{k}");
    }
    assert_eq!(
        got["phases"][0]["switches"][0],
        doc["phases"][0]["switches"][0]
    );
    assert_eq!(got["phases"][1], doc["phases"][1]);
    // The same bytes whatever the thread count.
    for j in ["1", "2", "3"] {
        let args = ["diff", o, n, "--plan", "--topology", t, "--json", "-j", j];
        assert_eq!(common::routec(&args, cwd).1, json, "-j {j}");
    }
    // Usage: --plan needs the topology.
    let (code, _) = common::routec(&["diff", o, n, "--plan"], cwd);
    assert_eq!(code, 2);
    // NEW over OLD the other way round on the intact fabric: NEW (routed
    // around a cable that is there) is safe too, and so is the way back.
    let (code, _) = common::routec(
        &["diff", n, o, "--plan", "--topology", ft2.to_str().unwrap()],
        cwd,
    );
    assert_eq!(code, 0);
}

/// ft2 losing a spine switch (11 switches left): the old tables' spine is
/// ignored (named), old entries toward it drop packets, and the plan still
/// agrees with brute force over the 2,048 mixtures.
#[test]
fn ft2_switch_removed() {
    let f = ft2();
    let spine = Guid(0x0002c90102000000);
    let g = f.apply_faults(&[Fault::Switch(spine)]).unwrap().0;
    let (lf, lg) = (LidMap::new(&f).unwrap(), LidMap::new(&g).unwrap());
    for engine in ["updn", "dmodc"] {
        let old = route(&f, &lf, engine, RootSpec::Top).unwrap();
        let new = route(&g, &lg, engine, RootSpec::Top).unwrap();
        let (plan, _, states) = check_plan(&g, &lg, &old, &new);
        assert!(plan.is_safe(), "{engine}: {plan:#?}");
        assert_eq!(plan.switches_ignored, vec![spine]);
        assert!(states > 0);
    }
}
