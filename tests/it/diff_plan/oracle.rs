//! The oracle of the plan tests: every path of a static state followed hop
//! by hop (loops by hop count), credit loops by petgraph on the channel
//! graph of those paths; the states a plan passes through; brute force over
//! the 2^S mixtures of whole old and new switch tables.

use std::collections::{BTreeMap, HashSet};

use petgraph::graphmap::DiGraphMap;
use routec::diff::plan::{PlanOptions, UploadPlan, Verdict, plan_upload};
use routec::model::{Fabric, Guid, LFT_BLOCK, LidMap, NO_ROUTE, SwIdx, TableSet};

/// Tables as the oracle reads them: one LID-indexed row per fabric switch.
pub(crate) type Rows = Vec<Vec<u8>>;

/// A path an oracle follows: source switch, LID, whether the LID is an end
/// port's, and the channels `(switch, out port)` it takes.
pub(crate) type OraclePath = (usize, u16, bool, Vec<(usize, u8)>);

/// Every path of `rows` from its sources as `routec check` counts them
/// (an end port's from the switches with another end port, a switch
/// LID's, and with `all_paths` every LID's, from every switch), followed
/// hop by hop; `Err` names a forwarding loop.
pub(crate) fn oracle_paths(
    f: &Fabric,
    lids: &LidMap,
    rows: &Rows,
    all_paths: bool,
) -> Result<Vec<OraclePath>, String> {
    let nsw = f.num_switches();
    let hosts: Vec<usize> = (0..nsw)
        .map(|s| {
            let n = f.switch_node(SwIdx(s as u32));
            (1..=f.node(n).num_ports)
                .filter(|&p| f.peer(n, p).is_some_and(|q| !f.is_switch(q.node)))
                .count()
        })
        .collect();
    let mut paths = Vec::new();
    for (lid, o) in lids.iter() {
        let (tsw, is_end) = match f.switch_index(o.node) {
            Some(s) => (s.ix(), false),
            None => match f.peer(o.node, o.port).and_then(|p| f.switch_index(p.node)) {
                Some(s) => (s.ix(), true),
                None => continue,
            },
        };
        for (src, &h) in hosts.iter().enumerate() {
            if is_end && !all_paths && h - usize::from(src == tsw) == 0 {
                continue;
            }
            let (mut cur, mut chans) = (src, Vec::new());
            loop {
                let p = rows[cur].get(lid as usize).copied().unwrap_or(NO_ROUTE);
                let n = f.switch_node(SwIdx(cur as u32));
                let next = (p != NO_ROUTE)
                    .then(|| f.peer(n, p))
                    .flatten()
                    .filter(|q| q.node != n)
                    .and_then(|q| f.switch_index(q.node));
                let Some(w) = next else { break };
                chans.push((cur, p));
                cur = w.ix();
                if chans.len() > nsw {
                    return Err(format!("forwarding loop for LID {lid} from switch {src}"));
                }
            }
            paths.push((src, lid, is_end, chans));
        }
    }
    Ok(paths)
}

/// The independent oracle: is this static state safe?
pub(crate) fn unsafe_state(
    f: &Fabric,
    lids: &LidMap,
    rows: &Rows,
    all_paths: bool,
) -> Option<String> {
    let paths = match oracle_paths(f, lids, rows, all_paths) {
        Ok(p) => p,
        Err(why) => return Some(why),
    };
    let mut cdg: DiGraphMap<(usize, u8), ()> = DiGraphMap::new();
    for (_, _, _, chans) in paths.iter().filter(|p| p.2 || all_paths) {
        for pair in chans.windows(2) {
            cdg.add_edge(pair[0], pair[1], ());
        }
    }
    petgraph::algo::is_cyclic_directed(&cdg).then(|| "credit loop".to_string())
}

/// The rows of `t` in `f`'s switch order (matched by GUID), `len` LIDs.
pub(crate) fn rows_of(f: &Fabric, t: &TableSet, len: usize) -> Rows {
    f.switches()
        .iter()
        .map(|&n| {
            let mut row = vec![NO_ROUTE; len];
            if let Some(i) = t.switch_by_guid(f.node(n).guid) {
                for (l, r) in row.iter_mut().enumerate() {
                    *r = t.port(i, l as u16);
                }
            }
            row
        })
        .collect()
}

