//! The candidate groups of a row, formula (1) of the Dmodc paper (§3.4)
//! with the down-path variant (`routes.rs`' module doc): counted for every
//! target at once, then listed for the targets whose count does not say
//! which they are; split from [`super::routes`], whose rows use them.

use super::costs::INF;
use super::groups::Dir;
use super::hits::count_hits;
use super::routes::{RouteCtx, Scratch};

impl RouteCtx<'_> {
    /// Counts the candidate groups of switch `s` for every target at once
    /// (byte-wide passes over the cost rows), remembering the only one when
    /// there is one. A group Ω hits target t when c[Ω][t] + 1 = `want[t]`,
    /// `want` being c[s][t] where the group's direction is the mode of t
    /// and 0 elsewhere (`saturating_add` never gives 0); t = s never hits.
    pub(super) fn count_candidates(&self, s: usize, sc: &mut Scratch) {
        let r = self.r;
        let rank_s = r.rank[s];
        modes(
            self.costs.row(s),
            &r.rank,
            rank_s,
            &mut sc.down_mode,
            &mut sc.want_up,
            &mut sc.want_down,
        );
        sc.count.fill(0);
        sc.first.fill(0);
        sc.up_groups.clear();
        sc.down_groups.clear();
        sc.level_groups.clear();
        for (gi, g) in r.groups(s).iter().enumerate() {
            match g.dir {
                Dir::Level => sc.level_groups.push(gi as u8),
                Dir::Up => sc.up_groups.push(gi as u8),
                Dir::Down => sc.down_groups.push(gi as u8),
            }
        }
        let groups = r.groups(s);
        let row = |gi: u8| self.costs.row(groups[gi as usize].peer as usize);
        let Scratch {
            want_up,
            want_down,
            count,
            first,
            up_groups,
            down_groups,
            ..
        } = sc;
        count_hits(up_groups, row, want_up, count, first);
        // Down mode needs rank(t) < rank(s): internal order is by rank, so
        // down groups only ever hit the targets before s's rank.
        let below = r.rank_start[rank_s as usize];
        count_hits(down_groups, row, &want_down[..below], count, first);
    }

    /// The candidate groups C_{s,t} (indices into the groups of `s`), in
    /// group (neighbour GUID) order.
    pub(super) fn candidates(&self, s: usize, t: usize, sc: &mut Scratch) {
        sc.cand.clear();
        let cnt = sc.count[t];
        if cnt == 1 {
            sc.cand.push(sc.first[t]);
            return;
        }
        let want_down = sc.down_mode[t];
        // Every group of the wanted direction qualifies (intact fat-trees).
        let all = if want_down {
            &sc.down_groups
        } else {
            &sc.up_groups
        };
        if all.len() == cnt as usize {
            sc.cand.extend_from_slice(all);
            return;
        }
        let c = self.costs.get(s, t);
        for (gi, g) in self.r.groups(s).iter().enumerate() {
            let dir_ok = if want_down {
                g.dir == Dir::Down
            } else {
                g.dir == Dir::Up
            };
            if dir_ok && self.costs.get(g.peer as usize, t).wrapping_add(1) == c {
                sc.cand.push(gi as u8);
            }
        }
        debug_assert_eq!(sc.cand.len(), cnt as usize);
    }
}

/// The mode of every target t from row s (cost `cs[t]`, rank `rank[t]`):
/// down mode when c[s][t] = rank(s) − rank(t) (a down path), with `want_up`
/// / `want_down` c[s][t] on the side of the mode and 0 on the other (and
/// both 0 where c = ∞). Indexed over slices cut to one length, with `&`
/// on bools, so the loop compiles to byte-wide vector code (issue 17:
/// the zipped iterator chain it replaces did not).
#[allow(clippy::needless_range_loop)] // indexing is the point: see above
fn modes(
    cs: &[u8],
    rank: &[u8],
    rank_s: u8,
    down_mode: &mut [bool],
    want_up: &mut [u8],
    want_down: &mut [u8],
) {
    let n = cs.len();
    let (rank, down_mode) = (&rank[..n], &mut down_mode[..n]);
    let (want_up, want_down) = (&mut want_up[..n], &mut want_down[..n]);
    for t in 0..n {
        let (c, rt) = (cs[t], rank[t]);
        let finite = c != INF;
        let down = finite & (rt <= rank_s) & (c == rank_s.wrapping_sub(rt));
        down_mode[t] = down;
        want_up[t] = if finite & !down { c } else { 0 };
        want_down[t] = if down { c } else { 0 };
    }
}

#[cfg(test)]
mod tests {
    use super::{INF, modes};

    /// Against the definition of routes.rs' module doc, target by target:
    /// down mode exactly when c[s][t] = rank(s) − rank(t), the wanted cost
    /// on the mode's side only, nothing where c = ∞ — over every cost and
    /// rank around the edge cases.
    #[test]
    fn modes_are_the_definition() {
        let costs: Vec<u8> = [0u8, 1, 2, 3, 4, 5, 254, INF].repeat(6);
        let ranks: Vec<u8> = (0..costs.len()).map(|t| (t / 8) as u8).collect();
        for rank_s in 0..7u8 {
            let n = costs.len();
            let (mut dm, mut up, mut down) = (vec![true; n], vec![9u8; n], vec![9u8; n]);
            modes(&costs, &ranks, rank_s, &mut dm, &mut up, &mut down);
            for t in 0..n {
                let (c, rt) = (costs[t], ranks[t]);
                let is_down =
                    c != INF && rt <= rank_s && u16::from(c) + u16::from(rt) == u16::from(rank_s);
                assert_eq!(dm[t], is_down, "rank {rank_s}, t {t}");
                let (want_up, want_down) = match (c == INF, is_down) {
                    (true, _) => (0, 0),
                    (false, true) => (0, c),
                    (false, false) => (c, 0),
                };
                assert_eq!(
                    (up[t], down[t]),
                    (want_up, want_down),
                    "rank {rank_s}, t {t}"
                );
            }
        }
    }
}
