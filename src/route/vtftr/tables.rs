//! Destination-based LFTs for VTFTR's route classes (seed:vtftr §2.1).
//!
//! InfiniBand forwards on (switch, DLID) alone, so every class's route must
//! follow from one output port per switch and DLID. It does, because each
//! switch's choice depends only on where it is and where the destination
//! leaf d = (xd, yd) is (`formats/vtftr.md`, "Why one port per DLID fits"):
//!
//! * a leaf sends toward d by its own class to d ([`Grid::first`]);
//! * a row switch of row y delivers to (xd, y) when live, else to the
//!   detour column's leaf (xm, y) — only RCR packets reach it then;
//! * a column switch of column x delivers to (x, yd) when live, else to the
//!   detour row's leaf (x, ym) — only CRC packets reach it then.
//!
//! A route then is its class's route: an RCR packet reaches (xm, ys), whose
//! own class to d is YX ((xd, ys) is faulty, (xm, yd) live as xm is a
//! fault-free column); a CRC packet reaches (xs, ym), whose class is XY.
//! The detour column (row) is picked per DLID among the fault-free ones, so
//! with `--lmc` a destination's LIDs take different detours.

use rayon::prelude::*;

use super::classes::First;
use super::recognise::{Dim, Grid, Role};
use crate::model::{Fabric, Lfts, Lid, LidMap, NO_ROUTE, PortNum, SwIdx};

/// Where a LID leads: destination leaf and the port that leaf delivers on
/// (a host port, or 0 for the leaf's own LID).
#[derive(Clone, Copy, Debug)]
pub struct Dest {
    pub leaf: u32,
    pub port: PortNum,
}

/// Per LID, its destination leaf: the leaf of a host port, a leaf switch
/// itself, or for a row or column switch the leaf `root_dest` names
/// (`formats/vtftr.md`, "Switch LIDs").
pub fn dests(fabric: &Fabric, lids: &LidMap, grid: &Grid) -> Vec<Option<Dest>> {
    let mut out = vec![None; lids.max_lid() as usize + 1];
    for (lid, owner) in lids.iter() {
        let leaf_of = |n| match fabric.switch_index(n).map(|s| grid.role[s.ix()]) {
            Some(Role::Leaf(i)) => Some(i),
            _ => None,
        };
        out[lid as usize] = if fabric.is_switch(owner.node) {
            let sw = fabric.switch_index(owner.node).expect("a switch");
            match grid.role[sw.ix()] {
                Role::Leaf(leaf) => Some(Dest { leaf, port: 0 }),
                Role::Root(dim, line) => root_dest(grid, sw, dim, line),
                Role::Idle => None,
            }
        } else {
            fabric.peer(owner.node, owner.port).and_then(|peer| {
                leaf_of(peer.node).map(|leaf| Dest {
                    leaf,
                    port: peer.port,
                })
            })
        };
    }
    out
}

/// A root switch is reached through the first leaf of its line cabled to
/// it (smallest position), which delivers on its port to the root.
fn root_dest(grid: &Grid, root: SwIdx, dim: Dim, line: u32) -> Option<Dest> {
    let ports = &grid.root_ports[root.ix()];
    let pos = ports.iter().position(|&p| p != 0)? as u32;
    let leaf = match dim {
        Dim::X => grid.leaf_at(pos, line)?,
        Dim::Y => grid.leaf_at(line, pos)?,
    };
    let l = &grid.leaves[leaf as usize];
    let ups = if dim == Dim::X {
        &l.x_ports
    } else {
        &l.y_ports
    };
    let port = ups.iter().find(|&&(_, r)| r == root)?.0;
    Some(Dest { leaf, port })
}

/// The LIDs of every destination leaf, with the port each is delivered on.
pub fn by_leaf(grid: &Grid, dests: &[Option<Dest>]) -> Vec<Vec<(Lid, PortNum)>> {
    let mut v = vec![Vec::new(); grid.leaves.len()];
    for (lid, d) in dests.iter().enumerate() {
        if let Some(d) = d {
            v[d.leaf as usize].push((lid as Lid, d.port));
        }
    }
    v
}

/// Fills every switch's LFT (one switch per task). A leaf's class toward
/// a destination leaf is computed once for all of that leaf's LIDs.
pub fn fill(fabric: &Fabric, grid: &Grid, by_leaf: &[Vec<(Lid, PortNum)>], lfts: &mut Lfts) {
    lfts.rows_mut()
        .collect::<Vec<_>>()
        .into_par_iter()
        .enumerate()
        .for_each(|(s, row)| {
            let sw = SwIdx(s as u32);
            for (d, lids) in by_leaf.iter().enumerate() {
                let first = match grid.role[s] {
                    Role::Leaf(i) => Some(grid.first(i, d as u32)),
                    _ => None,
                };
                for &(lid, port) in lids {
                    let dest = Dest {
                        leaf: d as u32,
                        port,
                    };
                    row[lid as usize] = match first {
                        Some(f) => leaf_port(grid, s, f, dest, lid),
                        None => self::port(grid, sw, dest, lid),
                    }
                    .unwrap_or(NO_ROUTE);
                }
            }
            let own = fabric.switch_lid(fabric.switch_node(sw)) as usize;
            if own != 0 && own < row.len() {
                row[own] = 0;
            }
        });
}

/// The output port of switch `sw` toward `d` (DLID `lid`).
pub fn port(grid: &Grid, sw: SwIdx, d: Dest, lid: Lid) -> Option<PortNum> {
    match grid.role[sw.ix()] {
        Role::Leaf(i) => leaf_port(grid, sw.ix(), grid.first(i, d.leaf), d, lid),
        Role::Root(Dim::X, y) => {
            let t = grid.row_target(y, d.leaf, lid)?;
            nonzero(grid.root_port(sw, grid.leaves[t as usize].x))
        }
        Role::Root(Dim::Y, x) => {
            let t = grid.col_target(x, d.leaf, lid)?;
            nonzero(grid.root_port(sw, grid.leaves[t as usize].y))
        }
        Role::Idle => None,
    }
}

fn nonzero(p: PortNum) -> Option<PortNum> {
    (p != 0).then_some(p)
}

/// A leaf's port toward `d`, given where its class sends first: its host
/// port, or up to a root of its row (column) that reaches the next leaf,
/// spread over those roots by LID.
fn leaf_port(grid: &Grid, s: usize, first: First, d: Dest, lid: Lid) -> Option<PortNum> {
    let Role::Leaf(i) = grid.role[s] else {
        return None;
    };
    let me = &grid.leaves[i as usize];
    let (ups, pos) = match first {
        First::Host => return Some(d.port),
        First::Drop => return None,
        First::X => {
            let t = grid.row_target(me.y, d.leaf, lid)?;
            (&me.x_ports, grid.leaves[t as usize].x)
        }
        First::Y => {
            let t = grid.col_target(me.x, d.leaf, lid)?;
            (&me.y_ports, grid.leaves[t as usize].y)
        }
    };
    if let [(p, r)] = ups[..] {
        return (grid.root_port(r, pos) != 0).then_some(p);
    }
    let n = ups
        .iter()
        .filter(|&&(_, r)| grid.root_port(r, pos) != 0)
        .count();
    if n == 0 {
        return None;
    }
    ups.iter()
        .filter(|&&(_, r)| grid.root_port(r, pos) != 0)
        .nth(lid as usize % n)
        .map(|&(p, _)| p)
}