/// Every state the plan's phases can pass through: all earlier phases
/// written, any subset of the current phase's SMPs (switch, block) written.
/// Calls `visit` on each; returns the final state.
pub(crate) fn plan_states(
    f: &Fabric,
    old: &Rows,
    new: &Rows,
    plan: &UploadPlan,
    visit: &mut dyn FnMut(&Rows),
) -> Rows {
    let sw_of = |g: Guid| f.switch_index(f.node_by_guid(g).unwrap()).unwrap().ix();
    let mut base = old.clone();
    let mut written: HashSet<(usize, u16)> = HashSet::new();
    for ph in &plan.phases {
        let mut smps: BTreeMap<(usize, u32), Vec<u16>> = BTreeMap::new();
        for s in &ph.switches {
            for &l in &s.lids {
                smps.entry((sw_of(s.guid), (l as usize / LFT_BLOCK) as u32))
                    .or_default()
                    .push(l);
                assert!(written.insert((sw_of(s.guid), l)), "entry written twice");
            }
        }
        assert_eq!(ph.smps as usize, smps.len());
        let smps: Vec<_> = smps.into_iter().collect();
        assert!(smps.len() <= 16, "too many SMPs in a phase to enumerate");
        for mask in 0u32..1 << smps.len() {
            let mut st = base.clone();
            for (i, ((s, _), ls)) in smps.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    ls.iter()
                        .for_each(|&l| st[*s][l as usize] = new[*s][l as usize]);
                }
            }
            visit(&st);
        }
        for ((s, _), ls) in &smps {
            ls.iter()
                .for_each(|&l| base[*s][l as usize] = new[*s][l as usize]);
        }
    }
    base
}

/// Checks a plan against brute force; returns (unsafe whole-switch
/// mixtures, states of the plan visited).
pub(crate) fn check_plan(
    f: &Fabric,
    lids: &LidMap,
    old: &TableSet,
    new: &TableSet,
) -> (UploadPlan, usize, usize) {
    let opts = PlanOptions::default();
    let plan = plan_upload(f, lids, old, new, opts);
    let len = lids.max_lid() as usize + 1;
    let (o, n) = (rows_of(f, old, len), rows_of(f, new, len));
    let nsw = f.num_switches();
    assert!(nsw <= 12);
    let old_bad = unsafe_state(f, lids, &o, false);
    let new_bad = unsafe_state(f, lids, &n, false);
    match plan.verdict {
        Verdict::NewUnsafe => assert!(new_bad.is_some(), "plan says NEW unsafe: {:?}", plan.cycle),
        Verdict::OldUnsafe => {
            assert!(old_bad.is_some(), "plan says OLD unsafe: {:?}", plan.cycle);
            assert!(new_bad.is_none());
        }
        _ => assert!(
            old_bad.is_none() && new_bad.is_none(),
            "{old_bad:?} {new_bad:?}"
        ),
    }
    if matches!(plan.verdict, Verdict::NewUnsafe | Verdict::OldUnsafe) {
        return (plan, 0, 0);
    }
    // Brute force: every mixture of whole old and whole new switch tables.
    let mut bad_mixtures = 0;
    for st in mixtures(&o, &n) {
        if unsafe_state(f, lids, &st, false).is_some() {
            bad_mixtures += 1;
        }
    }
    if plan.verdict == Verdict::AllAtOnce || plan.verdict == Verdict::Unchanged {
        assert_eq!(
            bad_mixtures, 0,
            "plan says all at once, brute force disagrees"
        );
    }
    let states = assert_states_safe(f, (&o, &n), &plan, &|st| unsafe_state(f, lids, st, false));
    (plan, bad_mixtures, states)
}

/// Follows every state `plan` passes through from `o` (`plan_states`),
/// failing at the first one the oracle `unsafe_at` finds unsafe, and, for
/// a safe plan, checks that it ends at `n`; returns the states seen.
pub(crate) fn assert_states_safe(
    f: &Fabric,
    (o, n): (&Rows, &Rows),
    plan: &UploadPlan,
    unsafe_at: &dyn Fn(&Rows) -> Option<String>,
) -> usize {
    let mut states = 0;
    let end = plan_states(f, o, n, plan, &mut |st| {
        states += 1;
        if let Some(why) = unsafe_at(st) {
            panic!("the plan passes through an unsafe state: {why}\n{plan:#?}");
        }
    });
    if plan.is_safe() {
        assert_eq!(&end, n, "the plan does not end at the new tables");
    }
    states
}

/// Every mixture of whole old (`o`) and whole new (`n`) switch tables:
/// 2^S states.
pub(crate) fn mixtures<'a>(o: &'a Rows, n: &'a Rows) -> impl Iterator<Item = Rows> + 'a {
    let nsw = o.len();
    (0u32..1 << nsw).map(move |mask| {
        (0..nsw)
            .map(|s| {
                if mask >> s & 1 == 1 {
                    n[s].clone()
                } else {
                    o[s].clone()
                }
            })
            .collect()
    })
}
