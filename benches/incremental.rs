//! Incremental re-routing (issue 16, `compile --previous`): on the
//! 11,664-host RLFT PGFT(3;18,18,36;1,18,18) routed intact by Dmodc, then
//! 1 and 10 random switch-to-switch cables cut (seeded), the route stage of
//! a full re-route of the degraded fabric against the incremental merge
//! (`route::incremental::repair`: keep the valid entries, the fresh ones
//! elsewhere, and the floor of entries any valid result must change),
//! which runs after that same fresh route, walking every column or only
//! those the cut touches (`Previous::untouched_valid`). Printed as ratios
//! to the machine reference (`benches/common`). `cargo bench --bench
//! incremental`.

mod common;

use routec::generate::faults::{FaultPlan, random_faults};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, LidMap};
use routec::route::incremental::{Previous, Restore, repair};
use routec::route::{Dmodc, Engine, RouteOptions};

fn degraded(f: &Fabric, links: usize) -> Fabric {
    let plan = FaultPlan {
        links,
        switches: 0,
        seed: 7,
    };
    f.apply_faults(&random_faults(f, &plan).expect("faults"))
        .expect("apply")
        .0
}

fn main() {
    let reference = common::reference();
    let intact = pgft(&PgftSpec::new(3, &[18, 18, 36], &[1, 18, 18], None)).expect("pgft");
    let opts = RouteOptions::default();
    let lids = LidMap::new(&intact).expect("lids");
    let before = Dmodc::default()
        .route(&intact, &lids, &opts)
        .expect("route");
    for cuts in [1, 10] {
        let f = degraded(&intact, cuts);
        let lids = LidMap::new(&f).expect("lids");
        // cutting cables keeps every switch, in the same order
        assert_eq!(f.num_switches(), intact.num_switches());
        let new_switch = vec![false; f.num_switches()];
        let new_cable: Vec<Vec<bool>> = f
            .switches()
            .iter()
            .map(|&n| vec![false; f.ports(n).len()])
            .collect();
        let fresh = Dmodc::default().route(&f, &lids, &opts).expect("route");
        // every column walked, and (the intact Dmodc tables verify clean
        // and cutting cables keeps every rank) only the touched ones
        let prev = |untouched_valid| Previous {
            lfts: &before.lfts,
            new_switch: &new_switch,
            new_cable: &new_cable,
            untouched_valid,
        };
        let (every, touched) = (prev(false), prev(true));
        assert_eq!(
            before.promise.up_down_ranks, fresh.promise.up_down_ranks,
            "cutting these cables keeps the ranks"
        );
        let route = common::best(3, || Dmodc::default().route(&f, &lids, &opts));
        let merge = common::best(3, || repair(&f, &lids, &every, &fresh, Restore::Engine));
        let merge_t = common::best(3, || repair(&f, &lids, &touched, &fresh, Restore::Engine));
        let r = repair(&f, &lids, &touched, &fresh, Restore::Engine);
        common::report(&format!("{cuts} cut: Dmodc route"), route, reference);
        common::report(
            &format!("{cuts} cut: merge, every column"),
            merge,
            reference,
        );
        common::report(
            &format!("{cuts} cut: merge, touched columns"),
            merge_t,
            reference,
        );
        eprintln!(
            "{cuts} cut: kept {}, changed {} in {} blocks (floor {} entries in {} blocks)",
            r.summary.kept,
            r.summary.changed,
            r.summary.changed_blocks,
            r.summary.floor_entries,
            r.summary.floor_blocks
        );
    }
}
