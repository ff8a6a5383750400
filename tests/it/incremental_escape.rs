//! `compile --previous DIR` on Dmodc routings with escape paths on further
//! VLs (issue 16 on the fabrics of issue 13: an aggregation-node CA on
//! every switch, so spines and cores reach each other's CAs only through
//! a valley). The merge keeps the up*/down* rule wherever the engine's own
//! path is up*/down* and only asks escape paths to arrive; the merged
//! tables are laid on VLs again (`formats/state.md` step 6).
//!
//! Oracles written here: each (switch, CA LID) path followed hop by hop
//! over the new fabric's cables, up/down by the PGFT level in the switch
//! GUID (`incremental::level`); ibdmchk on the emitted path SLs when it is
//! installed; and the engine's own layering as the reference for
//! [`relay`]: laying the engine's tables again gives the engine's plan.

use std::collections::VecDeque;

use routec::model::{Fabric, LidMap, NO_ROUTE, SwIdx};
use routec::route::incremental::relay;
use routec::route::{RouteOptions, Routing, engine_by_name};

use super::incremental::{Rows, compile, generate, load, report, rows, with_previous};

const ENGINE: &str = "--engine dmodc --vls 8 --emit image,report,opensm,fdbs";

/// Switch ranks by BFS from the switches with a compute node (not an
/// aggregation node) cabled to them, by switch index.
fn ranks(f: &Fabric) -> Vec<u32> {
    let mut rank = vec![u32::MAX; f.num_switches()];
    let mut queue = VecDeque::new();
    for (s, &n) in f.switches().iter().enumerate() {
        let compute = f
            .ports(n)
            .iter()
            .filter_map(|p| p.peer)
            .any(|p| !f.is_switch(p.node) && !f.node(p.node).desc.contains("Aggregation Node"));
        if compute {
            rank[s] = 0;
            queue.push_back(s);
        }
    }
    while let Some(s) = queue.pop_front() {
        let n = f.switch_node(SwIdx(s as u32));
        for p in f.ports(n).iter().filter_map(|p| p.peer) {
            if let Some(t) = f.switch_index(p.node).map(|t| t.ix())
                && rank[t] == u32::MAX
            {
                rank[t] = rank[s] + 1;
                queue.push_back(t);
            }
        }
    }
    rank
}

/// How the path from switch `s` to `lid` in `rows` ends: `None` when it
/// does not reach the LID's port over live cables, else whether it went
/// up*/down* over `rank` (between equal ranks up from the higher GUID, as
/// OpenSM's up/down ranks mean it).
fn walk(
    f: &Fabric,
    (lids, rank): (&LidMap, &[u32]),
    rows: &Rows,
    s: usize,
    lid: u16,
) -> Option<bool> {
    let owner = lids.owner(lid)?;
    let (mut cur, mut down, mut up_down) = (s, false, true);
    for _ in 0..=f.num_switches() {
        let n = f.switch_node(SwIdx(cur as u32));
        let g = f.node(n).guid;
        let p = rows.get(&g)?.get(lid as usize).copied().unwrap_or(NO_ROUTE);
        if p == NO_ROUTE || p > f.node(n).num_ports {
            return None;
        }
        let peer = f.peer(n, p).filter(|q| q.node != n)?;
        let Some(t) = f.switch_index(peer.node) else {
            return (peer.node == owner.node && peer.port == owner.port).then_some(up_down);
        };
        let (rp, rc) = (rank[t.ix()], rank[cur]);
        let up = rp > rc || (rp == rc && g > f.node(peer.node).guid);
        up_down &= !(up && down);
        down |= !up;
        cur = t.ix();
    }
    None
}

