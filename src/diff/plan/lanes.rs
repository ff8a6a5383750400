//! Virtual lanes in an upload plan (`formats/diff-plan.md`, "Virtual
//! lanes").
//!
//! A layered routing (Dmodc's escape VLs, `--vls N` layering) is
//! deadlock-free only VL by VL: its channel dependency graph on one VL may
//! well be cyclic. So the plan keeps one graph per *lane*, a set of VLs a
//! packet may travel on. A packet keeps its SL from source to destination
//! (the SM gives the source its path SL); the switches' SL2VL tables map
//! it to a VL. During an upload a source may still hold its old path SL or
//! already its new one, and a switch may map an SL by its old or its new
//! SL2VL table, so:
//! - each (source switch, LID) path may be on the lane of its old SL or
//!   of its new SL, in every union state (only the pure old and the pure
//!   new tables read one of them);
//! - every VL an SL maps to, old or new, is merged into one lane (a
//!   packet may change between them mid-path; a cycle among several VLs
//!   of a lane is a cycle of the lane's graph, so one acyclic graph per
//!   lane is sufficient).
//!
//! Lanes need SL2VL tables that map an SL the same way on every port (the
//! plans routec writes); with per-port tables, or without any VL plan,
//! every path is on one lane, as before.

use super::net::Rows;
use crate::model::vl::IDENTITY;
use crate::model::{Fabric, Lid, TableSet};

/// The lanes of an upload and each (switch, LID) path's old and new lane.
pub(super) struct Lanes {
    /// Per lane, the VLs it stands for (ascending).
    pub vls: Vec<Vec<u8>>,
    /// Old and new lane of each path, laid out as [`Rows`] (empty when
    /// there is one lane).
    old: Vec<u8>,
    new: Vec<u8>,
    nsw: usize,
}

/// SL → VL of a side's tables, when every port maps alike.
type SlMap = [u8; 16];

impl Lanes {
    /// One lane for every path.
    pub fn one(nsw: usize) -> Lanes {
        Lanes {
            vls: vec![vec![0]],
            old: Vec::new(),
            new: Vec::new(),
            nsw,
        }
    }

    /// The lanes of uploading `new` over `old` on `fabric` (`rows` gives
    /// the layout); `Err` says why every path goes on one lane.
    pub fn build(
        fabric: &Fabric,
        rows: &Rows,
        old: &TableSet,
        new: &TableSet,
    ) -> Result<Lanes, String> {
        let nsw = fabric.num_switches();
        if old.vl.is_none() && new.vl.is_none() {
            return Ok(Lanes::one(nsw));
        }
        let (om, nm) = (sl_map(old)?, sl_map(new)?);
        let (osl, nsl) = (
            path_sls(nsw, rows, (old, &rows.old_ix)),
            path_sls(nsw, rows, (new, &rows.new_ix)),
        );
        Ok(Lanes::of_sides(nsw, (&om, osl), (&nm, nsl)))
    }

    /// The lanes of `set` (OLD's when `old`, else NEW's) alone: each VL a
    /// lane of its own. For the pure OLD and NEW checks, where every
    /// switch maps by that side's SL2VL tables, so merging VLs with the
    /// other side's would see cycles those tables do not have.
    pub fn side(fabric: &Fabric, rows: &Rows, set: &TableSet, old: bool) -> Result<Lanes, String> {
        let nsw = fabric.num_switches();
        if set.vl.is_none() {
            return Ok(Lanes::one(nsw));
        }
        let m = sl_map(set)?;
        let ix = if old { &rows.old_ix } else { &rows.new_ix };
        let sl = path_sls(nsw, rows, (set, ix));
        Ok(Lanes::of_sides(nsw, (&m, sl), (&m, Vec::new())))
    }

