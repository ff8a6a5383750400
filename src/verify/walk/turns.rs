//! The turns of a destination's in-tree, which become the channel
//! dependency graph (algorithms.md §3.2): per SL when the paths toward the
//! destination use several, with the VL of every hop from the SL2VL tables
//! (`model::vl`), and the up/down violations among them.

use super::super::topo::{Link, Target, Topo};
use super::super::updown;
use super::{Acc, LaneProblem, WalkCtx};
use crate::model::{Lid, PortNum, Sl2Vl};

impl Acc {
    /// Marks the turns of the in-tree toward `lid`. Routes that dead-end
    /// still hold channels up to the switch that drops them, so their turns
    /// count; looping routes are reported as V002 and left out. The VL of a
    /// hop depends on the path's SL, so when the sources toward `lid` use
    /// several SLs each SL's part of the tree is a pass of its own (a
    /// switch may carry several). With real SL2VL tables the VL of a channel
    /// also depends on the switch's in port, so each switch first gathers
    /// the VLs it sends on; under the identity mapping that gathering (a
    /// scan of every leaf's ports per CA LID, once the hottest loop of the
    /// pass) is skipped.
    pub(super) fn collect_turns(&mut self, cx: &WalkCtx, lid: Lid, tgt: Target, sources: &[u32]) {
        if let Some(r) = cx.ranks {
            self.updown_turns(cx, r, lid);
        }
        if cx.path_sl.is_none() {
            return self.sl_turns(cx, lid, tgt, sources, 0, false);
        }
        let mut sls = 0u16;
        for &s in sources {
            if self.forwards(s) && self.weight(cx, s, tgt) > 0 {
                sls |= self.sls(cx, s, lid);
            }
        }
        if sls.count_ones() <= 1 {
            return self.sl_turns(
                cx,
                lid,
                tgt,
                sources,
                sls.trailing_zeros() as u8 & 15,
                false,
            );
        }
        while sls != 0 {
            let sl = sls.trailing_zeros() as u8;
            sls &= sls - 1;
            self.mark_sl_tree(cx, lid, tgt, sources, sl);
            self.sl_turns(cx, lid, tgt, sources, sl, true);
            for &s in &self.active {
                self.on_sl[s as usize] = false;
                self.vlmask[s as usize] = 0;
            }
        }
    }

    /// Up/down violations of the in-tree toward `lid` (SL-independent).
    fn updown_turns(&mut self, cx: &WalkCtx, ranks: &[u32], lid: Lid) {
        for i in 0..self.active.len() {
            let m = self.active[i] as usize;
            if !self.forwards(m as u32) {
                continue;
            }
            let n = self.nxt[m];
            if !self.forwards(n) {
                continue;
            }
            let k = self.nxt[n as usize] as usize;
            if updown::is_violation(ranks, cx.guids, m, n as usize, k) {
                let (q, o) = (self.nin[m], self.out[n as usize]);
                let e = self.updown.entry((n, q, o)).or_insert(lid);
                *e = (*e).min(lid);
            }
        }
    }

    /// Marks (`on_sl`) the switches that paths on `sl` toward the LID cross.
    fn mark_sl_tree(&mut self, cx: &WalkCtx, lid: Lid, tgt: Target, sources: &[u32], sl: u8) {
        if cx.path_sl.is_none() {
            return;
        }
        for &s in sources {
            if self.weight(cx, s, tgt) == 0 || self.sls(cx, s, lid) & 1 << sl == 0 {
                continue;
            }
            let mut cur = s;
            while cur != u32::MAX && !self.on_sl[cur as usize] && self.forwards(cur) {
                self.on_sl[cur as usize] = true;
                cur = self.nxt[cur as usize];
            }
            if cur != u32::MAX {
                self.on_sl[cur as usize] = true;
            }
        }
    }

    /// The turns of the in-tree on `sl`: all of it, or with `only_marked`
    /// the switches [`Self::mark_sl_tree`] marked.
    fn sl_turns(
        &mut self,
        cx: &WalkCtx,
        lid: Lid,
        tgt: Target,
        sources: &[u32],
        sl: u8,
        only_marked: bool,
    ) {
        if cx.port_map.is_none() {
            self.gather_vls(cx, lid, tgt, sources, sl, only_marked);
        }
        if let Some(op_vls) = cx.op_vls {
            self.check_first_hops(cx, op_vls, lid, tgt, sources, sl, only_marked);
        }
        for i in 0..self.active.len() {
            let m = self.active[i] as usize;
            if !self.forwards(m as u32) || (only_marked && !self.on_sl[m]) {
                continue;
            }
            let n = self.nxt[m];
            let (q, o) = (self.nin[m], self.out[n as usize]);
            let vout = cx.sl2vl.vl(n as usize, q, o, sl);
            if let Some(op_vls) = cx.op_vls
                && self.st[n as usize] == super::DELIVERED
            {
                self.check_lane(op_vls, lid, n, q, o, sl, vout);
            }
            if !self.forwards(n) {
                continue;
            }
            let bit = cx.topo.turn_bit(n as usize, q, o);
            // When the map ignores ports every channel toward the LID on
            // `sl` is on one VL, so the gathered masks would all be that.
            let mut vins = if cx.port_map.is_some() {
                1 << vout
            } else {
                self.vlmask[m]
            };
            while vins != 0 {
                let vin = vins.trailing_zeros() as u8;
                vins &= vins - 1;
                self.turns.insert((vin, vout), bit);
            }
        }
    }

