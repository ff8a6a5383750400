//! The CDG census (`cdg::census`, taken when `updown::orients_every_link`
//! and no V010 prove the graph acyclic) against the graph built and
//! searched (`verify_with(.., false)` never takes it): on a two-level fat
//! tree with up/down tables and random damage, the whole verdict — CDG
//! size, VLs, credit loops — must be the same. The tally proves both the
//! census (clean up/down tables) and credit loops (damage turning down
//! then up) occurred, and that non-strict ranks (a root leaf) were seen.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{VerifyOptions, verify_with};
use crate::model::lids::assign_missing_lids;
use crate::model::{
    Fabric, FabricBuilder, Guid, Lfts, LidMap, NO_ROUTE, NodeKind, NodeSpec, PortNum,
};

/// `l` leaves (switches 0..l: hosts on ports 1–2, spine `k` on port 3 + k)
/// and `sp` spines (switches l..l+sp: leaf `x` on port 1 + x).
pub(super) fn fat_tree(l: usize, sp: usize) -> Fabric {
    let mut b = FabricBuilder::new();
    let mut sw = Vec::new();
    for i in 0..l + sp {
        let ports = if i < l { 2 + sp } else { l } as u8;
        let spec = NodeSpec::new(
            NodeKind::Switch,
            Guid(0x10 + i as u64),
            ports,
            format!("s{i}"),
        );
        sw.push(b.add_node(spec).unwrap());
    }
    for x in 0..l {
        for k in 0..sp {
            b.connect(sw[x], 3 + k as PortNum, sw[l + k], 1 + x as PortNum)
                .unwrap();
        }
        for p in 1..=2u8 {
            let g = 0x100 + 2 * x as u64 + p as u64;
            let h = b
                .add_node(NodeSpec::new(NodeKind::Ca, Guid(g), 1, format!("h{g:x}")))
                .unwrap();
            b.port_mut(h, 1).unwrap().guid = Guid(g + 0x1000);
            b.connect(h, 1, sw[x], p).unwrap();
        }
    }
    let mut f = b.build();
    assign_missing_lids(&mut f).unwrap();
    f
}

/// Up/down tables (up to spine `lid % sp`, down to the leaf), then
/// `damage` of the entries replaced by a random port or a hole.
pub(super) fn tables(
    f: &Fabric,
    lids: &LidMap,
    l: usize,
    damage: f64,
    rng: &mut ChaCha8Rng,
) -> Lfts {
    let n = f.num_switches();
    let sp = n - l;
    let mut t = Lfts::new(n, lids.max_lid());
    for (lid, o) in lids.iter() {
        let (home, port) = crate::verify::test_ring::home(f, o);
        let up = 3 + (lid as usize % sp) as PortNum;
        for s in 0..n {
            let mut p = match (s == home, s < l, home < l) {
                (true, _, _) => port,
                (false, true, _) => up,
                (false, false, true) => 1 + home as PortNum,
                // toward another spine: down to a leaf, which goes up
                (false, false, false) => 1 + (lid as usize % l) as PortNum,
            };
            if home >= l && s < l {
                p = 3 + (home - l) as PortNum;
            }
            if rng.random_bool(damage) {
                // any port, port 0 and one beyond the switch's included
                let last = (2 + sp.max(l)) as PortNum + 1;
                p = match rng.random_range(0..=last + 1) {
                    x if x > last => NO_ROUTE,
                    x => x,
                };
            }
            t.set(s, lid, p);
        }
    }
    t
}

/// The fat tree of test case `case` (three sizes in turn): leaves,
/// spines, the fabric and its LIDs.
fn case_tree(case: usize) -> (usize, usize, Fabric, LidMap) {
    let (l, sp) = [(4, 2), (6, 3), (8, 4)][case % 3];
    let f = fat_tree(l, sp);
    let lids = LidMap::new(&f).unwrap();
    (l, sp, f, lids)
}

#[test]
fn census_gives_the_built_graphs_figures() {
    let mut rng = ChaCha8Rng::seed_from_u64(1717);
    let (mut census, mut loops, mut non_strict) = (0, 0, 0);
    for case in 0..60 {
        let (l, sp, f, lids) = case_tree(case);
        let damage = [0.0, 0.0, 0.05, 0.15][case / 3 % 4];
        let t = tables(&f, &lids, l, damage, &mut rng);
        // leaves rank 1, spines 0 (roots); every 5th case a root leaf,
        // whose links to the spines are up both ways: no census
        let root_leaf = case % 5 == 4;
        let ranks: Vec<u32> = (0..l + sp)
            .map(|s| u32::from(s < l && !(root_leaf && s == 0)))
            .collect();
        let opts = VerifyOptions {
            up_down_ranks: Some(ranks),
            all_paths: case % 2 == 1,
            max_findings_per_code: 3,
            ..VerifyOptions::default()
        };
        let exact = verify_with(&f, &lids, &t, &opts, false);
        let fast = verify_with(&f, &lids, &t, &opts, true);
        assert_eq!(fast, exact, "case {case}: damage {damage}, {opts:?}");
        let v010 = exact.counts.contains_key("V010");
        census += usize::from(!v010 && !root_leaf && exact.stats.cdg_edges > 0);
        loops += usize::from(!root_leaf && exact.stats.credit_loops > 0);
        non_strict += usize::from(root_leaf && !v010);
    }
    assert!(
        census >= 10 && loops >= 5 && non_strict >= 2,
        "{census} censused, {loops} with credit loops, {non_strict} root leaf"
    );
}