    /// Lanes from each side's SL → VL map and path SLs.
    fn of_sides(nsw: usize, (om, osl): (&SlMap, Vec<u8>), (nm, nsl): (&SlMap, Vec<u8>)) -> Lanes {
        let mut used = [false; 16];
        osl.iter()
            .chain(&nsl)
            .for_each(|&sl| used[usize::from(sl & 15)] = true);
        let lane_of_vl = merge_vls(&used, om, nm);
        let lanes = lane_of_vl
            .iter()
            .filter(|&&l| l != NO_LANE)
            .max()
            .map_or(0, |&l| l + 1);
        if lanes <= 1 {
            return Lanes::one(nsw);
        }
        let vls = (0..lanes)
            .map(|l| {
                (0..16u8)
                    .filter(|&v| lane_of_vl[usize::from(v)] == l)
                    .collect()
            })
            .collect();
        let lane = |m: &SlMap, sl: u8| lane_of_vl[usize::from(m[usize::from(sl & 15)] & 15)];
        let (otab, ntab): (Vec<u8>, Vec<u8>) =
            (0..16u8).map(|sl| (lane(om, sl), lane(nm, sl))).unzip();
        Lanes {
            vls,
            old: osl.iter().map(|&sl| otab[usize::from(sl & 15)]).collect(),
            new: nsl.iter().map(|&sl| ntab[usize::from(sl & 15)]).collect(),
            nsw,
        }
    }

    /// Number of lanes.
    pub fn count(&self) -> usize {
        self.vls.len()
    }

    /// Lanes (bit set) the path from switch `s` toward `lid` may be on:
    /// its old lane, its new one, or either.
    pub fn of(&self, s: u32, lid: Lid, old: bool, new: bool) -> u16 {
        if self.old.is_empty() {
            return 1;
        }
        let i = lid as usize * self.nsw + s as usize;
        let bit = |v: &[u8]| v.get(i).map_or(1, |&l| 1u16 << l);
        // one side's lanes (`Lanes::side`) keep one array for both
        let nv = if self.new.is_empty() {
            &self.old
        } else {
            &self.new
        };
        (if old { bit(&self.old) } else { 0 }) | (if new { bit(nv) } else { 0 })
    }
}

/// No lane: a VL no used SL maps to.
const NO_LANE: u8 = u8::MAX;

/// The lane of each VL: the VLs a used SL maps to on either side share one
/// (union-find), lanes numbered by their lowest VL; [`NO_LANE`] for VLs no
/// used SL reaches.
fn merge_vls(used: &[bool; 16], om: &SlMap, nm: &SlMap) -> [u8; 16] {
    let mut up: [u8; 16] = IDENTITY;
    let root = |up: &[u8; 16], mut v: u8| {
        while up[usize::from(v)] != v {
            v = up[usize::from(v)];
        }
        v
    };
    for sl in (0..16).filter(|&sl| used[sl]) {
        let (a, b) = (root(&up, om[sl] & 15), root(&up, nm[sl] & 15));
        up[usize::from(a.max(b))] = a.min(b);
    }
    let mut reached = [false; 16];
    for sl in (0..16).filter(|&sl| used[sl]) {
        reached[usize::from(om[sl] & 15)] = true;
        reached[usize::from(nm[sl] & 15)] = true;
    }
    let mut lane_of_root = [NO_LANE; 16];
    let mut out = [NO_LANE; 16];
    let mut next = 0;
    for v in (0..16u8).filter(|&v| reached[usize::from(v)]) {
        let r = usize::from(root(&up, v));
        if lane_of_root[r] == NO_LANE {
            lane_of_root[r] = next;
            next += 1;
        }
        out[usize::from(v)] = lane_of_root[r];
    }
    out
}

/// The SL2VL map of a table set when every port maps alike (identity
/// without a plan).
fn sl_map(set: &TableSet) -> Result<SlMap, String> {
    let Some(v) = &set.vl else {
        return Ok(IDENTITY);
    };
    if v.sl2vl.iter().any(Option::is_some) {
        return Err("the tables carry per-port SL2VL tables".into());
    }
    Ok(v.default.unwrap_or(IDENTITY))
}

/// Path SLs of a table set in [`Rows`]' layout (LID-major, `nsw` fabric
/// switches, `ix` the set's row of each); 0 where the set has no plan, no
/// row or no such LID.
fn path_sls(nsw: usize, rows: &Rows, (set, ix): (&TableSet, &[Option<usize>])) -> Vec<u8> {
    let mut out = vec![0u8; nsw * rows.len];
    let Some(v) = &set.vl else {
        return out;
    };
    for (s, &i) in ix.iter().enumerate() {
        let Some(i) = i else {
            continue;
        };
        let row = &set.data[v.path_sl[i].clone()];
        for (l, &sl) in row.iter().enumerate().take(rows.len) {
            out[l * nsw + s] = sl;
        }
    }
    out
}