    /// Records a hop on VL 15 (dropped) or beyond switch `s`'s VLs.
    #[allow(clippy::too_many_arguments)]
    fn check_lane(
        &mut self,
        op_vls: &[u8],
        lid: Lid,
        s: u32,
        in_port: PortNum,
        out_port: PortNum,
        sl: u8,
        vl: u8,
    ) {
        if vl < op_vls[s as usize] && vl != crate::model::vl::VL_DROP {
            return;
        }
        let p = LaneProblem {
            lid,
            sw: s,
            in_port,
            out_port,
            sl,
            vl,
        };
        if vl == crate::model::vl::VL_DROP {
            self.dropped.push(p);
        } else {
            self.beyond.push(p);
        }
    }

    /// The lanes of the hops that start at source switches: from each of
    /// their end ports to the out port toward the LID.
    #[allow(clippy::too_many_arguments)]
    fn check_first_hops(
        &mut self,
        cx: &WalkCtx,
        op_vls: &[u8],
        lid: Lid,
        tgt: Target,
        sources: &[u32],
        sl: u8,
        only_marked: bool,
    ) {
        for &s in sources {
            let si = s as usize;
            if self.weight(cx, s, tgt) == 0 || (only_marked && !self.on_sl[si]) {
                continue;
            }
            if !self.forwards(s) && self.st[si] != super::DELIVERED {
                continue;
            }
            if cx.path_sl.is_some() && self.sls(cx, s, lid) & 1 << sl == 0 {
                continue;
            }
            let out = self.out[si];
            if let Some(map) = cx.port_map {
                self.check_lane(op_vls, lid, s, 0, out, sl, map[sl as usize & 15]);
                continue;
            }
            // every end port's lane fine: nothing to report port by port
            let lanes = host_vls(cx, si, out, sl);
            let dropped = lanes & 1 << crate::model::vl::VL_DROP != 0;
            if cx.host_vl.is_some() && !dropped && lanes >> op_vls[si].min(15) == 0 {
                continue;
            }
            for p in 0..cx.topo.num_ports(si) {
                if matches!(cx.topo.link[cx.topo.base[si] as usize + p], Link::End(..)) {
                    let vl = cx.sl2vl.vl(si, p as u8, out, sl);
                    self.check_lane(op_vls, lid, s, p as u8, out, sl, vl);
                }
            }
        }
    }

    /// Sets `vlmask[s]` to the VLs switch `s` sends on toward the LID: from
    /// its own end ports (or itself, for switch-sourced routes) and from
    /// each in port that the in-tree uses, for paths on `sl` (only the
    /// marked part of the tree with `only_marked`).
    fn gather_vls(
        &mut self,
        cx: &WalkCtx,
        lid: Lid,
        tgt: Target,
        sources: &[u32],
        sl: u8,
        only_marked: bool,
    ) {
        for &s in sources {
            let si = s as usize;
            if !self.forwards(s) || self.weight(cx, s, tgt) == 0 {
                continue;
            }
            if only_marked && cx.path_sl.is_some() && self.sls(cx, s, lid) & 1 << sl == 0 {
                continue;
            }
            let out = self.out[si];
            let mut m = 0u16;
            if tgt.is_end && cx.topo.hosts[si] > 0 {
                m = host_vls(cx, si, out, sl);
            }
            if cx.all_paths || !tgt.is_end {
                m |= 1 << cx.sl2vl.vl(si, 0, out, sl);
            }
            self.vlmask[si] |= m;
        }
        for i in 0..self.active.len() {
            let m = self.active[i];
            if !self.forwards(m) || (only_marked && !self.on_sl[m as usize]) {
                continue;
            }
            let n = self.nxt[m as usize];
            if self.forwards(n) {
                let (q, o) = (self.nin[m as usize], self.out[n as usize]);
                self.vlmask[n as usize] |= 1 << cx.sl2vl.vl(n as usize, q, o, sl);
            }
        }
    }
}

/// The VLs that packets from switch `si`'s own end ports take out of port
/// `out` (only with real SL2VL tables: see [`Acc::collect_turns`]).
fn host_vls(cx: &WalkCtx, si: usize, out: PortNum, sl: u8) -> u16 {
    if let Some(t) = &cx.host_vl
        && (out as usize) < cx.topo.num_ports(si)
    {
        return t[(cx.topo.base[si] as usize + out as usize) * 16 + (sl as usize & 15)];
    }
    end_port_vls(cx.topo, cx.sl2vl, si, out, sl)
}

/// [`host_vls`] for every switch, out port and SL.
pub(crate) fn host_vl_table(topo: &Topo, sl2vl: &Sl2Vl) -> Vec<u16> {
    let mut t = vec![0u16; topo.link.len() * 16];
    for s in (0..topo.num_switches()).filter(|&s| topo.hosts[s] > 0) {
        for out in 0..topo.num_ports(s) {
            for sl in 0..16u8 {
                t[(topo.base[s] as usize + out) * 16 + sl as usize] =
                    end_port_vls(topo, sl2vl, s, out as PortNum, sl);
            }
        }
    }
    t
}

fn end_port_vls(topo: &Topo, sl2vl: &Sl2Vl, si: usize, out: PortNum, sl: u8) -> u16 {
    let cx = (topo, sl2vl);
    let mut m = 0u16;
    for p in 0..cx.0.num_ports(si) {
        if matches!(cx.0.link[cx.0.base[si] as usize + p], Link::End(..)) {
            m |= 1 << cx.1.vl(si, p as u8, out, sl);
        }
    }
    m
}
