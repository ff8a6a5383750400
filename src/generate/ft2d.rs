//! 2-D fat trees for VTFTR (seed:vtftr §1.2; `formats/ft2d.md`): leaf
//! switches (LSW) with `hosts` hosts each in an `nx × ny` grid; the leaves
//! of row `y` are joined by `rsw` row switches RSW(y, j), each cabled once
//! to every leaf of the row, and the leaves of column `x` by `csw` column
//! switches CSW(x, j). Each dimension is a two-level fat tree.
//!
//! Numbering: leaf (x, y) is index `y·nx + x`, GUID
//! `0x0002c905_00000000 + index`, ports `1..hosts` to its hosts, then
//! `rsw` X ports (to RSW(y, 0..)), then `csw` Y ports (to CSW(x, 0..)).
//! RSW(y, j) has GUID `0x0002c906_00000000 + y·rsw + j` and port `x + 1`
//! to leaf (x, y); CSW(x, j) has GUID `0x0002c907_00000000 + x·csw + j`
//! and port `y + 1` to leaf (x, y). Host `k` of leaf `i` has GUID
//! `0x0002c908_00000000 + ((i·hosts + k) << 8)`.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::net::{Net, check_lids};
use crate::model::{Fabric, Guid};

pub const LEAF_GUID_BASE: u64 = 0x0002_c905_0000_0000;
pub const RSW_GUID_BASE: u64 = 0x0002_c906_0000_0000;
pub const CSW_GUID_BASE: u64 = 0x0002_c907_0000_0000;
pub const HOST_GUID_BASE: u64 = 0x0002_c908_0000_0000;

/// A 2-D fat tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ft2dSpec {
    pub nx: u32,
    pub ny: u32,
    pub hosts: u32,
    pub rsw: u32,
    pub csw: u32,
}

/// Where faulty leaves fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FaultPattern {
    /// Distinct rows and distinct columns.
    Spread,
    /// All in one row.
    Row,
    /// All in one column.
    Column,
    /// Anywhere.
    Random,
}

impl Ft2dSpec {
    pub fn num_leaves(&self) -> u64 {
        self.nx as u64 * self.ny as u64
    }

    fn validate(&self) -> Result<(), String> {
        let Ft2dSpec {
            nx,
            ny,
            hosts,
            rsw,
            csw,
        } = *self;
        if nx == 0 || ny == 0 || rsw == 0 || csw == 0 {
            return Err("--nx, --ny, --rsw and --csw must be at least 1".into());
        }
        for (what, ports) in [
            ("a leaf", hosts + rsw + csw),
            ("a row switch", nx),
            ("a column switch", ny),
        ] {
            if ports > 254 {
                return Err(format!("{what} would need {ports} ports (at most 254)"));
            }
        }
        let switches = self.num_leaves() + (ny * rsw) as u64 + (nx * csw) as u64;
        check_lids("gen ft2d", switches, self.num_leaves() * hosts as u64)
    }
}

/// Node GUID of leaf (x, y).
pub fn leaf_guid(spec: &Ft2dSpec, x: u32, y: u32) -> Guid {
    Guid(LEAF_GUID_BASE + (y * spec.nx + x) as u64)
}

/// Builds the 2-D fat tree.
pub fn ft2d(spec: &Ft2dSpec) -> Result<Fabric, String> {
    spec.validate()?;
    let Ft2dSpec {
        nx,
        ny,
        hosts,
        rsw,
        csw,
    } = *spec;
    let mut net = Net::default();
    let mut leaves = Vec::new();
    for y in 0..ny {
        for x in 0..nx {
            let i = (y * nx + x) as u64;
            leaves.push(net.switch(
                LEAF_GUID_BASE + i,
                hosts + rsw + csw,
                format!("LSW_{x}_{y}"),
            )?);
        }
    }
    for y in 0..ny {
        for j in 0..rsw {
            let r = net.switch(
                RSW_GUID_BASE + (y * rsw + j) as u64,
                nx,
                format!("RSW_{y}_{j}"),
            )?;
            for x in 0..nx {
                net.cable(leaves[(y * nx + x) as usize], hosts + 1 + j, r, x + 1)?;
            }
        }
    }
    for x in 0..nx {
        for j in 0..csw {
            let c = net.switch(
                CSW_GUID_BASE + (x * csw + j) as u64,
                ny,
                format!("CSW_{x}_{j}"),
            )?;
            for y in 0..ny {
                net.cable(leaves[(y * nx + x) as usize], hosts + rsw + 1 + j, c, y + 1)?;
            }
        }
    }
    for (i, &leaf) in leaves.iter().enumerate() {
        let (x, y) = (i as u32 % nx, i as u32 / nx);
        for k in 0..hosts {
            let g = HOST_GUID_BASE + ((i as u64 * hosts as u64 + k as u64) << 8);
            let host = net.host(g, format!("H_{x}_{y}_{k}"))?;
            net.cable(host, 1, leaf, k + 1)?;
        }
    }
    net.finish()
}

/// `count` faulty leaves placed by `pattern`, as (x, y), seeded.
pub fn faulty_leaves(
    spec: &Ft2dSpec,
    count: u32,
    pattern: FaultPattern,
    seed: u64,
) -> Result<Vec<(u32, u32)>, String> {
    let (nx, ny) = (spec.nx, spec.ny);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let limit = match pattern {
        FaultPattern::Spread => nx.min(ny),
        FaultPattern::Row => nx,
        FaultPattern::Column => ny,
        FaultPattern::Random => nx * ny,
    };
    if count > limit {
        return Err(format!(
            "{count} faulty leaves do not fit the {pattern:?} pattern on {nx}×{ny} (at most {limit})"
        ));
    }
    let mut out = match pattern {
        FaultPattern::Spread => {
            let (mut xs, mut ys): (Vec<u32>, Vec<u32>) = ((0..nx).collect(), (0..ny).collect());
            xs.shuffle(&mut rng);
            ys.shuffle(&mut rng);
            xs.into_iter().zip(ys).take(count as usize).collect()
        }
        FaultPattern::Row => {
            let y = (seed % ny as u64) as u32;
            let xs = first_shuffled(nx, count, &mut rng);
            xs.into_iter().map(|x| (x, y)).collect()
        }
        FaultPattern::Column => {
            let x = (seed % nx as u64) as u32;
            let ys = first_shuffled(ny, count, &mut rng);
            ys.into_iter().map(|y| (x, y)).collect()
        }
        FaultPattern::Random => {
            let mut all: Vec<(u32, u32)> =
                (0..ny).flat_map(|y| (0..nx).map(move |x| (x, y))).collect();
            all.shuffle(&mut rng);
            all.truncate(count as usize);
            all
        }
    };
    out.sort_unstable_by_key(|&(x, y)| (y, x));
    Ok(out)
}

/// The first `count` of `0..n` in a seeded random order.
fn first_shuffled(n: u32, count: u32, rng: &mut ChaCha8Rng) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n).collect();
    v.shuffle(rng);
    v.truncate(count as usize);
    v
}
