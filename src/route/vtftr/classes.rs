//! Route classes per (source leaf, destination leaf) pair (seed:vtftr §2.1
//! step 3, the steady state for a known fault set): X or Y within a row or
//! column, XY by default (row phase, then column phase), YX when the XY turn
//! leaf is faulty and the YX one is not, row–column–row through a leaf of a
//! fault-free column when both turn leaves are faulty (+2 hops, Fig. 3),
//! column–row–column through a fault-free row when no column is fault-free,
//! unroutable when faults cover every row and every column (§2.2 advantage 3).

use super::recognise::Grid;

/// How a pair of leaves is routed; the discriminant order is the report's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Source and destination on one leaf.
    Local,
    /// One row: leaf → RSW → leaf.
    X,
    /// One column: leaf → CSW → leaf.
    Y,
    /// Row phase to the turn leaf (xd, ys), then column phase.
    Xy,
    /// Column phase to the turn leaf (xs, yd), then row phase.
    Yx,
    /// Row to a leaf of a fault-free column, column to the destination row,
    /// row to the destination.
    Rcr,
    /// Column to a leaf of a fault-free row, row to the destination column,
    /// column to the destination.
    Crc,
    /// No VTFTR route.
    Unroutable,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 8] = [
        Class::Local,
        Class::X,
        Class::Y,
        Class::Xy,
        Class::Yx,
        Class::Rcr,
        Class::Crc,
        Class::Unroutable,
    ];

    /// Name in notes and `formats/vtftr.md`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Local => "local",
            Class::X => "X",
            Class::Y => "Y",
            Class::Xy => "XY",
            Class::Yx => "YX",
            Class::Rcr => "RCR",
            Class::Crc => "CRC",
            Class::Unroutable => "unroutable",
        }
    }

    /// Switch-to-switch hops of the class's route.
    pub fn hops(self) -> u32 {
        match self {
            Class::Local | Class::Unroutable => 0,
            Class::X | Class::Y => 2,
            Class::Xy | Class::Yx => 4,
            Class::Rcr | Class::Crc => 6,
        }
    }
}

/// The first dimension a leaf sends a packet on toward a destination leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    Host,
    X,
    Y,
    Drop,
}

impl Grid {
    /// The class of the pair (leaf `s`, leaf `d`) (indices of `leaves`).
    pub fn class(&self, s: u32, d: u32) -> Class {
        if s == d {
            return Class::Local;
        }
        let (a, b) = (&self.leaves[s as usize], &self.leaves[d as usize]);
        if a.y == b.y {
            Class::X
        } else if a.x == b.x {
            Class::Y
        } else if self.leaf_at(b.x, a.y).is_some() {
            Class::Xy
        } else if self.leaf_at(a.x, b.y).is_some() {
            Class::Yx
        } else if !self.free_cols.is_empty() {
            Class::Rcr
        } else if !self.free_rows.is_empty() {
            Class::Crc
        } else {
            Class::Unroutable
        }
    }

    /// Where leaf `s` sends a packet for leaf `d` first.
    pub fn first(&self, s: u32, d: u32) -> First {
        match self.class(s, d) {
            Class::Local => First::Host,
            Class::X | Class::Xy | Class::Rcr => First::X,
            Class::Y | Class::Yx | Class::Crc => First::Y,
            Class::Unroutable => First::Drop,
        }
    }

    /// The detour column for destination LID `lid` (spread over the
    /// fault-free columns by LID, so LMC's extra LIDs take other columns).
    pub fn mid_col(&self, lid: u16) -> Option<u32> {
        pick(&self.free_cols, lid)
    }

    /// The detour row for destination LID `lid`.
    pub fn mid_row(&self, lid: u16) -> Option<u32> {
        pick(&self.free_rows, lid)
    }

    /// The leaf a row switch of row `y` delivers a packet for leaf `d`
    /// (LID `lid`) to: d's column if live there (X, XY), else the detour
    /// column's (RCR's first row phase).
    pub fn row_target(&self, y: u32, d: u32, lid: u16) -> Option<u32> {
        let b = &self.leaves[d as usize];
        self.leaf_at(b.x, y)
            .or_else(|| self.mid_col(lid).and_then(|x| self.leaf_at(x, y)))
    }

    /// The leaf a column switch of column `x` delivers a packet for leaf
    /// `d` to: d's row if live there (Y, XY, YX, RCR), else the detour
    /// row's (CRC's first column phase).
    pub fn col_target(&self, x: u32, d: u32, lid: u16) -> Option<u32> {
        let b = &self.leaves[d as usize];
        self.leaf_at(x, b.y)
            .or_else(|| self.mid_row(lid).and_then(|y| self.leaf_at(x, y)))
    }
}

fn pick(v: &[u32], lid: u16) -> Option<u32> {
    (!v.is_empty()).then(|| v[lid as usize % v.len()])
}
