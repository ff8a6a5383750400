//! The up*/down* rule (Schroeder et al., Autonet; OpenSM
//! `osm_ucast_updn.c`, algorithms.md §2.3): a legal route never takes an up
//! link after a down link.

use super::topo::{Link, Topo};

/// Whether the link from a switch of rank `cur` (GUID `cur_id`) to one of
/// rank `rem` goes up. OpenSM's `updn_get_dir`: toward a lower rank is up;
/// between two roots (rank 0) is up; between equal non-zero ranks the link
/// goes up from the higher GUID to the lower one, so that equal-rank links
/// get one fixed direction and cannot close a cycle.
pub fn is_up(cur: u32, cur_id: u64, rem: u32, rem_id: u64) -> bool {
    if cur == 0 && rem == 0 {
        return true;
    }
    match cur.cmp(&rem) {
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => cur_id > rem_id,
    }
}

/// Whether the turn `a → b → c` (switch indices) goes down then up.
pub(crate) fn is_violation(ranks: &[u32], guids: &[u64], a: usize, b: usize, c: usize) -> bool {
    let r = |s: usize| ranks.get(s).copied().unwrap_or(u32::MAX);
    let down_in = !is_up(r(a), guids[a], r(b), guids[b]);
    let up_out = is_up(r(b), guids[b], r(c), guids[c]);
    down_in && up_out
}

/// Whether `ranks` give every switch-to-switch link of `topo` one up and
/// one down direction. Then "up" means "toward a lower (rank, GUID)", a
/// strict order of the switches, so a route's up hops can never return to
/// where they began, nor its down hops: a cycle of the channel dependency
/// graph needs a down-then-up turn (Schroeder et al., Autonet §6.6.1, the
/// up*/down* deadlock-freedom argument). With no such turn among the
/// routes' turns (no V010), the graph is acyclic. Links between two roots
/// (both up) or between equal ranks and GUIDs (both down) break the order.
pub(crate) fn orients_every_link(topo: &Topo, ranks: &[u32], guids: &[u64]) -> bool {
    let r = |s: usize| ranks.get(s).copied().unwrap_or(u32::MAX);
    (0..topo.num_switches()).all(|s| {
        (0..topo.num_ports(s)).all(|p| match topo.link[topo.base[s] as usize + p] {
            Link::Switch(m, _) => {
                let m = m as usize;
                is_up(r(s), guids[s], r(m), guids[m]) != is_up(r(m), guids[m], r(s), guids[s])
            }
            _ => true,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opensm_direction_rule() {
        assert!(is_up(1, 5, 0, 9)); // toward the root
        assert!(!is_up(0, 9, 1, 5)); // away from it
        assert!(is_up(0, 1, 0, 2)); // root to root: always up
        assert!(is_up(0, 2, 0, 1));
        assert!(is_up(2, 7, 2, 3)); // equal rank: up from the higher GUID
        assert!(!is_up(2, 3, 2, 7));
        // leaf(2) -> spine(1) -> leaf(2) is fine; spine -> leaf -> spine is not
        let ranks = [2, 1, 2];
        let guids = [10, 11, 12];
        assert!(!is_violation(&ranks, &guids, 0, 1, 2));
        assert!(is_violation(&[1, 2, 1], &guids, 0, 1, 2));
    }
}
