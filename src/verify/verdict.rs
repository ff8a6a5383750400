//! What [`super::verify_tables`] returns: findings with their counts per
//! code, and the figures of the pass for reports; and its text.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use super::finding::{Code, Finding, Severity};

/// Figures from the pass, for reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    pub switches: usize,
    /// LIDs of end ports, and of switches, that were checked.
    pub ca_lids: usize,
    pub switch_lids: usize,
    /// (source end port, destination LID) pairs checked, and how many fail.
    pub ca_pairs: u64,
    pub unreachable_pairs: u64,
    pub looping_pairs: u64,
    /// (source switch, switch LID) pairs, and how many have no route.
    pub switch_pairs: u64,
    pub switch_pairs_unreachable: u64,
    /// Switch-to-switch links of delivered end-port routes: histogram
    /// (index = hops, value = pairs) and maximum.
    pub hop_histogram: Vec<u64>,
    pub max_hops: usize,
    /// Channel dependency graph size.
    pub cdg_channels: usize,
    pub cdg_edges: usize,
    pub vls_used: usize,
    /// Strongly connected components with a cycle.
    pub credit_loops: usize,
    pub up_down_checked: bool,
}

/// The result of [`verify_tables`](super::verify_tables).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Verdict {
    /// The first findings of each code, ordered by code then LID.
    pub findings: Vec<Finding>,
    /// Occurrences per code, including those left out of `findings`.
    pub counts: BTreeMap<String, u64>,
    pub stats: Stats,
}

impl Verdict {
    /// No error findings (warnings allowed).
    pub fn is_clean(&self) -> bool {
        self.errors() == 0
    }

    /// Number of error occurrences.
    pub fn errors(&self) -> u64 {
        Code::ALL
            .iter()
            .filter(|c| c.severity() == Severity::Error)
            .filter_map(|c| self.counts.get(c.as_str()))
            .sum()
    }

    /// Occurrences of `code`.
    pub fn count(&self, code: Code) -> u64 {
        self.counts.get(code.as_str()).copied().unwrap_or(0)
    }

    /// Adds findings of another check (multicast): every one is counted,
    /// the first `cap` of each code are kept, as for the unicast checks.
    pub fn absorb(&mut self, found: impl IntoIterator<Item = Finding>, cap: usize) {
        for f in found {
            let n = self.counts.entry(f.code.as_str().to_string()).or_default();
            *n += 1;
            if *n <= cap as u64 {
                self.findings.push(f);
            }
        }
    }
}

impl Verdict {
    /// The human rendering: each finding, then a summary line.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for f in &self.findings {
            let _ = write!(s, "{f}");
        }
        for (code, &n) in &self.counts {
            let shown = self
                .findings
                .iter()
                .filter(|f| f.code.as_str() == code)
                .count() as u64;
            if n > shown {
                let _ = writeln!(s, "{code}: {} more not shown", n - shown);
            }
        }
        let st = &self.stats;
        let _ = writeln!(
            s,
            "checked {} switches, {} CA LIDs, {} switch LIDs, {} CA pairs; max {} switch hops; CDG {} channels, {} edges, {} VL(s)",
            st.switches,
            st.ca_lids,
            st.switch_lids,
            st.ca_pairs,
            st.max_hops,
            st.cdg_channels,
            st.cdg_edges,
            st.vls_used
        );
        if self.counts.is_empty() {
            s.push_str("clean: all routes delivered, no loops, no credit loops");
            if st.up_down_checked {
                s.push_str(", up/down respected");
            }
            s.push('\n');
        } else {
            let parts: Vec<String> = self
                .counts
                .iter()
                .map(|(c, n)| format!("{c}: {n}"))
                .collect();
            let _ = writeln!(
                s,
                "{}: {}",
                if self.is_clean() {
                    "warnings"
                } else {
                    "FAILED"
                },
                parts.join(", ")
            );
        }
        s
    }
}
