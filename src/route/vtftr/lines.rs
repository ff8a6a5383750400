//! The lines of roots as rows and columns (seed:vtftr §1.2;
//! `formats/vtftr.md`, "Recognition"): the line graph 2-coloured, and the
//! check that every row and column still joins its leaves.

use std::collections::VecDeque;

use super::grid::LineGraph;
use super::recognise::{Dim, Grid, Leaf, Role, name_switch};
use crate::model::{Fabric, SwIdx};

/// 2-colours the line graph (lines meet when they share a leaf), each
/// connected part from its first line (smallest root GUID) as a row.
pub(super) fn colour(
    fabric: &Fabric,
    lines: &[Vec<SwIdx>],
    edges: &LineGraph,
) -> Result<Vec<Dim>, String> {
    let mut dim: Vec<Option<Dim>> = vec![None; lines.len()];
    for start in 0..lines.len() {
        if dim[start].is_some() {
            continue;
        }
        dim[start] = Some(Dim::X);
        let mut queue = VecDeque::from([start]);
        while let Some(a) = queue.pop_front() {
            let da = dim[a].expect("coloured");
            let other = if da == Dim::X { Dim::Y } else { Dim::X };
            for &(b, leaf) in &edges[a] {
                match dim[b as usize] {
                    None => {
                        dim[b as usize] = Some(other);
                        queue.push_back(b as usize);
                    }
                    Some(db) if db == da => {
                        return Err(format!(
                            "the switches {} and {} cannot be told apart as row and column \
                             switches (they meet at leaf {}, and an odd cycle of such meetings \
                             makes them the same dimension): not a 2-D fat tree",
                            name_switch(fabric, lines[a][0]),
                            name_switch(fabric, lines[b as usize][0]),
                            name_switch(fabric, leaf)
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
    }
    Ok(dim.into_iter().map(|d| d.expect("coloured")).collect())
}

/// Every two live leaves of a row (column) must share a live root of it:
/// faulty row and column switches are handled inside their dimension, as
/// long as the dimension still joins its leaves (`formats/vtftr.md`).
pub(super) fn check_lines_connect(
    fabric: &Fabric,
    grid: &Grid,
    lines: &[Vec<SwIdx>],
) -> Result<(), String> {
    let roots_of = |l: &Leaf, d: Dim| -> Vec<SwIdx> {
        let v = if d == Dim::X { &l.x_ports } else { &l.y_ports };
        let mut r: Vec<SwIdx> = v.iter().map(|&(_, s)| s).collect();
        r.sort_unstable();
        r
    };
    for line in lines {
        let Role::Root(d, idx) = grid.role[line[0].ix()] else {
            continue;
        };
        let members: Vec<&Leaf> = grid
            .leaves
            .iter()
            .filter(|l| if d == Dim::X { l.y == idx } else { l.x == idx })
            .collect();
        // leaves cabled to every root of the line meet every other leaf
        let partial: Vec<(&Leaf, Vec<SwIdx>)> = members
            .iter()
            .map(|l| (*l, roots_of(l, d)))
            .filter(|(_, r)| r.len() < line.len())
            .collect();
        for (i, (a, ra)) in partial.iter().enumerate() {
            for (b, rb) in &partial[i + 1..] {
                if !ra.iter().any(|r| rb.binary_search(r).is_ok()) {
                    return Err(format!(
                        "leaves {} and {} share no live {} switch: VTFTR handles row and column \
                         switch faults only while each row and column still joins its leaves",
                        name_switch(fabric, a.sw),
                        name_switch(fabric, b.sw),
                        if d == Dim::X { "row" } else { "column" }
                    ));
                }
            }
        }
    }
    Ok(())
}