/// Every switch reaches every CA LID in `inc`; where the full re-route's
/// path is up*/down*, so is the incremental one, and a previous entry
/// whose path is still up*/down* is kept. Returns (entries changed,
/// escape paths seen).
fn assert_merge(
    f: &Fabric,
    lids: &LidMap,
    (prev, inc, full): (&Rows, &Rows, &Rows),
) -> (usize, usize) {
    let cas: Vec<u16> = lids
        .iter()
        .filter(|(_, o)| !f.is_switch(o.node))
        .map(|(l, _)| l)
        .collect();
    let rank = ranks(f);
    let lids = (lids, &rank[..]);
    let (mut changed, mut escapes) = (0, 0);
    for (s, &sw) in f.switches().iter().enumerate() {
        let g = f.node(sw).guid;
        for &lid in &cas {
            let now = walk(f, lids, inc, s, lid);
            assert!(now.is_some(), "switch {g} does not reach LID {lid}");
            let engine_up_down = walk(f, lids, full, s, lid) == Some(true);
            escapes += usize::from(!engine_up_down);
            if engine_up_down {
                assert_eq!(now, Some(true), "switch {g} LID {lid}: not up*/down*");
            }
            let (old, new) = (prev[&g][lid as usize], inc[&g][lid as usize]);
            changed += usize::from(old != new);
            if engine_up_down && walk(f, lids, prev, s, lid) == Some(true) {
                assert_eq!(new, old, "switch {g} LID {lid}: a valid entry was changed");
            }
        }
    }
    (changed, escapes)
}

/// Entries where `a` and `b` differ over the CA LIDs.
fn differing(f: &Fabric, lids: &LidMap, a: &Rows, b: &Rows) -> usize {
    let cas: Vec<u16> = lids
        .iter()
        .filter(|(_, o)| !f.is_switch(o.node))
        .map(|(l, _)| l)
        .collect();
    f.switches()
        .iter()
        .map(|&sw| {
            let g = f.node(sw).guid;
            cas.iter()
                .filter(|&&l| a[&g][l as usize] != b[&g][l as usize])
                .count()
        })
        .sum()
}

#[test]
fn escape_routings_are_merged_and_laid_on_vls_again() {
    for gen_args in [
        "--h 3 --m 4,4,8 --w 1,4,4 --aggregation-nodes --faults 4 --seed 7",
        "--h 3 --m 4,4,8 --w 1,4,4 --aggregation-nodes --faults 0 --fail-switches 1 --seed 3",
        // leaves without a common ancestor too: a management pod on two
        // tops, an isolated pod, empty host ports, spine cross cables, a
        // missing top
        "--h 3 --m 4,4,4 --w 1,4,4 --aggregation-nodes --mgmt-pod 1:2:2 --isolated-pods 1 \
         --empty-host-ports 0.2 --cross-cables 2 --drop-top 1 --faults 6 --seed 2",
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let (topo, faults) = generate(dir, gen_args);
        assert_eq!(compile(dir, &topo, None, ENGINE, "prev", &[]), 0);
        let (code, err) = with_previous(dir, &topo, &faults, ENGINE, "inc", &[]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("note[R021]")
                && err.contains("laid on VLs again")
                && !err.contains("R022"),
            "{err}"
        );
        assert_eq!(compile(dir, &topo, Some(&faults), ENGINE, "full", &[]), 0);
        let (f, lids) = load(&topo, Some(&faults));
        let (prev, inc, full) = (
            rows(&dir.join("prev")),
            rows(&dir.join("inc")),
            rows(&dir.join("full")),
        );
        let (changed, escapes) = assert_merge(&f, &lids, (&prev, &inc, &full));
        let by_full = differing(&f, &lids, &prev, &full);
        assert!(escapes > 0, "{gen_args}: no escape path");
        assert!(
            changed > 0 && changed < by_full,
            "{gen_args}: incremental {changed}, full {by_full}"
        );
        let rep = report(&dir.join("inc"));
        assert_eq!(rep["verification"]["status"], "pass", "{gen_args}");
        assert!(rep["incremental"]["changed"].as_u64().unwrap() >= changed as u64);
        // the image carries the new VLs: the check reads them back
        let (code, text) = crate::common::routec(
            &[
                "check",
                topo.to_str().unwrap(),
                "--faults",
                faults.to_str().unwrap(),
                "--lfts",
                "inc",
            ],
            dir,
        );
        assert_eq!(code, 0, "{text}");
        assert!(
            text.contains("VL(s)") && !text.contains(" 1 VL(s)"),
            "{text}"
        );
        let usable = std::process::Command::new("ibdmchk")
            .arg("-h")
            .output()
            .is_ok();
        if crate::common::peer("ibdmchk", usable) {
            let inc_dir = dir.join("inc");
            assert_eq!(
                crate::common::ibdmchk_loops(&inc_dir, None),
                Some(true),
                "one VL loops"
            );
            assert_eq!(
                crate::common::ibdmchk_loops(&inc_dir, Some("ibdmchk.psl")),
                Some(false)
            );
        }
    }
}

