//! `routec gen torus`, `gen dragonfly` and `gen ft2d`: the fabrics the
//! SSSP and VTFTR engines are measured on (`formats/torus.md`,
//! `formats/dragonfly.md`, `formats/ft2d.md`).

use std::path::PathBuf;

use clap::Args;

use super::{Outcome, faults_path, write_fabric};
use crate::cli::common::Global;
use crate::error::Error;
use crate::generate::dragonfly::{DragonflySpec, dragonfly as build_dragonfly};
use crate::generate::ft2d::{FaultPattern, Ft2dSpec, faulty_leaves, ft2d as build_ft2d, leaf_guid};
use crate::generate::torus::{TorusSpec, torus as build_torus};
use crate::model::Fault;

/// Arguments of `routec gen torus`.
#[derive(Args, Debug)]
pub struct TorusArgs {
    /// Switches per dimension, e.g. 8,8 or 4,4,4.
    #[arg(long, value_delimiter = ',', required = true)]
    pub dims: Vec<u32>,
    /// No wrap-around cables: a mesh.
    #[arg(long)]
    pub mesh: bool,
    /// Hosts per switch.
    #[arg(long, default_value_t = 1)]
    pub hosts: u32,
    /// Output file (standard output by default).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Arguments of `routec gen dragonfly`.
#[derive(Args, Debug)]
pub struct DragonflyArgs {
    /// Switches per group.
    #[arg(long)]
    pub a: u32,
    /// Hosts per switch.
    #[arg(long)]
    pub p: u32,
    /// Global cables per switch.
    #[arg(long)]
    pub h: u32,
    /// Groups (default a·h + 1: one global cable per pair of groups).
    #[arg(long)]
    pub groups: Option<u32>,
    /// Output file (standard output by default).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Arguments of `routec gen ft2d`.
#[derive(Args, Debug)]
pub struct Ft2dArgs {
    /// Leaves per row (columns).
    #[arg(long)]
    pub nx: u32,
    /// Leaves per column (rows).
    #[arg(long)]
    pub ny: u32,
    /// Hosts per leaf.
    #[arg(long)]
    pub hosts: u32,
    /// Row switches per row.
    #[arg(long, default_value_t = 1)]
    pub rsw: u32,
    /// Column switches per column.
    #[arg(long, default_value_t = 1)]
    pub csw: u32,
    /// Write a fault list of K faulty leaves (to OUTPUT.faults).
    #[arg(long, value_name = "K")]
    pub fail_leaves: Option<u32>,
    /// Where the faulty leaves fall.
    #[arg(long, value_enum, default_value = "random")]
    pub fail_pattern: FaultPattern,
    /// Seed for the faulty leaves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the fault list (default: OUTPUT.faults).
    #[arg(long, value_name = "FILE")]
    pub faults_out: Option<PathBuf>,
    /// Output file (standard output by default).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn torus(a: &TorusArgs) -> crate::Result<Outcome> {
    let spec = TorusSpec {
        dims: a.dims.clone(),
        wrap: !a.mesh,
        hosts: a.hosts,
    };
    let f = build_torus(&spec).map_err(|e| Error::Usage(format!("gen torus: {e}")))?;
    write_fabric(&f, &a.output)?;
    Ok(Outcome::Clean)
}

pub fn dragonfly(a: &DragonflyArgs) -> crate::Result<Outcome> {
    let spec = DragonflySpec {
        a: a.a,
        p: a.p,
        h: a.h,
        groups: a.groups,
    };
    let f = build_dragonfly(&spec).map_err(|e| Error::Usage(format!("gen dragonfly: {e}")))?;
    write_fabric(&f, &a.output)?;
    Ok(Outcome::Clean)
}

pub fn ft2d(a: &Ft2dArgs, g: &Global) -> crate::Result<Outcome> {
    let spec = Ft2dSpec {
        nx: a.nx,
        ny: a.ny,
        hosts: a.hosts,
        rsw: a.rsw,
        csw: a.csw,
    };
    let f = build_ft2d(&spec).map_err(|e| Error::Usage(format!("gen ft2d: {e}")))?;
    write_fabric(&f, &a.output)?;
    let Some(k) = a.fail_leaves else {
        return Ok(Outcome::Clean);
    };
    let leaves = faulty_leaves(&spec, k, a.fail_pattern, a.seed)
        .map_err(|e| Error::Usage(format!("gen ft2d: {e}")))?;
    let faults: Vec<Fault> = leaves
        .iter()
        .map(|&(x, y)| Fault::Switch(leaf_guid(&spec, x, y)))
        .collect();
    let path = faults_path(&a.faults_out, &a.output, "gen ft2d")?;
    let header = format!(
        "routec gen ft2d: {}x{} leaves, {} hosts each; {k} faulty leaves ({:?}, seed {}): {}",
        a.nx,
        a.ny,
        a.hosts,
        a.fail_pattern,
        a.seed,
        leaves
            .iter()
            .map(|(x, y)| format!("({x},{y})"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    crate::io::write_atomic(&path, |w| {
        crate::generate::faults::write_faults(&faults, &header, w)
    })?;
    if !g.quiet {
        eprintln!("note: wrote {k} faulty leaves to {}", path.display());
    }
    Ok(Outcome::Clean)
}