/// `cdg_masks` against `cdg::census` directly: random turns on VLs 0–2
/// (port 0 and host ports included), split into two overlapping halves —
/// the first put into masks, the second added as turn sets, as the fast
/// and exact passes hand them over — count what the census counts on
/// their union; a turn changing VL is refused with the masks untouched.
#[test]
fn masks_census_is_the_turn_sets_census() {
    use super::cdg::census;
    use super::cdg_masks::{add_turn_sets, census_masks};
    use fixedbitset::FixedBitSet;
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    for case in 0..40 {
        let (_, _, f, lids) = case_tree(case);
        let topo = super::topo::Topo::new(&f, &lids);
        let bits = *topo.tbase.last().unwrap();
        let density = [0.01, 0.05, 0.3][case % 3];
        let (mut all, mut first, mut second) = (Vec::new(), Vec::new(), Vec::new());
        for vl in 0..1 + case as u8 % 3 {
            let mut a = FixedBitSet::with_capacity(bits);
            let (mut x, mut y) = (a.clone(), a.clone());
            for b in 0..bits {
                if rng.random_bool(density) {
                    a.insert(b);
                    match rng.random_range(0..3) {
                        0 => x.insert(b),
                        1 => y.insert(b),
                        _ => {
                            x.insert(b);
                            y.insert(b);
                        }
                    }
                }
            }
            all.push(((vl, vl), a));
            first.push(((vl, vl), x));
            second.push(((vl, vl), y));
        }
        let want = census(&topo, &all);
        let mut masks = Vec::new();
        assert!(add_turn_sets(&topo, &first, &mut masks));
        assert!(add_turn_sets(&topo, &second, &mut masks));
        assert_eq!(census_masks(&topo, &masks), want, "case {case}");
        let before = masks.clone();
        let crossing = vec![((0u8, 1u8), FixedBitSet::with_capacity(bits))];
        assert!(!add_turn_sets(&topo, &crossing, &mut masks));
        assert_eq!(masks, before);
    }
}

/// Tables checked without ranks (min-hop's case): the graph is then
/// proven acyclic by the verifier's own ranks (`derived_ranks`,
/// `cdg_masks::down_up_vls`) or built and searched, and the verdict must
/// be the built graph's. Damage turning down then up must still show its
/// credit loops (a `down_up_vls` that passed everything would hide them).
#[test]
fn derived_ranks_keep_the_built_graphs_figures() {
    let mut rng = ChaCha8Rng::seed_from_u64(2717);
    let (mut clean, mut loops) = (0, 0);
    for case in 0..48 {
        let (l, _, f, lids) = case_tree(case);
        let damage = [0.0, 0.0, 0.05, 0.15][case / 3 % 4];
        let t = tables(&f, &lids, l, damage, &mut rng);
        let opts = VerifyOptions {
            all_paths: case % 2 == 1,
            max_findings_per_code: 3,
            ..VerifyOptions::default()
        };
        let exact = verify_with(&f, &lids, &t, &opts, false);
        let fast = verify_with(&f, &lids, &t, &opts, true);
        assert_eq!(fast, exact, "case {case}: damage {damage}, {opts:?}");
        clean += usize::from(exact.stats.credit_loops == 0 && exact.stats.cdg_edges > 0);
        loops += usize::from(exact.stats.credit_loops > 0);
    }
    assert!(
        clean >= 10 && loops >= 5,
        "{clean} clean, {loops} with credit loops"
    );
}

/// `cdg_masks::down_up_vls` against `updown::is_violation` turn by
/// turn: random turns on up to three VLs, random ranks (ties included, so
/// the GUID rule counts), on the fat tree; a turn from or to a host port
/// is never a violation. Each VL is judged alone (its graph is then
/// counted or built on its own by `cdg_figures`).
#[test]
fn down_up_vls_are_the_vls_of_violating_turns() {
    use super::cdg_masks::down_up_vls;
    use super::topo::{Link, Topo};
    use super::updown::is_violation;
    let mut rng = ChaCha8Rng::seed_from_u64(2726);
    let (mut none, mut all, mut some) = (0, 0, 0);
    for case in 0..200 {
        let (_, _, f, lids) = case_tree(case);
        let topo = Topo::new(&f, &lids);
        let n = topo.num_switches();
        let guids: Vec<u64> = f.switches().iter().map(|&s| f.node(s).guid.0).collect();
        let ranks: Vec<u32> = (0..n).map(|_| rng.random_range(0..3)).collect();
        let mut masks = Vec::new();
        let mut want = 0u16;
        let vls = 1 + case as u8 % 3;
        for vl in 0..vls {
            let density = [0.002, 0.01, 0.05][(case + usize::from(vl)) % 3];
            let mut m = vec![0u64; topo.link.len()];
            for s in 0..n {
                let b = topo.base[s] as usize;
                for o in 0..topo.num_ports(s) {
                    for q in 0..topo.num_ports(s) {
                        if !rng.random_bool(density) {
                            continue;
                        }
                        m[b + o] |= 1 << q;
                        let (Link::Switch(a, _), Link::Switch(c, _)) =
                            (topo.link[b + q], topo.link[b + o])
                        else {
                            continue;
                        };
                        if is_violation(&ranks, &guids, a as usize, s, c as usize) {
                            want |= 1 << vl;
                        }
                    }
                }
            }
            masks.push((vl, m));
        }
        assert_eq!(
            down_up_vls(&topo, &masks, &ranks, &guids),
            want,
            "case {case}"
        );
        match want.count_ones() {
            0 => none += 1,
            k if k == u32::from(vls) => all += 1,
            _ => some += 1,
        }
    }
    assert!(
        none >= 20 && all >= 20 && some >= 10,
        "{none} without, {all} with a down-up turn on every VL, {some} on some"
    );
}