/// Dmodc's routing (at most 8 VLs) of `gen pgft GEN_ARGS`.
fn dmodc_routing(gen_args: &str) -> (Fabric, LidMap, Routing) {
    let tmp = tempfile::tempdir().unwrap();
    let (topo, _) = generate(tmp.path(), gen_args);
    let (f, lids) = load(&topo, None);
    let r = dmodc_on(&f, &lids);
    (f, lids, r)
}

/// Dmodc's routing of `f` with `--vls 8` (escape paths laid on VLs).
pub(super) fn dmodc_on(f: &Fabric, lids: &LidMap) -> Routing {
    let opts = RouteOptions {
        vls: 8,
        ..RouteOptions::default()
    };
    engine_by_name("dmodc")
        .unwrap()
        .route(f, lids, &opts)
        .unwrap()
}

/// [`relay`] on the engine's own tables gives the engine's plan (laid
/// afresh, or keeping the engine's SLs), and with
/// one VL fewer than that it refuses, naming the number (the case that
/// sends `compile --previous` back to a full re-route, note R023).
#[test]
fn relaying_the_engines_tables_gives_the_engines_plan() {
    let (f, lids, r) = dmodc_routing("--h 3 --m 4,4,8 --w 1,4,4 --aggregation-nodes");
    let (plan, escapes) = (r.vl_plan.unwrap(), r.escapes.unwrap());
    assert!(plan.vls >= 2 && !escapes.targets.is_empty());
    let again = relay(&f, &lids, &r.lfts, (&escapes, None), plan.vls).unwrap();
    assert_eq!(again.vls, plan.vls);
    assert!(
        again.plan.unwrap() == plan,
        "the engine's own tables laid again"
    );
    // keeping the engine's own SLs keeps every one of them
    let kept = relay(
        &f,
        &lids,
        &r.lfts,
        (&escapes, Some(&plan.path_sl)),
        plan.vls,
    )
    .unwrap();
    assert!(kept.plan.unwrap() == plan, "the engine's own SLs kept");
    let err = relay(&f, &lids, &r.lfts, (&escapes, None), plan.vls - 1)
        .err()
        .unwrap();
    assert!(err.contains(&format!("need {} VLs", plan.vls)), "{err}");
}

/// Layers are separate graphs, so the engine's plan with the SLs of two
/// escape layers swapped is as valid: laid afresh, the tables get the
/// engine's SLs back; keeping the swapped ones as the previous run's,
/// every path keeps its swapped SL.
#[test]
fn relaying_keeps_the_previous_sls_where_they_fit() {
    let (f, lids, r) = dmodc_routing(
        "--h 3 --m 4,4,4 --w 1,4,4 --aggregation-nodes --mgmt-pod 1:2:2 --isolated-pods 1 \
         --empty-host-ports 0.2 --cross-cables 2 --drop-top 1",
    );
    let (plan, escapes) = (r.vl_plan.unwrap(), r.escapes.unwrap());
    assert!(plan.vls >= 4, "{}", plan.vls);
    let mut swapped = plan.path_sl.clone();
    let mut moved = 0;
    for s in 0..f.num_switches() {
        for lid in 0..=lids.max_lid() {
            let sl = plan.sl(s, lid);
            if sl == 1 || sl == 3 {
                swapped.set(s, lid, 4 - sl);
                moved += 1;
            }
        }
    }
    assert!(moved > 0);
    let fresh = relay(&f, &lids, &r.lfts, (&escapes, None), 8).unwrap();
    assert!(fresh.plan.unwrap().path_sl == plan.path_sl);
    let kept = relay(&f, &lids, &r.lfts, (&escapes, Some(&swapped)), 8).unwrap();
    assert_eq!(kept.vls, plan.vls);
    assert!(
        kept.plan.unwrap().path_sl == swapped,
        "the previous SLs kept"
    );
}
