//! `routec info`: a summary of a topology.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use clap::Args;

use super::Outcome;
use super::common::{Global, TopoArgs};
use crate::error::Error;
use crate::model::summary::FabricSummary;

/// Arguments of `routec info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `routec info`.
pub fn run(args: InfoArgs, g: &Global) -> crate::Result<Outcome> {
    let topo = args.topo.load(g)?;
    let summary = FabricSummary::of(&topo.fabric);
    let out = if args.json {
        let mut s =
            serde_json::to_string_pretty(&summary).map_err(|e| Error::Input(e.to_string()))?;
        s.push('\n');
        s
    } else {
        render_text(&summary)
    };
    crate::io::to_stdout(|w| w.write_all(out.as_bytes()))?;
    Ok(Outcome::Clean)
}

/// The operator's view: one fact per line, oddities called out.
pub fn render_text(s: &FabricSummary) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "switches        {}", s.switches);
    let _ = writeln!(o, "CAs             {}", s.cas);
    let _ = writeln!(o, "routers         {}", s.routers);
    let _ = writeln!(
        o,
        "links           {} ({} switch-switch, {} to end nodes)",
        s.links,
        s.switch_links,
        s.links - s.switch_links
    );
    let _ = writeln!(
        o,
        "parallel        {} bundles holding {} links",
        s.parallel_bundles, s.parallel_links
    );
    let _ = writeln!(o, "self-loops      {}", s.self_loops);
    let _ = writeln!(o, "leaves          {}", s.leaves);
    let _ = writeln!(o, "switch ranks    {}", histogram(&s.switch_ranks, "rank"));
    if s.unranked_switches > 0 {
        let _ = writeln!(
            o,
            "                {} switch(es) reach no leaf",
            s.unranked_switches
        );
    }
    let _ = writeln!(
        o,
        "hosts per leaf  {}",
        histogram(&s.hosts_per_leaf, "hosts")
    );
    let _ = writeln!(
        o,
        "LIDs            {} of {} ports unassigned",
        s.unassigned_lids, s.lid_ports
    );
    let split = if s.components > 1 {
        let sizes: Vec<String> = s.component_sizes.iter().map(|c| c.to_string()).collect();
        format!(
            " -- SPLIT FABRIC, nodes per component: {}",
            sizes.join(", ")
        )
    } else {
        String::new()
    };
    let _ = writeln!(o, "components      {}{split}", s.components);
    o
}

/// `rank 0: 4, rank 1: 2`, or `none`.
fn histogram(h: &BTreeMap<u32, usize>, key: &str) -> String {
    if h.is_empty() {
        return "none".to_string();
    }
    let parts: Vec<String> = h.iter().map(|(k, v)| format!("{key} {k}: {v}")).collect();
    parts.join(", ")
}
