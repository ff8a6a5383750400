//! The command line of `compile`, parsed once into a typed [`Job`]: the
//! engine from the registry, its options, the roots with where they came
//! from, and the outputs as a set of kinds.

use std::path::PathBuf;

use clap::ValueEnum;

use super::CompileArgs;
use crate::error::{Error, Result};
use crate::route::{self, Engine, RootSpec, RouteOptions};

/// An output kind `--emit` names.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum Emit {
    /// `routes.lft` (or `.zst`): the route image.
    Image,
    /// `report.json`.
    Report,
    /// `opensm-lfts.dump`, as OpenSM writes it.
    Opensm,
    /// `opensm.fdbs` and `opensm-subnet.lst`, for ibdmchk.
    Fdbs,
    /// Nothing.
    None,
}

impl Emit {
    /// The name on the command line and in `report.json`.
    pub fn name(self) -> &'static str {
        match self {
            Emit::Image => "image",
            Emit::Report => "report",
            Emit::Opensm => "opensm",
            Emit::Fdbs => "fdbs",
            Emit::None => "none",
        }
    }
}

/// Where the up/down roots come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootsSource {
    Auto,
    Top,
    File(PathBuf),
}

impl RootsSource {
    /// How `report.json` names it: `auto`, `top`, or the path given.
    pub fn report_name(&self) -> String {
        match self {
            RootsSource::Auto => "auto".into(),
            RootsSource::Top => "top".into(),
            RootsSource::File(p) => p.display().to_string(),
        }
    }

    /// How the image header names it: `auto`, `top` or `file`.
    pub fn meta_name(&self) -> &'static str {
        match self {
            RootsSource::Auto => "auto",
            RootsSource::Top => "top",
            RootsSource::File(_) => "file",
        }
    }
}

/// A `compile` run, decided before any work.
pub struct Job {
    pub engine: Box<dyn Engine>,
    pub route: RouteOptions,
    pub roots: RootsSource,
    /// Outputs in the order given, without duplicates and without `none`.
    pub emit: Vec<Emit>,
    /// Data VLs: `--vls`, or the fewest the engine needs.
    pub vls: u8,
}

impl Job {
    /// Parses what the arguments leave as text: engine, roots, node order.
    pub fn from_args(args: &CompileArgs) -> Result<Job> {
        let engine = route::engine_by_name(&args.engine).ok_or_else(|| {
            Error::Usage(format!(
                "engine `{}` is unknown (known: {})",
                args.engine,
                route::engine_names().collect::<Vec<_>>().join(", ")
            ))
        })?;
        let roots = match args.roots.as_deref() {
            None | Some("auto") => RootsSource::Auto,
            Some("top") => RootsSource::Top,
            Some(path) => RootsSource::File(PathBuf::from(path)),
        };
        let route = RouteOptions {
            roots: match &roots {
                RootsSource::Auto => RootSpec::Auto,
                RootsSource::Top => RootSpec::Top,
                RootsSource::File(p) => RootSpec::Guids(crate::parse::guids::load_guid_file(p)?),
            },
            node_order: match &args.node_order {
                Some(p) => Some(crate::parse::guids::load_guid_file(p)?),
                None => None,
            },
            vls: 1,
            dmodc_variant: args.dmodc_variant.into(),
        };
        let mut emit: Vec<Emit> = Vec::new();
        for &e in &args.emit {
            if e != Emit::None && !emit.contains(&e) {
                emit.push(e);
            }
        }
        let (min_vls, why) = engine.min_vls();
        let vls = match args.vls {
            None => min_vls,
            Some(v) if v < min_vls => {
                return Err(Error::Usage(format!(
                    "--engine {} needs at least {min_vls} VLs, --vls {v} gives fewer: {why}",
                    args.engine
                )));
            }
            Some(v) => v,
        };
        Ok(Job {
            vls,
            engine,
            route,
            roots,
            emit,
        })
    }

    /// Whether `--emit` asked for `what`.
    pub fn wants(&self, what: Emit) -> bool {
        self.emit.contains(&what)
    }
}
