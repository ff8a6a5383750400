//! The LMC 0 port choice of one switch (algorithms.md §2.2; `osm_ucast_mgr.c`
//! `ucast_mgr_process_tbl`), one **block** of the port order at a time.
//!
//! OpenSM's port order lists the end ports of one leaf switch together
//! (`order.rs`), so consecutive targets mostly share their switch, hence
//! their least-hop port set. A *counted* block is a maximal run of CA/router
//! targets on one switch: the set is looked up once per block, and a block
//! on an own set (`sets.rs`) hands its ports out in turn with a local index
//! instead of a lookup per target; when its LIDs are consecutive (as
//! LID assignment usually leaves a leaf's hosts) the turn is written as one
//! slice (`fill.rs`). A *quiet* block is a maximal run of switch targets
//! (any switches): they move no counter, so while it lasts every set's port
//! stays what it was at its start, found once per set (`fill::Picks`).
//! (Adding a block's counters at once, per port of the set, measured slower
//! on t11: 272 against 247 ms of process CPU.)
//! Issue 17: the per-target lookups were about a quarter of the min-hop
//! route stage on the 11,664-host RLFT. Every target gets the port and
//! moves the counter exactly as the per-target rule does, in the same
//! order, so the bytes are OpenSM's either way.

use super::fill::{self, Picks};
use super::order::{NO_SWITCH, Target};
use super::sets::{NO_SET, PortSets};
use crate::model::NO_ROUTE;

/// Consecutive targets of the port order routed together: `order[start..end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Block {
    start: u32,
    end: u32,
    /// The targets' switch (counted blocks; [`NO_SWITCH`] for quiet ones).
    sw: u32,
    /// Switch targets only, of any switches: nothing is counted.
    quiet: bool,
    /// The first LID when the block's LIDs are `lid0, lid0 + 1, …`, else
    /// [`NOT_CONSECUTIVE`].
    lid0: u32,
}

/// [`Block::lid0`] of a block whose LIDs do not follow each other.
const NOT_CONSECUTIVE: u32 = u32::MAX;

/// Cuts the port order into blocks.
pub(super) fn blocks(order: &[Target]) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for (i, t) in order.iter().enumerate() {
        match out.last_mut() {
            Some(b) if same_block(&order[b.start as usize], t) => {
                if b.lid0 != NOT_CONSECUTIVE && b.lid0 + (i as u32 - b.start) != u32::from(t.lid) {
                    b.lid0 = NOT_CONSECUTIVE;
                }
                b.end = i as u32 + 1;
            }
            _ => out.push(Block {
                start: i as u32,
                end: i as u32 + 1,
                sw: if t.is_switch { NO_SWITCH } else { t.sw },
                quiet: t.is_switch,
                lid0: u32::from(t.lid),
            }),
        }
    }
    out
}

fn same_block(a: &Target, b: &Target) -> bool {
    (a.is_switch && b.is_switch) || (a.sw == b.sw && !a.is_switch && !b.is_switch)
}

/// Fills switch `s`'s row for LMC 0 with grouped sets, counters `cnt`
/// starting at 0: a target on an own set takes the set's next port in
/// turn (the port the counter scan would pick, `sets.rs`), others scan the
/// counters as OpenSM does. Only CA/router targets move counters.
pub(super) fn route_switch(
    sets: &mut PortSets,
    picks: &mut Picks,
    cnt: &mut [u32; 256],
    s: usize,
    order: &[Target],
    blocks: &[Block],
    row: &mut [u8],
) {
    let len = row.len();
    picks.reset(sets);
    // Counters of own sets' ports are read only by scans of other sets.
    let counted = sets.scans_counters();
    for b in blocks {
        let ts = &order[b.start as usize..b.end as usize];
        if b.quiet {
            fill::quiet(sets, picks, cnt, s, ts, row);
            continue;
        }
        picks.counters_moved();
        let x = b.sw;
        let in_row = ts.iter().filter(|t| (t.lid as usize) < len);
        if x != NO_SWITCH && x as usize == s {
            own_ports(in_row, cnt, row);
            continue;
        }
        let sid = if x == NO_SWITCH {
            NO_SET
        } else {
            sets.set_of[x as usize]
        };
        if sid == NO_SET {
            in_row.for_each(|t| row[t.lid as usize] = NO_ROUTE);
        } else if sets.own[sid as usize] {
            let lids = b.lid0 as usize..b.lid0 as usize + ts.len();
            if b.lid0 != NOT_CONSECUTIVE && lids.end <= len {
                fill::in_turn_slice(sets, sid as usize, &mut row[lids], cnt, counted);
            } else {
                in_turn(sets, sid as usize, in_row, cnt, row);
            }
        } else {
            let ports = sets.set(sid);
            for t in in_row {
                let port = super::assign::least_counter(ports, cnt);
                take(row, t, port, cnt);
            }
        }
    }
}

/// Writes `port` for counted target `t`, and counts it.
#[inline(always)]
fn take(row: &mut [u8], t: &Target, port: u8, cnt: &mut [u32; 256]) {
    row[t.lid as usize] = port;
    if port != NO_ROUTE {
        cnt[port as usize] += 1;
    }
}

/// Targets on the switch itself: their own port.
fn own_ports<'a>(ts: impl Iterator<Item = &'a Target>, cnt: &mut [u32; 256], row: &mut [u8]) {
    for t in ts {
        take(row, t, t.port, cnt);
    }
}

/// Targets on own set `i`: the set's ports in turn from where the last
/// counted target left them.
fn in_turn<'a>(
    sets: &mut PortSets,
    i: usize,
    ts: impl Iterator<Item = &'a Target>,
    cnt: &mut [u32; 256],
    row: &mut [u8],
) {
    let ports = &sets.ports[sets.first[i] as usize..sets.first[i + 1] as usize];
    let mut next = sets.next[i] as usize;
    for t in ts {
        take(row, t, ports[next], cnt);
        // a compare, not `%`: a division per target is measurable here
        next += 1;
        if next == ports.len() {
            next = 0;
        }
    }
    sets.next[i] = next as u32;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(sw: u32, lid: u16, is_switch: bool) -> Target {
        Target {
            lid,
            lmc: 0,
            sw,
            port: 1,
            is_switch,
        }
    }

    /// Counted blocks split on the switch; switch targets of any switches
    /// make one quiet block; consecutive LIDs are noticed.
    #[test]
    fn blocks_split_on_switch_and_kind() {
        let order = [
            t(3, 10, false),
            t(3, 11, false),
            t(3, 1, true),
            t(4, 2, true),
            t(4, 20, false),
            t(4, 22, false),
            t(NO_SWITCH, 30, false),
            t(NO_SWITCH, 31, false),
            t(3, 12, false),
        ];
        let got: Vec<(u32, u32, u32, bool, u32)> = blocks(&order)
            .iter()
            .map(|b| (b.start, b.end, b.sw, b.quiet, b.lid0))
            .collect();
        let x = NOT_CONSECUTIVE;
        assert_eq!(
            got,
            [
                (0, 2, 3, false, 10),
                (2, 4, NO_SWITCH, true, 1),
                (4, 6, 4, false, x),
                (6, 8, NO_SWITCH, false, 30),
                (8, 9, 3, false, 12)
            ]
        );
        assert!(blocks(&[]).is_empty());
    }
}
