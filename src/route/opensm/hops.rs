//! Least-hop distances between switches: OpenSM's min-hop tables, stored
//! compactly.
//!
//! OpenSM keeps `hops[switch][lid][port]` (`osm_ucast_mgr_build_lid_matrices`,
//! algorithms.md §2.1): rows only for switch LIDs, one byte per port. With
//! hop weights 1 its fix-point is `hops[s][x][p] = 1 + dist(peer(s, p), x)`
//! for every switch-facing port, so one `u8` distance per switch pair holds
//! the whole table (S² bytes instead of S²·P) and per-port hops are derived
//! on the fly.

/// `dist(s, x)` for every pair of switches, [`super::NO_PATH`] when
/// unreachable: the model's one all-pairs switch BFS.
pub type Distances = crate::model::hops::SwitchHops;

#[cfg(test)]
mod tests {
    use super::super::{NO_PATH, SwitchGraph};
    use super::*;
    use crate::route::opensm::testfab;

    #[test]
    fn distances_on_a_line_with_a_parallel_cable() {
        // s0 =(2 cables)= s1 - s2 ; s3 isolated
        let f = testfab::line_with_island();
        let g = SwitchGraph::new(&f);
        let d = Distances::compute(&f);
        assert_eq!(d.get(0, 2), 2);
        assert_eq!(d.get(2, 0), 2);
        assert_eq!(d.get(1, 1), 0);
        assert_eq!(d.get(0, 1), 1);
        assert_eq!(d.get(3, 0), NO_PATH);
        assert_eq!(g.ends(0).len(), 2, "parallel cables are two port-ends");
    }
}
