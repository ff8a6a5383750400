//! VTFTR (Liu, Hu, Shi, Lu, "VTFTR: deadlock-free fault-tolerant routing in
//! high-dimensional fat trees", Computer Engineering 2022; seed
//! `vtftr-high-dimensional-fat-tree-fault-tolerant-routing.zh.txt`): routes
//! for 2-D fat trees with faulty leaf switches, deadlock-free on 2 VLs.
//!
//! routec is offline and knows the whole fault list, so it compiles the
//! seed's steady-state routes (§2.1 step 3); the per-packet misroutes the
//! seed makes around sudden faults (§2.1 steps 1–2) are an online switch
//! mechanism with no LFT equivalent. Stages: `recognise` (+ `grid`) finds
//! the rows and columns (§1.2), [`classes`] the route class of every leaf
//! pair (§2.1), [`tables`] the destination-based LFTs, [`vl`] the SLs and
//! SL2VL tables of the escape channel (§2.3). Choices the seed leaves open
//! are in `formats/vtftr.md`.

pub mod classes;
mod grid;
mod lines;
pub mod recognise;
pub mod tables;
pub mod vl;

use crate::model::{Fabric, Lfts, LidMap};
use crate::route::{Engine, Note, RouteError, RouteOptions, Routing};

use classes::Class;
pub use recognise::{Grid, recognise};

/// Leaf pairs named in the unroutable note.
const PAIRS_SHOWN: usize = 8;

/// The VTFTR engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Vtftr;

impl Engine for Vtftr {
    fn name(&self) -> &'static str {
        "vtftr"
    }

    fn min_vls(&self) -> (u8, &'static str) {
        (
            vl::VLS,
            "its detours turn from columns to rows, and those turns are deadlock-free only \
             on an escape VL (seed §2.3; formats/vtftr.md)",
        )
    }

    fn route(
        &self,
        fabric: &Fabric,
        lids: &LidMap,
        _opts: &RouteOptions,
    ) -> Result<Routing, RouteError> {
        let grid = recognise(fabric).map_err(|e| RouteError {
            message: format!("vtftr: not a 2-D fat tree: {e}"),
            help: Some(
                "VTFTR routes 2-D fat trees (formats/vtftr.md, `routec gen ft2d`); \
                 use dmodc, updn or minhop for other fabrics"
                    .into(),
            ),
        })?;
        let dests = tables::dests(fabric, lids, &grid);
        let by_leaf = tables::by_leaf(&grid, &dests);
        let mut lfts = Lfts::new(fabric.num_switches(), lids.max_lid());
        tables::fill(fabric, &grid, &by_leaf, &mut lfts);
        let path_sl = vl::path_sls(&grid, &by_leaf, &lfts);
        let notes = notes(fabric, &grid);
        Ok(Routing {
            vl_plan: Some(vl::plan(fabric, &grid, path_sl)),
            notes,
            ..Routing::new("vtftr", lfts)
        })
    }
}

/// Host pairs per route class (local pairs: distinct hosts of one leaf).
pub fn class_pairs(fabric: &Fabric, grid: &Grid) -> Vec<(Class, u64)> {
    let hosts: Vec<u64> = grid
        .leaves
        .iter()
        .map(|l| fabric.end_ports_on(fabric.switch_node(l.sw)) as u64)
        .collect();
    let mut count = [0u64; Class::ALL.len()];
    let n = grid.leaves.len() as u32;
    for s in 0..n {
        for d in 0..n {
            let c = grid.class(s, d);
            let w = if s == d {
                hosts[s as usize] * hosts[s as usize].saturating_sub(1)
            } else {
                hosts[s as usize] * hosts[d as usize]
            };
            count[c as usize] += w;
        }
    }
    Class::ALL.iter().map(|&c| (c, count[c as usize])).collect()
}

/// The grid found, the share of host pairs per class, and the unroutable
/// leaf pairs by name.
fn notes(fabric: &Fabric, grid: &Grid) -> Vec<Note> {
    let live = grid.leaves.len() as u64;
    let mut notes = vec![Note {
        code: "VT001",
        message: format!(
            "vtftr: 2-D fat tree of {} columns × {} rows, {} live leaves ({} positions \
             without one); fault-free columns {}, rows {}",
            grid.nx,
            grid.ny,
            live,
            grid.nx as u64 * grid.ny as u64 - live,
            grid.free_cols.len(),
            grid.free_rows.len()
        ),
    }];
    let pairs = class_pairs(fabric, grid);
    let total: u64 = pairs.iter().map(|p| p.1).sum::<u64>().max(1);
    let shares: Vec<String> = pairs
        .iter()
        .map(|&(c, n)| {
            format!(
                "{} {n} ({:.2} %)",
                c.name(),
                100.0 * n as f64 / total as f64
            )
        })
        .collect();
    notes.push(Note {
        code: "VT002",
        message: format!("vtftr: host pairs per route class: {}", shares.join(", ")),
    });
    let n = grid.leaves.len() as u32;
    let bad: Vec<(u32, u32)> = (0..n)
        .flat_map(|s| (0..n).map(move |d| (s, d)))
        .filter(|&(s, d)| grid.class(s, d) == Class::Unroutable)
        .collect();
    if !bad.is_empty() {
        let name = |i: u32| {
            fabric
                .node(fabric.switch_node(grid.leaves[i as usize].sw))
                .desc
                .clone()
        };
        let shown: Vec<String> = bad
            .iter()
            .take(PAIRS_SHOWN)
            .map(|&(s, d)| format!("{} -> {}", name(s), name(d)))
            .collect();
        notes.push(Note {
            code: "VT003",
            message: format!(
                "vtftr: {} leaf pairs are unroutable: faults cover every row and every column, \
                 and both turn leaves of these pairs are faulty (seed §2.2): {}{}",
                bad.len(),
                shown.join(", "),
                if bad.len() > PAIRS_SHOWN { ", ..." } else { "" }
            ),
        });
    }
    notes
}
