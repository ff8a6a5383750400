//! The rip-up rounds of the balanced engine (`src/route/sssp/reroute.rs`,
//! `formats/sssp.md` §2a) keep their bookkeeping right: after a round,
//! every link's recorded load equals the routes the tables send over it,
//! counted by an independent oracle (LFT walks from every end port's
//! switch to every end-port LID, `sssp::walk`). With LMC 1 and two hosts
//! per switch, so a port's LIDs and a switch's sources are both ripped up
//! together.

use std::collections::HashMap;

use crate::sssp::{walk, with_lmc};
use routec::generate::torus::{TorusSpec, torus};
use routec::model::Lfts;
use routec::route::opensm::SwitchGraph;
use routec::route::sssp::tree::{Graph, Tree};
use routec::route::sssp::weights::Weights;
use routec::route::sssp::{dests, lmc, reroute};

#[test]
fn loads_after_a_round_are_the_tables_loads() {
    let t = torus(&TorusSpec {
        dims: vec![4, 4],
        wrap: true,
        hosts: 2,
    })
    .unwrap();
    let (f, lids) = with_lmc(t, 1);
    let sg = SwitchGraph::new(&f);
    let d = dests::collect(&f, &lids, None);
    let n = f.num_switches();
    let ranks: Vec<u32> = (0..n as u32).collect();
    let gr = Graph::new(&sg, &ranks, dests::hosts_per_switch(&f, &d));
    let mut w = Weights::with_planes(sg.num_port_ends(), 2);
    let mut tree = Tree::new(n);
    let mut lfts = Lfts::new(n, lids.max_lid());
    let mut cols = lmc::Columns::new(n);
    for dest in &d.ends {
        lmc::route_port(&gr, &mut w, &mut tree, (&mut lfts, &mut cols), dest);
    }
    cols.flush(&mut lfts);
    let before = lfts.clone();
    for round in 0..2 {
        reroute::round(&gr, &d, &mut w, &mut lfts);
        // oracle: walk every (source end port, end-port LID) through the tables
        let mut walked: HashMap<(usize, u8), u64> = HashMap::new();
        for dest in &d.ends {
            for lid in dest.lid..dest.lid + dest.count {
                for src in &d.ends {
                    let links = walk(&f, &lfts, src.sw as usize, lid).expect("delivered");
                    for l in links {
                        *walked.entry(l).or_default() += 1;
                    }
                }
            }
        }
        let mut total = 0;
        for s in 0..n {
            for e in sg.ends(s) {
                let want = walked.get(&(s, sg.port[e])).copied().unwrap_or(0);
                assert_eq!(
                    w.total(e),
                    want,
                    "round {round}: switch {s} port {}",
                    sg.port[e]
                );
                total += want;
            }
        }
        assert!(total > 0);
    }
    // the rounds re-route (the first trees saw an unloaded fabric)
    assert_ne!(lfts, before, "no route moved");
}
