//! The 2^LMC trees of one destination port: the GM-2 mapper's multiple
//! routes per destination "for route dispersion" (seed
//! `myrinet-gm2-mapper.txt`, "Routing" and "Route Computation"), carried by
//! IB's LMC: each LID offset of the port is a destination of its own with
//! its own LFT column, so a sender picks a route by picking the DLID.
//!
//! Offset k's tree is grown with a penalty on every link that offsets
//! 0..k−1 of the same port used (the seed's "search is done more than once
//! for every set of routes … to spread out routes in the local sense"), so
//! the trees part wherever shortest paths allow it. The offsets of one
//! port are routed one after the other, as OpenSM's sssp routes each LID of
//! a port in turn, so the penalties of one port are all the state needed.

use super::dests::Dest;
use super::tree::{Graph, NONE, Tree};
use super::weights::Weights;
use crate::model::{Lfts, NO_ROUTE};

/// Routes every LID of `d`: grows its trees, writes their LFT columns and
/// adds their loads to `w`.
pub fn route_port(gr: &Graph, w: &mut Weights, tree: &mut Tree, lfts: &mut Lfts, d: &Dest) {
    w.clear_penalties();
    for k in 0..d.count {
        tree.grow(gr, w, d.sw);
        write_column(gr, tree, lfts, d, d.lid + k);
        tree.count_sources(gr, Some(w));
        if k + 1 < d.count {
            let used: Vec<usize> = tree.used_links().collect();
            used.into_iter().for_each(|e| w.add_penalty(e));
        }
    }
    w.clear_penalties();
}

/// The LFT column of `lid` from `tree` (rooted at `d.sw`); switches the
/// tree does not reach keep `NO_ROUTE` from `Lfts::new`.
pub fn write_column(gr: &Graph, tree: &Tree, lfts: &mut Lfts, d: &Dest, lid: u16) {
    for &s in &tree.order {
        let via = tree.via[s as usize];
        let port = if via == NONE {
            d.port
        } else {
            gr.g.port[via as usize]
        };
        lfts.set(s as usize, lid, port);
    }
}

/// The column of `d`'s LIDs as a vector by switch (for switch LIDs routed
/// in parallel).
pub fn column(gr: &Graph, tree: &Tree, d: &Dest) -> Vec<u8> {
    let mut col = vec![NO_ROUTE; gr.num_switches()];
    for &s in &tree.order {
        let via = tree.via[s as usize];
        col[s as usize] = if via == NONE {
            d.port
        } else {
            gr.g.port[via as usize]
        };
    }
    col
}
