//! From lines of roots to the grid: colouring lines into rows and columns,
//! placing leaves, and the checks that make the fabric a 2-D fat tree
//! (seed:vtftr §1.2; `formats/vtftr.md`, "Recognition").

use std::collections::{HashMap, VecDeque};

use super::recognise::{Dim, Grid, Leaf, NONE, Role, name_switch};
use crate::model::{Fabric, PortNum, SwIdx};

type Adj = [Vec<(PortNum, SwIdx)>];

/// Builds the grid from `lines` (roots sharing leaves, sorted by smallest
/// root GUID).
pub(super) fn build(
    fabric: &Fabric,
    is_leaf: &[bool],
    leaf_roots: &Adj,
    root_leaves: &Adj,
    lines: Vec<Vec<SwIdx>>,
) -> Result<Grid, String> {
    let ns = is_leaf.len();
    let mut line_of = vec![u32::MAX; ns];
    for (i, l) in lines.iter().enumerate() {
        for s in l {
            line_of[s.ix()] = i as u32;
        }
    }
    let leaf_sws: Vec<SwIdx> = (0..ns)
        .filter(|&s| is_leaf[s])
        .map(|s| SwIdx(s as u32))
        .collect();
    // the (at most two) lines of every leaf
    let mut leaf_lines: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut edges: Vec<Vec<(u32, SwIdx)>> = vec![Vec::new(); lines.len()];
    for &l in &leaf_sws {
        let mut ls: Vec<u32> = leaf_roots[l.ix()]
            .iter()
            .map(|&(_, r)| line_of[r.ix()])
            .filter(|&i| i != u32::MAX)
            .collect();
        ls.sort_unstable();
        ls.dedup();
        if ls.len() > 2 {
            let roots: Vec<String> = ls
                .iter()
                .map(|&i| name_switch(fabric, lines[i as usize][0]))
                .collect();
            return Err(format!(
                "leaf {} meets {} groups of switches ({}), but a leaf of a 2-D fat tree lies \
                 on one row and one column",
                name_switch(fabric, l),
                ls.len(),
                roots.join(", ")
            ));
        }
        if let [a, b] = ls[..] {
            edges[a as usize].push((b, l));
            edges[b as usize].push((a, l));
        }
        leaf_lines.insert(l.0, ls);
    }
    let dim = colour(fabric, &lines, &edges)?;
    // rows and columns: coloured lines in order, then leaves with none
    let mut row_of_line = vec![u32::MAX; lines.len()];
    let mut col_of_line = vec![u32::MAX; lines.len()];
    let (mut ny, mut nx) = (0u32, 0u32);
    for (i, d) in dim.iter().enumerate() {
        match d {
            Dim::X => (row_of_line[i], ny) = (ny, ny + 1),
            Dim::Y => (col_of_line[i], nx) = (nx, nx + 1),
        }
    }
    let mut by_guid = leaf_sws.clone();
    by_guid.sort_by_key(|&s| fabric.node(fabric.switch_node(s)).guid);
    let mut pos: HashMap<u32, (u32, u32)> = HashMap::new();
    let (mut extra_rows, mut extra_cols) = (Vec::new(), Vec::new());
    for &l in &by_guid {
        let ls = &leaf_lines[&l.0];
        let row = ls
            .iter()
            .map(|&i| row_of_line[i as usize])
            .find(|&r| r != u32::MAX);
        let col = ls
            .iter()
            .map(|&i| col_of_line[i as usize])
            .find(|&c| c != u32::MAX);
        let y = row.unwrap_or_else(|| {
            extra_rows.push(l);
            ny + extra_rows.len() as u32 - 1
        });
        let x = col.unwrap_or_else(|| {
            extra_cols.push(l);
            nx + extra_cols.len() as u32 - 1
        });
        pos.insert(l.0, (x, y));
    }
    let (nx, ny) = (nx + extra_cols.len() as u32, ny + extra_rows.len() as u32);
    let mut at = vec![NONE; nx as usize * ny as usize];
    let mut order: Vec<SwIdx> = leaf_sws.clone();
    order.sort_by_key(|s| (pos[&s.0].1, pos[&s.0].0));
    let mut leaves = Vec::with_capacity(order.len());
    let mut role = vec![Role::Idle; ns];
    for &l in &order {
        let (x, y) = pos[&l.0];
        let cell = &mut at[(y * nx + x) as usize];
        if *cell != NONE {
            let other = leaves_sw(&leaves, *cell);
            return Err(format!(
                "leaves {} and {} share a row switch and a column switch: in a 2-D fat tree a \
                 row and a column meet in one leaf",
                name_switch(fabric, other),
                name_switch(fabric, l)
            ));
        }
        *cell = leaves.len() as u32;
        role[l.ix()] = Role::Leaf(leaves.len() as u32);
        let of_dim = |d: Dim| -> Vec<(PortNum, SwIdx)> {
            let mut v: Vec<(PortNum, SwIdx)> = leaf_roots[l.ix()]
                .iter()
                .copied()
                .filter(|&(_, r)| {
                    let i = line_of[r.ix()];
                    i != u32::MAX && dim[i as usize] == d
                })
                .collect();
            v.sort_by_key(|&(_, r)| fabric.node(fabric.switch_node(r)).guid);
            v
        };
        leaves.push(Leaf {
            sw: l,
            x,
            y,
            x_ports: of_dim(Dim::X),
            y_ports: of_dim(Dim::Y),
        });
    }
    let mut root_ports = vec![Vec::new(); ns];
    for (i, line) in lines.iter().enumerate() {
        let (d, idx, len) = match dim[i] {
            Dim::X => (Dim::X, row_of_line[i], nx),
            Dim::Y => (Dim::Y, col_of_line[i], ny),
        };
        for &r in line {
            role[r.ix()] = Role::Root(d, idx);
            let mut ports = vec![0 as PortNum; len as usize];
            for &(p, l) in &root_leaves[r.ix()] {
                let (x, y) = pos[&l.0];
                ports[if d == Dim::X { x } else { y } as usize] = p;
            }
            root_ports[r.ix()] = ports;
        }
    }
    let free_cols = (0..nx)
        .filter(|&x| (0..ny).all(|y| at[(y * nx + x) as usize] != NONE))
        .collect();
    let free_rows = (0..ny)
        .filter(|&y| (0..nx).all(|x| at[(y * nx + x) as usize] != NONE))
        .collect();
    let grid = Grid {
        nx,
        ny,
        leaves,
        at,
        role,
        root_ports,
        free_cols,
        free_rows,
    };
    check_lines_connect(fabric, &grid, &lines)?;
    Ok(grid)
}

fn leaves_sw(leaves: &[Leaf], i: u32) -> SwIdx {
    leaves[i as usize].sw
}

/// 2-colours the line graph (lines meet when they share a leaf), each
/// connected part from its first line (smallest root GUID) as a row.
fn colour(
    fabric: &Fabric,
    lines: &[Vec<SwIdx>],
    edges: &[Vec<(u32, SwIdx)>],
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
fn check_lines_connect(fabric: &Fabric, grid: &Grid, lines: &[Vec<SwIdx>]) -> Result<(), String> {
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
