//! VTFTR's escape virtual channel (seed:vtftr §2.3) as InfiniBand SLs and
//! SL2VL tables, on 2 VLs.
//!
//! The seed switches a packet once, at its column→row turn, to the escape
//! channel and keeps it there. IB has no per-packet VC state: the VL of a
//! hop is `SL2VL[switch][in port][out port][SL]` with the SL fixed per
//! path. So each route class gets its SL ([`SL_XY`] .. [`SL_CRC`]) and the
//! tables send a hop on VL 1 exactly when its packet has made its Y→X turn:
//!
//! * leaf: out on X after arriving on Y with SL YX, RCR or CRC → VL 1; out
//!   on Y after arriving on X with SL CRC → VL 1 (CRC's second turn);
//! * row switch: SL YX, CRC → VL 1; SL RCR → VL 1 iff the in port leads to a
//!   leaf of a fault-free column (an RCR source's column is never one);
//! * column switch: SL CRC → VL 1 iff the in port leads to a leaf of a
//!   fault-free row (a CRC source's row is never one);
//! * everything else, end ports included → VL 0.
//!
//! Ranking channels (VL, up X, down X, up Y, down Y) as 4·VL + phase, every
//! dependency a route makes climbs, so no VL's channel graph has a cycle:
//! the proof is in `formats/vtftr.md`, "Deadlock freedom", and the verifier
//! checks it on every compile.

use super::classes::Class;
use super::recognise::{Dim, Grid, Role};
use crate::model::{Fabric, Lfts, Lid, PathSl, PortNum, Sl2Vl, SwIdx, VlPlan};

/// X, Y, XY (and local) routes: all on VL 0.
pub const SL_XY: u8 = 0;
/// YX routes: VL 0 up to the turn, VL 1 after.
pub const SL_YX: u8 = 1;
/// Row–column–row routes: VL 1 from the column→row turn on.
pub const SL_RCR: u8 = 2;
/// Column–row–column routes: VL 1 from the column→row turn on.
pub const SL_CRC: u8 = 3;

/// Data VLs the plan uses.
pub const VLS: u8 = 2;

/// The SL of a leaf-to-leaf route of class `c`.
pub fn sl_of(c: Class) -> u8 {
    match c {
        Class::Yx => SL_YX,
        Class::Rcr => SL_RCR,
        Class::Crc => SL_CRC,
        _ => SL_XY,
    }
}

/// The SL of a route that starts at a root switch (switch-sourced traffic)
/// toward leaf `d`: the SL of the class its route continues as.
pub fn root_sl(grid: &Grid, dim: Dim, line: u32, d: u32) -> u8 {
    let b = &grid.leaves[d as usize];
    match dim {
        Dim::X if grid.leaf_at(b.x, line).is_some() => SL_XY,
        Dim::X => SL_RCR,
        Dim::Y if line == b.x => SL_XY,
        Dim::Y if grid.leaf_at(line, b.y).is_some() => SL_YX,
        Dim::Y => SL_CRC,
    }
}

/// What a switch port leads to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    /// Port 0, a host, or nothing.
    Edge,
    X,
    Y,
    /// A leaf in a fault-free column (row switch) or row (column switch).
    FreeLeaf,
    Leaf,
}

/// The SL2VL tables of every switch.
pub fn sl2vl(fabric: &Fabric, grid: &Grid) -> Sl2Vl {
    let mut t = Sl2Vl::identity();
    t.set_default([0; 16]);
    t.set_end_port([0; 16]);
    for s in 0..fabric.num_switches() {
        let sw = SwIdx(s as u32);
        let node = fabric.switch_node(sw);
        let nports = fabric.node(node).num_ports;
        let sides: Vec<Side> = (0..=nports).map(|p| side(fabric, grid, sw, p)).collect();
        match grid.role[s] {
            Role::Leaf(_) => t.set_switch(s, nports, |i, o, sl| {
                let (i, o) = (sides[i as usize], sides[o as usize]);
                let turned = match o {
                    Side::X => i == Side::Y && matches!(sl, SL_YX | SL_RCR | SL_CRC),
                    Side::Y => i == Side::X && sl == SL_CRC,
                    _ => false,
                };
                u8::from(turned)
            }),
            Role::Root(Dim::X, _) => t.set_switch(s, nports, |i, _, sl| {
                let free = sides[i as usize] == Side::FreeLeaf;
                u8::from(matches!(sl, SL_YX | SL_CRC) || (sl == SL_RCR && free))
            }),
            Role::Root(Dim::Y, _) => t.set_switch(s, nports, |i, _, sl| {
                u8::from(sl == SL_CRC && sides[i as usize] == Side::FreeLeaf)
            }),
            Role::Idle => {}
        }
    }
    t
}

fn side(fabric: &Fabric, grid: &Grid, sw: SwIdx, p: PortNum) -> Side {
    let Some(peer) = fabric.peer(fabric.switch_node(sw), p).filter(|_| p != 0) else {
        return Side::Edge;
    };
    let Some(other) = fabric.switch_index(peer.node) else {
        return Side::Edge;
    };
    match (grid.role[sw.ix()], grid.role[other.ix()]) {
        (Role::Leaf(_), Role::Root(Dim::X, _)) => Side::X,
        (Role::Leaf(_), Role::Root(Dim::Y, _)) => Side::Y,
        (Role::Root(d, _), Role::Leaf(l)) => {
            let leaf = &grid.leaves[l as usize];
            let free = match d {
                Dim::X => grid.free_cols.binary_search(&leaf.x).is_ok(),
                Dim::Y => grid.free_rows.binary_search(&leaf.y).is_ok(),
            };
            if free { Side::FreeLeaf } else { Side::Leaf }
        }
        _ => Side::Edge,
    }
}

/// The path SL of every (source switch, LID) toward a leaf destination
/// (rows computed in parallel, one switch per task; a class once per
/// destination leaf).
pub fn path_sls(grid: &Grid, by_leaf: &[Vec<(Lid, PortNum)>], lfts: &Lfts) -> PathSl {
    use rayon::prelude::*;
    let rows: Vec<Vec<(Lid, u8)>> = grid
        .role
        .par_iter()
        .map(|role| {
            let mut row = Vec::new();
            for (d, lids) in by_leaf.iter().enumerate() {
                let sl = match *role {
                    Role::Leaf(i) => sl_of(grid.class(i, d as u32)),
                    Role::Root(dim, line) => root_sl(grid, dim, line, d as u32),
                    Role::Idle => SL_XY,
                };
                if sl != SL_XY {
                    row.extend(lids.iter().map(|&(lid, _)| (lid, sl)));
                }
            }
            row
        })
        .collect();
    let mut p = PathSl::zeros(lfts);
    for (s, row) in rows.iter().enumerate() {
        for &(lid, sl) in row {
            p.set(s, lid, sl);
        }
    }
    p
}

/// The plan: path SLs and SL2VL tables on [`VLS`] VLs.
pub fn plan(fabric: &Fabric, grid: &Grid, path_sl: PathSl) -> VlPlan {
    VlPlan {
        path_sl,
        sl2vl: sl2vl(fabric, grid),
        vls: VLS,
    }
}
