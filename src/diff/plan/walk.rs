//! One destination's union forwarding graph during an upload (seed
//! `opensm-unicast-routing-enhancements-2005.txt` §6: the switches that
//! "feed into" a changed one are what a change can affect).
//!
//! While a switch's entry for a LID is being rewritten it may forward by
//! its old or its new port, so the graph has up to two edges per switch.
//! The walk starts at every switch where packets for the LID start (as
//! `routec check` counts sources), reports a forwarding cycle if one is
//! reachable, and lists the turns (switch, in port, out port) packets can
//! take: a packet may arrive on an old route and leave on a new one, so a
//! turn pairs any reachable in-link with any old-or-new out-port. With
//! several lanes (`lanes.rs`) the walk is made once per lane its sources
//! may be on, from those sources only, and each lane's turns are counted
//! apart (turn index + lane × `Net::num_turns`).

use super::lanes::Lanes;
use super::net::{Hop, Net, Rows, Target, is_source};
use crate::model::{Lid, NO_ROUTE, PortNum};

/// An entry's state during the upload.
pub(super) const OLD: u8 = 0;
pub(super) const NEW: u8 = 1;
pub(super) const BOTH: u8 = 2;

/// How entries are read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum View {
    /// Every switch by its old entry.
    Old,
    /// Every switch by its new entry.
    New,
    /// By the upload state of each entry.
    Modes,
}

/// The tables and the upload state of every (switch, LID) entry.
pub(super) struct Tables<'a> {
    pub net: &'a Net,
    pub rows: &'a Rows,
    pub lanes: &'a Lanes,
    /// `OLD`, `NEW` or `BOTH` per (switch, LID), laid out as [`Rows`].
    pub modes: Vec<u8>,
    pub all_paths: bool,
    /// Upload states read each path on its new SL only (every source was
    /// handed its new SL before the first LFT write) rather than on its
    /// old or its new SL.
    pub sls_first: bool,
}

/// What one destination's walk found.
#[derive(Default)]
pub(super) struct DestWalk {
    /// Switches of a forwarding cycle, in order.
    pub cycle: Option<Vec<u32>>,
    /// Turn indices (`Net::turn`), sorted, once each.
    pub turns: Vec<u32>,
}

/// Per-thread working memory of a walk.
pub(super) struct Scratch {
    color: Vec<u8>,
    stack: Vec<(u32, u8)>,
    ins: Vec<(u32, PortNum)>,
    seen: Vec<u32>,
}

impl Scratch {
    pub fn new(nsw: usize) -> Scratch {
        Scratch {
            color: vec![0; nsw],
            stack: Vec::new(),
            ins: Vec::new(),
            seen: Vec::new(),
        }
    }
}

impl Tables<'_> {
    pub fn mode(&self, s: u32, lid: Lid) -> u8 {
        self.modes[self.rows.at(s, lid)]
    }

    pub fn set_mode(&mut self, s: u32, lid: Lid, m: u8) {
        self.modes[self.rows.at(s, lid)] = m;
    }

    /// Whether the entry differs between the tables and is not written yet.
    pub fn is_pending(&self, s: u32, lid: Lid) -> bool {
        self.mode(s, lid) == OLD && self.rows.old_port(s, lid) != self.rows.new_port(s, lid)
    }

    /// The ports switch `s` may forward `lid` by (the second `NO_ROUTE`
    /// when there is one).
    pub fn ports(&self, s: u32, lid: Lid, view: View) -> [u8; 2] {
        let (o, n) = (self.rows.old_port(s, lid), self.rows.new_port(s, lid));
        let mode = match view {
            View::Old => return [o, NO_ROUTE],
            View::New => return [n, NO_ROUTE],
            View::Modes => self.mode(s, lid),
        };
        match mode {
            OLD => [o, NO_ROUTE],
            NEW => [n, NO_ROUTE],
            _ if o == n => [o, NO_ROUTE],
            _ => [o, n],
        }
    }

    /// The lanes (bit set) of the path from `s` toward `lid` read by
    /// `view`: a union state may carry the old SL or the new one.
    fn lanes_of(&self, s: u32, lid: Lid, view: View) -> u16 {
        let (old, new) = match view {
            View::Old => (true, false),
            View::New => (false, true),
            View::Modes => (!self.sls_first, true),
        };
        self.lanes.of(s, lid, old, new)
    }

    /// Walks destination `t` from its sources, lane by lane; with
    /// `turns`, lists them.
    pub fn walk(&self, t: &Target, view: View, sc: &mut Scratch) -> DestWalk {
        let net = self.net;
        let mut out = DestWalk::default();
        let mut lanes = 1u16;
        if self.lanes.count() > 1 {
            lanes = (0..net.nsw as u32)
                .filter(|&s| is_source(net, t, s, self.all_paths))
                .fold(0, |m, s| m | self.lanes_of(s, t.lid, view));
        }
        while lanes != 0 {
            let lane = lanes.trailing_zeros();
            lanes &= lanes - 1;
            self.walk_lane(t, view, lane, sc, &mut out);
        }
        out.turns.sort_unstable();
        out.turns.dedup();
        out
    }

    /// [`Tables::walk`] from the sources on `lane`.
    fn walk_lane(&self, t: &Target, view: View, lane: u32, sc: &mut Scratch, out: &mut DestWalk) {
        let net = self.net;
        let one = self.lanes.count() == 1;
        for s in 0..net.nsw as u32 {
            if sc.color[s as usize] != 0
                || !is_source(net, t, s, self.all_paths)
                || !(one || self.lanes_of(s, t.lid, view) >> lane & 1 == 1)
            {
                continue;
            }
            sc.color[s as usize] = 1;
            sc.seen.push(s);
            sc.stack.push((s, 0));
            while let Some(top) = sc.stack.last_mut() {
                let (u, k) = *top;
                if k == 2 {
                    sc.color[u as usize] = 2;
                    sc.stack.pop();
                    continue;
                }
                top.1 += 1;
                let Hop::Switch { sw: w, port } =
                    net.hop(u, self.ports(u, t.lid, view)[k as usize])
                else {
                    continue;
                };
                sc.ins.push((w, port));
                match sc.color[w as usize] {
                    0 => {
                        sc.color[w as usize] = 1;
                        sc.seen.push(w);
                        sc.stack.push((w, 0));
                    }
                    1 if out.cycle.is_none() => {
                        let from = sc.stack.iter().position(|e| e.0 == w).unwrap_or(0);
                        out.cycle = Some(sc.stack[from..].iter().map(|e| e.0).collect());
                    }
                    _ => {}
                }
            }
        }
        if t.is_end || self.all_paths {
            let base = lane as usize * net.num_turns();
            for &(w, pin) in &sc.ins {
                for po in self.ports(w, t.lid, view) {
                    if matches!(net.hop(w, po), Hop::Switch { .. }) {
                        out.turns
                            .push((base + net.turn(w, pin, po) as usize) as u32);
                    }
                }
            }
        }
        for &s in &sc.seen {
            sc.color[s as usize] = 0;
        }
        sc.seen.clear();
        sc.ins.clear();
    }
}
