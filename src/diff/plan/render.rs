//! The plan as `routec diff --plan` prints it.

use super::{Cycle, UploadPlan, Verdict};

/// Phases listed in full up to this many switches each.
const SHOWN: usize = 12;

/// The human form of a plan.
pub fn render(p: &UploadPlan) -> String {
    let mut s = String::from("upload plan: ");
    s += &match p.verdict {
        Verdict::Unchanged => "nothing to upload\n".to_string(),
        Verdict::AllAtOnce => format!(
            "safe all at once: {} entries, {} SMPs; every mixture of old and new entries is \
             loop-free and credit-loop-free\n",
            p.entries, p.smps
        ),
        Verdict::Phased => format!(
            "{} phases, {} entries, {} SMPs (all at once is not safe)\n",
            p.phases.len(),
            p.entries,
            p.smps
        ),
        Verdict::Blocked => format!(
            "BLOCKED after {} phases: {} of {} entries cannot be written safely from there\n",
            p.phases.len(),
            p.entries_left,
            p.entries
        ),
        Verdict::OldUnsafe => "the OLD tables are not safe themselves\n".to_string(),
        Verdict::NewUnsafe => "the NEW tables are not safe themselves\n".to_string(),
    };
    if p.sls_first {
        s += "  SLs first: give every source its new path SL (SA path records, new SL2VL \
              tables) and wait until all use it before phase 1 — the old tables are safe on \
              either SL, the phases below with the new SLs only; with sources still on their \
              old SLs the upload blocks (formats/diff-plan.md, \"SLs first\")\n";
    }
    if p.lanes.len() > 1 {
        let sls = if p.sls_first {
            "each path is on the lane of its new SL while the LFTs are written"
        } else {
            "a path may be on the lane of its old or its new SL while the upload runs"
        };
        s += &format!(
            "  channel dependencies per lane (VLs): {:?}; {sls}\n",
            p.lanes
        );
    }
    if !p.switches_ignored.is_empty() {
        s += &format!(
            "  {} switch(es) of OLD or NEW are not in the topology; their tables are ignored\n",
            p.switches_ignored.len()
        );
    }
    if let Some(c) = &p.all_at_once_cycle {
        s += &format!("  all at once could close: {}\n", cycle(c));
    }
    if p.verdict != Verdict::AllAtOnce {
        for (i, ph) in p.phases.iter().enumerate() {
            s += &format!(
                "  phase {}: {} switches, {} SMPs, {} entries\n",
                i + 1,
                ph.switches.len(),
                ph.smps,
                ph.entries
            );
            for sw in ph.switches.iter().take(SHOWN) {
                s += &format!(
                    "    {} lid {} {:?}: blocks {:?}, {} entries\n",
                    sw.guid,
                    sw.lid,
                    sw.desc,
                    sw.blocks,
                    sw.lids.len()
                );
            }
            if ph.switches.len() > SHOWN {
                s += &format!(
                    "    ... and {} more (see --json)\n",
                    ph.switches.len() - SHOWN
                );
            }
        }
    }
    if let Some(c) = &p.cycle {
        s += &format!("  cycle: {}\n", cycle(c));
    }
    s
}

fn cycle(c: &Cycle) -> String {
    match c {
        Cycle::ForwardingLoop { lid, switches } => {
            let path: Vec<String> = switches.iter().map(|g| g.to_string()).collect();
            format!("forwarding loop for LID {lid}: {}", path.join(" -> "))
        }
        Cycle::CreditLoop { turns, vls } => {
            let t: Vec<String> = turns
                .iter()
                .map(|t| format!("{} {}->{}", t.guid, t.in_port, t.out_port))
                .collect();
            let on = vls
                .as_ref()
                .map_or(String::new(), |v| format!(" on VL(s) {v:?}"));
            format!(
                "credit loop{on} over {} turns: {}",
                turns.len(),
                t.join(", ")
            )
        }
    }
}
