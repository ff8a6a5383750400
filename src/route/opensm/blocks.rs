//! The LMC 0 port choice of one switch (algorithms.md §2.2; `osm_ucast_mgr.c`
//! `ucast_mgr_process_tbl`), one **block** of the port order at a time.
//!
//! OpenSM's port order lists the end ports of one leaf switch together
//! (`order.rs`), so consecutive targets mostly share their switch, hence
//! their least-hop port set. A block is a maximal run of such targets
//! (same switch, all CA/router ports or all switch ports): the set is
//! looked up once per block, and a block on an own set (`sets.rs`) hands
//! its ports out in turn with a local index instead of a lookup per target.
//! (Adding a block's counters at once, per port of the set, measured slower
//! on t11: 272 against 247 ms of process CPU.)
//! Issue 17: the per-target lookups were about a quarter of the min-hop
//! route stage on the 11,664-host RLFT. Every target gets the port and
//! moves the counter exactly as the per-target rule does, in the same
//! order, so the bytes are OpenSM's either way.

use super::order::{NO_SWITCH, Target};
use super::sets::{NO_SET, PortSets};
use crate::model::NO_ROUTE;

/// Consecutive targets of the port order with the same switch and kind:
/// `order[start..end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Block {
    start: u32,
    end: u32,
}

/// Cuts the port order into blocks.
pub(super) fn blocks(order: &[Target]) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for (i, t) in order.iter().enumerate() {
        match out.last_mut() {
            Some(b) if same_block(&order[b.start as usize], t) => b.end = i as u32 + 1,
            _ => out.push(Block {
                start: i as u32,
                end: i as u32 + 1,
            }),
        }
    }
    out
}

fn same_block(a: &Target, b: &Target) -> bool {
    a.sw == b.sw && a.is_switch == b.is_switch
}

/// Fills switch `s`'s row for LMC 0 with grouped sets, counters `cnt`
/// starting at 0: a target on an own set takes the set's next port in
/// turn (the port the counter scan would pick, `sets.rs`), others scan the
/// counters as OpenSM does. Only CA/router targets move counters.
pub(super) fn route_switch(
    sets: &mut PortSets,
    cnt: &mut [u32; 256],
    s: usize,
    order: &[Target],
    blocks: &[Block],
    row: &mut [u8],
) {
    let len = row.len();
    for b in blocks {
        let ts = &order[b.start as usize..b.end as usize];
        let (x, counts) = (ts[0].sw, !ts[0].is_switch);
        let ts = ts.iter().filter(|t| (t.lid as usize) < len);
        if x != NO_SWITCH && x as usize == s {
            own_ports(ts, counts, cnt, row);
            continue;
        }
        let sid = if x == NO_SWITCH {
            NO_SET
        } else {
            sets.set_of[x as usize]
        };
        if sid == NO_SET {
            ts.for_each(|t| row[t.lid as usize] = NO_ROUTE);
        } else if sets.own[sid as usize] {
            in_turn(sets, sid as usize, ts, counts, cnt, row);
        } else {
            let ports = sets.set(sid);
            for t in ts {
                let port = super::assign::least_counter(ports, cnt);
                take(row, t, port, counts, cnt);
            }
        }
    }
}

/// Writes `port` for target `t`, and counts it if the target's kind does.
#[inline(always)]
fn take(row: &mut [u8], t: &Target, port: u8, counts: bool, cnt: &mut [u32; 256]) {
    row[t.lid as usize] = port;
    if counts && port != NO_ROUTE {
        cnt[port as usize] += 1;
    }
}

/// Targets on the switch itself: their own port.
fn own_ports<'a>(
    ts: impl Iterator<Item = &'a Target>,
    counts: bool,
    cnt: &mut [u32; 256],
    row: &mut [u8],
) {
    for t in ts {
        take(row, t, t.port, counts, cnt);
    }
}

/// Targets on own set `i`: the set's ports in turn from where the last
/// counted target left them (only counted targets move the turn).
fn in_turn<'a>(
    sets: &mut PortSets,
    i: usize,
    ts: impl Iterator<Item = &'a Target>,
    counts: bool,
    cnt: &mut [u32; 256],
    row: &mut [u8],
) {
    let ports = &sets.ports[sets.first[i] as usize..sets.first[i + 1] as usize];
    let mut next = sets.next[i] as usize;
    for t in ts {
        take(row, t, ports[next], counts, cnt);
        if counts {
            // a compare, not `%`: a division per target is measurable here
            next += 1;
            if next == ports.len() {
                next = 0;
            }
        }
    }
    sets.next[i] = next as u32;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(sw: u32, is_switch: bool) -> Target {
        Target {
            lid: 1,
            lmc: 0,
            sw,
            port: 1,
            is_switch,
        }
    }

    #[test]
    fn blocks_split_on_switch_and_kind() {
        let order = [
            t(3, false),
            t(3, false),
            t(3, true),
            t(4, false),
            t(NO_SWITCH, false),
            t(NO_SWITCH, false),
            t(3, false),
        ];
        let got: Vec<(u32, u32)> = blocks(&order).iter().map(|b| (b.start, b.end)).collect();
        assert_eq!(got, [(0, 2), (2, 3), (3, 4), (4, 6), (6, 7)]);
        assert!(blocks(&[]).is_empty());
    }
}
