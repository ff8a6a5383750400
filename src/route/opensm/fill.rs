//! The two bulk writes of `blocks.rs` (algorithms.md §2.2, issue 17):
//! a counted block on an own set whose LIDs follow each other, written as
//! one slice of the set's ports in turn; and a quiet block (switch
//! targets), where every target takes its set's current port, found once
//! per set while no counter moves.

use super::assign::least_counter;
use super::order::{NO_SWITCH, Target};
use super::sets::{NO_SET, PortSets};
use crate::model::NO_ROUTE;

/// The port each set would give a switch target now, kept until a counted
/// block moves the counters (`epoch`).
#[derive(Default)]
pub(super) struct Picks {
    port: Vec<u8>,
    /// The epoch `port[i]` was found in; stale when behind `now`.
    seen: Vec<u32>,
    now: u32,
}

impl Picks {
    /// Forgets every pick: a new switch, new sets.
    pub fn reset(&mut self, sets: &PortSets) {
        let n = sets.own.len();
        self.port.clear();
        self.port.resize(n, NO_ROUTE);
        self.seen.clear();
        self.seen.resize(n, 0);
        self.now = 1;
    }

    /// Counters may have moved: every pick is stale.
    #[inline]
    pub fn counters_moved(&mut self) {
        self.now += 1;
    }

    /// The port of set `sid` for a target that moves no counter: the own
    /// set's next port in turn, or OpenSM's counter scan.
    #[inline]
    fn pick(&mut self, sets: &PortSets, cnt: &[u32; 256], sid: u16) -> u8 {
        let i = sid as usize;
        if self.seen[i] != self.now {
            let ports = sets.set(sid);
            self.port[i] = if sets.own[i] {
                ports[sets.next[i] as usize]
            } else {
                least_counter(ports, cnt)
            };
            self.seen[i] = self.now;
        }
        self.port[i]
    }
}

/// Switch targets `ts` (no counter moves): their own port on `s`, no route
/// without a least-hop port, else their set's current port.
pub(super) fn quiet(
    sets: &PortSets,
    picks: &mut Picks,
    cnt: &[u32; 256],
    s: usize,
    ts: &[Target],
    row: &mut [u8],
) {
    for t in ts {
        let Some(slot) = row.get_mut(t.lid as usize) else {
            continue;
        };
        let x = t.sw;
        *slot = if x as usize == s {
            t.port
        } else if x == NO_SWITCH {
            NO_ROUTE
        } else {
            match sets.set_of[x as usize] {
                NO_SET => NO_ROUTE,
                sid => picks.pick(sets, cnt, sid),
            }
        };
    }
}

/// Counted targets on own set `i` with consecutive LIDs, `out` their
/// entries: the set's ports in turn from where the last counted target
/// left them, each counted once. The same bytes as target by target
/// (`blocks::in_turn`), written as a slice: a one-port set is a fill, a
/// turn that does not wrap is a copy. `counted` false skips the counters
/// when no scan will read them (`PortSets::scans_counters`).
pub(super) fn in_turn_slice(
    sets: &mut PortSets,
    i: usize,
    out: &mut [u8],
    cnt: &mut [u32; 256],
    counted: bool,
) {
    let ports = &sets.ports[sets.first[i] as usize..sets.first[i + 1] as usize];
    let (k, next) = (ports.len(), sets.next[i] as usize);
    let n = out.len();
    if k == 1 {
        out.fill(ports[0]);
        if counted {
            cnt[ports[0] as usize] += n as u32;
        }
        return;
    }
    if n <= k - next {
        out.copy_from_slice(&ports[next..next + n]);
    } else {
        let mut j = next;
        for slot in out.iter_mut() {
            *slot = ports[j];
            j += 1;
            if j == k {
                j = 0;
            }
        }
    }
    let end = (next + n) % k;
    sets.next[i] = end as u32;
    if !counted {
        return;
    }
    // Every port gets n / k, and the n % k ports from `next` on one more
    // (no division per port: one was a third of the stage on t11).
    let all = (n / k) as u32;
    if all > 0 {
        ports.iter().for_each(|&p| cnt[p as usize] += all);
    }
    let more = if end >= next {
        &ports[next..end]
    } else {
        ports[next..].iter().for_each(|&p| cnt[p as usize] += 1);
        &ports[..end]
    };
    more.iter().for_each(|&p| cnt[p as usize] += 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One own set of three ports (4, 7, 9) given by hand.
    fn three_ports(next: u32) -> PortSets {
        let mut sets = PortSets::default();
        sets.first = vec![0, 3];
        sets.ports = vec![4, 7, 9];
        sets.own = vec![true];
        sets.next = vec![next];
        sets
    }

    /// Worked by hand: from turn 2 (port 9), five targets take 9 4 7 9 4;
    /// port 9 and 4 are counted twice, 7 once, the next turn is 1.
    #[test]
    fn a_slice_wraps_and_counts_like_one_target_at_a_time() {
        let mut sets = three_ports(2);
        let mut cnt = [0u32; 256];
        let mut out = [0u8; 5];
        in_turn_slice(&mut sets, 0, &mut out, &mut cnt, true);
        assert_eq!(out, [9, 4, 7, 9, 4]);
        assert_eq!((cnt[4], cnt[7], cnt[9]), (2, 1, 2));
        assert_eq!(sets.next[0], 1);
        let mut short = [0u8; 2];
        in_turn_slice(&mut sets, 0, &mut short, &mut cnt, true);
        assert_eq!(short, [7, 9]);
        assert_eq!((cnt[4], cnt[7], cnt[9]), (2, 2, 3));
        assert_eq!(sets.next[0], 0);
        let before = cnt;
        in_turn_slice(&mut sets, 0, &mut out, &mut cnt, false);
        assert_eq!((out, sets.next[0], cnt), ([4, 7, 9, 4, 7], 2, before));
    }

    /// Switch targets: own port on the switch itself, NO_ROUTE without a
    /// set, the set's current port otherwise, counters untouched.
    #[test]
    fn quiet_targets_take_the_current_turn() {
        let mut sets = three_ports(1);
        sets.set_of = vec![0, NO_SET, 0];
        let mut picks = Picks::default();
        picks.reset(&sets);
        let cnt = [0u32; 256];
        let t = |sw, lid| Target {
            lid,
            lmc: 0,
            sw,
            port: 0,
            is_switch: true,
        };
        let mut row = [NO_ROUTE - 1; 5];
        quiet(
            &sets,
            &mut picks,
            &cnt,
            2,
            &[t(0, 1), t(1, 2), t(2, 3), t(0, 9)],
            &mut row,
        );
        assert_eq!(row, [NO_ROUTE - 1, 7, NO_ROUTE, 0, NO_ROUTE - 1]);
        sets.next[0] = 2;
        quiet(&sets, &mut picks, &cnt, 2, &[t(0, 4)], &mut row);
        assert_eq!(row[4], 7, "a pick holds until the counters move");
        picks.counters_moved();
        quiet(&sets, &mut picks, &cnt, 2, &[t(0, 4)], &mut row);
        assert_eq!(row[4], 9);
    }
}
