//! From lines of roots to the grid: rows and columns numbered once the
//! lines are coloured (`lines.rs`), leaves placed, cells and root ports
//! laid out, with the checks that make the fabric a 2-D fat tree (seed:vtftr
//! §1.2; `formats/vtftr.md`, "Recognition").

use std::collections::HashMap;

use super::lines::{check_lines_connect, colour};
use super::recognise::{Dim, Grid, Leaf, NONE, Role, name_switch};
use crate::model::{Fabric, PortNum, SwIdx};

type Adj = [Vec<(PortNum, SwIdx)>];
/// Per line, the lines it meets and the leaf where they meet.
pub(super) type LineGraph = Vec<Vec<(u32, SwIdx)>>;

/// The lines of roots, which of them are rows and which columns, and
/// where every switch stands on them.
struct Lines {
    lines: Vec<Vec<SwIdx>>,
    /// Per switch: its line, or `u32::MAX` (a leaf or an idle switch).
    line_of: Vec<u32>,
    /// Per line: a row (`X`) or a column (`Y`).
    dim: Vec<Dim>,
    /// Per line: its row or column number.
    index: Vec<u32>,
    /// Rows and columns of roots (`ny`, `nx`), before the leaves that
    /// have no row or no column add their own.
    rows: u32,
    cols: u32,
}

impl Lines {
    /// The row or column of line `i`, when it is one of `d`.
    fn of_dim(&self, i: u32, d: Dim) -> Option<u32> {
        (self.dim[i as usize] == d).then(|| self.index[i as usize])
    }

    /// Whether switch `r` is a root of a line of `d`.
    fn is_root_of(&self, r: SwIdx, d: Dim) -> bool {
        let i = self.line_of[r.ix()];
        i != u32::MAX && self.dim[i as usize] == d
    }
}

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
    let (leaf_lines, edges) = leaf_lines(fabric, &leaf_sws, leaf_roots, &line_of, &lines)?;
    let dim = colour(fabric, &lines, &edges)?;
    // rows and columns: coloured lines in order, then leaves with none
    let mut index = vec![0; lines.len()];
    let (mut rows, mut cols) = (0u32, 0u32);
    for (i, d) in dim.iter().enumerate() {
        let n = if *d == Dim::X { &mut rows } else { &mut cols };
        (index[i], *n) = (*n, *n + 1);
    }
    let ls = Lines {
        lines,
        line_of,
        dim,
        index,
        rows,
        cols,
    };
    let (pos, nx, ny) = positions(fabric, &leaf_sws, &leaf_lines, &ls);
    let mut role = vec![Role::Idle; ns];
    let (leaves, at) = lay_leaves(
        fabric,
        &leaf_sws,
        &pos,
        (nx, ny),
        leaf_roots,
        &ls,
        &mut role,
    )?;
    let mut root_ports = vec![Vec::new(); ns];
    for (i, line) in ls.lines.iter().enumerate() {
        let (d, idx) = (ls.dim[i], ls.index[i]);
        let len = if d == Dim::X { nx } else { ny };
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
    check_lines_connect(fabric, &grid, &ls.lines)?;
    Ok(grid)
}

/// The (at most two) lines of every leaf, and the line graph: lines meet
/// where they share a leaf.
fn leaf_lines(
    fabric: &Fabric,
    leaf_sws: &[SwIdx],
    leaf_roots: &Adj,
    line_of: &[u32],
    lines: &[Vec<SwIdx>],
) -> Result<(HashMap<u32, Vec<u32>>, LineGraph), String> {
    let mut leaf_lines: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut edges: LineGraph = vec![Vec::new(); lines.len()];
    for &l in leaf_sws {
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
    Ok((leaf_lines, edges))
}

/// Every leaf's (x, y), in GUID order: the column and row of its lines, or
/// a column (row) of its own past the roots' when it has none; and the
/// grid's width and height.
fn positions(
    fabric: &Fabric,
    leaf_sws: &[SwIdx],
    leaf_lines: &HashMap<u32, Vec<u32>>,
    ls: &Lines,
) -> (HashMap<u32, (u32, u32)>, u32, u32) {
    let mut by_guid = leaf_sws.to_vec();
    by_guid.sort_by_key(|&s| fabric.node(fabric.switch_node(s)).guid);
    let mut pos: HashMap<u32, (u32, u32)> = HashMap::new();
    let (mut extra_rows, mut extra_cols) = (Vec::new(), Vec::new());
    for &l in &by_guid {
        let lines = &leaf_lines[&l.0];
        let row = lines.iter().find_map(|&i| ls.of_dim(i, Dim::X));
        let col = lines.iter().find_map(|&i| ls.of_dim(i, Dim::Y));
        let y = row.unwrap_or_else(|| {
            extra_rows.push(l);
            ls.rows + extra_rows.len() as u32 - 1
        });
        let x = col.unwrap_or_else(|| {
            extra_cols.push(l);
            ls.cols + extra_cols.len() as u32 - 1
        });
        pos.insert(l.0, (x, y));
    }
    let (nx, ny) = (
        ls.cols + extra_cols.len() as u32,
        ls.rows + extra_rows.len() as u32,
    );
    (pos, nx, ny)
}

/// The leaves in (y, x) order with their row and column cables, and the
/// grid's cells; a cell two leaves claim is an error.
fn lay_leaves(
    fabric: &Fabric,
    leaf_sws: &[SwIdx],
    pos: &HashMap<u32, (u32, u32)>,
    (nx, ny): (u32, u32),
    leaf_roots: &Adj,
    ls: &Lines,
    role: &mut [Role],
) -> Result<(Vec<Leaf>, Vec<u32>), String> {
    let mut at = vec![NONE; nx as usize * ny as usize];
    let mut order: Vec<SwIdx> = leaf_sws.to_vec();
    order.sort_by_key(|s| (pos[&s.0].1, pos[&s.0].0));
    let mut leaves = Vec::with_capacity(order.len());
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
                .filter(|&(_, r)| ls.is_root_of(r, d))
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
    Ok((leaves, at))
}

fn leaves_sw(leaves: &[Leaf], i: u32) -> SwIdx {
    leaves[i as usize].sw
}
