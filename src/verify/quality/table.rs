//! The operator's table of a [`QualityReport`] (`routec report` without
//! `--json`): one row per pattern, then the histograms and hops.

use std::fmt::Write as _;

use super::report::{A2aQuality, HopStats, LinkRef, PermQuality, QualityReport};

impl QualityReport {
    /// The operator's table: the header, one row per pattern, then the
    /// max-load histograms, the busiest all-to-all link, the hop counts
    /// and the path diversity, each line only when its measure was taken.
    pub fn render(&self) -> String {
        let mut o = String::new();
        self.render_header(&mut o);
        if let Some(p) = &self.shift {
            render_perm_row(&mut o, "shift", p);
        }
        if let Some(p) = &self.random {
            render_perm_row(&mut o, &format!("random/{}", p.seed.unwrap_or(0)), p);
        }
        if let Some(a) = &self.all_to_all {
            render_all_to_all_row(&mut o, a);
        }
        for (name, p) in [("shift", &self.shift), ("random", &self.random)] {
            if let Some(p) = p {
                render_load_histogram(&mut o, name, p);
            }
        }
        if let Some(l) = self.all_to_all.as_ref().and_then(|a| a.worst_link.as_ref()) {
            render_busiest_link(&mut o, l);
        }
        render_hops(&mut o, &self.hops);
        if let Some(d) = &self.path_diversity {
            render_diversity(&mut o, d);
        }
        o
    }

    /// The lines above the rows: how many nodes the patterns run over and
    /// in which order, what a load counts, and the column titles.
    fn render_header(&self, o: &mut String) {
        let order = match self.node_order.as_str() {
            "topological" => "topological order (leaf switch GUID, leaf port)",
            _ => "the order of the --node-order file",
        };
        let _ = writeln!(o, "route quality: {} nodes in {order}", self.nodes);
        let _ = writeln!(
            o,
            "loads are routes per directed cable; switch = switch-to-switch, host = CA<->switch"
        );
        let _ = writeln!(
            o,
            "{:<12} {:>14}  {:<34} {:>6} {:>9} {:>9}",
            "pattern", "routed", "switch load", "host", "unrouted", "too long"
        );
    }
}

/// The row of the shift or random permutations: the worst switch-link
/// load over all of them beside the mean, so one bad permutation is not
/// averaged away.
fn render_perm_row(o: &mut String, name: &str, p: &PermQuality) {
    let what = format!("{} perms", p.permutations);
    let load = format!("max {} (mean {:.3})", p.max_switch_load, p.mean_switch_load);
    let _ = writeln!(
        o,
        "{name:<12} {what:>14}  {load:<34} {:>6} {:>9} {:>9}",
        p.max_host_load, p.unrouted_pairs, p.over_hop_limit_pairs
    );
}

/// The all-to-all row: its edge forwarding index beside a lower bound no
/// routing can beat, so the ratio says how far from the best it is.
fn render_all_to_all_row(o: &mut String, a: &A2aQuality) {
    let what = format!("{} pairs", a.pairs);
    let ratio = a.ratio.map_or("-".into(), |r| format!("{r:.3}"));
    let load = format!(
        "EFI {} (bound {:.2}, x{ratio})",
        a.efi_switch, a.lower_bound_switch
    );
    let _ = writeln!(
        o,
        "{:<12} {what:>14}  {load:<34} {:>6} {:>9} {:>9}",
        "all-to-all", a.efi_host, a.unrouted_pairs, a.over_hop_limit_pairs
    );
}

/// How many permutations reached each max load and, when some shared a
/// cable, which ones did worst (shift k or sample number), so the
/// operator can find them again.
fn render_load_histogram(o: &mut String, name: &str, p: &PermQuality) {
    let hist: Vec<String> = p
        .histogram
        .iter()
        .map(|b| format!("{}:{}", b.load, b.count))
        .collect();
    let _ = write!(
        o,
        "{name} max-load histogram (load:perms): {}",
        hist.join(" ")
    );
    if p.max_switch_load > 1 {
        let worst: Vec<String> = p.worst.iter().map(|k| k.to_string()).collect();
        let what = if name == "shift" {
            "shifts k"
        } else {
            "samples"
        };
        let _ = write!(o, "; worst {what}: {}", worst.join(" "));
    }
    o.push('\n');
}

/// The cable that carries the all-to-all EFI, named at both ends so the
/// operator can find it in the fabric.
fn render_busiest_link(o: &mut String, l: &LinkRef) {
    let _ = writeln!(
        o,
        "all-to-all busiest link: {} \"{}\" port {} -> {} \"{}\" port {}",
        l.from, l.from_name, l.port, l.to, l.to_name, l.to_port
    );
}

/// The hop-count line: switch links per delivered pair, with only the
/// hop counts that occur in the histogram.
fn render_hops(o: &mut String, h: &HopStats) {
    let hist: Vec<String> = h
        .histogram
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(i, c)| format!("{i}:{c}"))
        .collect();
    let _ = writeln!(
        o,
        "hops (switch links, {} delivered pairs): min {} mean {:.3} max {}; histogram {}",
        h.pairs,
        h.min,
        h.mean,
        h.max,
        hist.join(" ")
    );
}

/// The path-diversity lines: the histogram of disjoint paths per pair.
fn render_diversity(o: &mut String, d: &super::PathDiversity) {
    let hist: Vec<String> = d
        .histogram
        .iter()
        .enumerate()
        .filter(|(k, c)| *k > 0 && **c > 0)
        .map(|(k, c)| format!("{k}:{c}"))
        .collect();
    let _ = writeln!(
        o,
        "path diversity (LMC up to {}, {} CA pairs on different switches{}): link-disjoint paths \
         per pair {}; >= 2 for {:.1} %; {} unrouted, {} same-switch pairs left out",
        d.max_lmc,
        d.pairs,
        if d.exact { "" } else { ", greedy lower bound" },
        hist.join(" "),
        d.at_least_two * 100.0,
        d.unrouted_pairs,
        d.same_switch_pairs
    );
}
