//! The multicast half of `routec check`: an `opensm.mcfdbs` checked with
//! [`verify_mfts`] against the groups it must serve (issue 7,
//! "Verification"). Findings join the unicast verdict with codes V030..V036.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::CheckArgs;
use crate::cli::common::Global;
use crate::emit::report::InputRecord;
use crate::error::{Error, Result};
use crate::model::{Fabric, GroupColour, McastGroup, OutFile, SwIdx};
use crate::parse::mcast_colours::parse_colours;
use crate::parse::mcast_groups::load_groups;
use crate::parse::mcfdbs::parse_mcfdbs;
use crate::parse::report::recorded_inputs;
use crate::verify::mcast::verify_mfts;
use crate::verify::{Verdict, VerifyOptions};

/// The files a multicast check reads.
pub(super) struct McastInputs {
    mcfdbs: PathBuf,
    groups: PathBuf,
    /// `mcast-colors.txt` beside the MFTs; without it the groups' own
    /// `mlid=` values are the colours, one tree per MLID (OpenSM's model).
    colours: Option<PathBuf>,
}

/// What the multicast check covered, for the text and JSON reports.
#[derive(Clone, Debug, Serialize)]
pub(super) struct McastStats {
    mcfdbs: String,
    groups: String,
    colours: Option<String>,
    groups_checked: usize,
    mlids: usize,
    mft_entries: usize,
    /// Trees (connected MFT components) found.
    trees: usize,
    /// Most groups on one tree: above 1 means groups merged on purpose.
    max_tfi: usize,
    /// Multicast findings, all of them (the verdict keeps the first per code).
    findings: usize,
}

impl McastStats {
    /// One line after the unicast summary.
    pub(super) fn render(&self) -> String {
        format!(
            "multicast: checked {} groups on {} MLIDs ({} MFT entries, {}): {} trees, max TFI {}{}; {}\n",
            self.groups_checked,
            self.mlids,
            self.mft_entries,
            self.mcfdbs,
            self.trees,
            self.max_tfi,
            if self.max_tfi > 1 {
                " (merged groups share a tree)"
            } else {
                ""
            },
            if self.findings == 0 {
                "clean: every member reached exactly once, no stray delivery".to_string()
            } else {
                format!("FAILED: {} finding(s)", self.findings)
            }
        )
    }
}

/// `check --lfts OUTDIR|--mcfdbs FILE [--mcast GROUPS]`: the inputs of the
/// multicast check, or `None` when there are no MFTs to check.
pub(super) fn mcast_inputs(args: &CheckArgs) -> Result<Option<McastInputs>> {
    let beside = |name: &str| {
        let dir = args.lfts.as_ref().filter(|p| p.is_dir())?;
        // An empty file is what `--emit fdbs` writes for ibdmchk when
        // there is no multicast: nothing to check.
        Some(dir.join(name)).filter(|p| p.metadata().is_ok_and(|m| m.is_file() && m.len() > 0))
    };
    let mcfdbs = match (args.mcfdbs.clone(), beside(OutFile::Mcfdbs.name())) {
        (Some(p), _) | (None, Some(p)) => p,
        (None, None) if args.mcast.is_some() => {
            return Err(Error::Usage(
                "--mcast GROUPS needs --mcfdbs FILE or an --lfts OUTDIR holding opensm.mcfdbs"
                    .into(),
            ));
        }
        (None, None) => return Ok(None),
    };
    let dir = mcfdbs.parent().unwrap_or(Path::new("."));
    let groups = match &args.mcast {
        Some(p) => p.clone(),
        None => recorded_groups(dir, &mcfdbs)?,
    };
    let colours = Some(dir.join(OutFile::McastColours.name())).filter(|p| p.is_file());
    Ok(Some(McastInputs {
        mcfdbs,
        groups,
        colours,
    }))
}

/// The groups file a compile run recorded in `dir/report.json`, if it is
/// still there unchanged (same SHA-256).
fn recorded_groups(dir: &Path, mcfdbs: &Path) -> Result<PathBuf> {
    let missing = |why: String| {
        Error::Usage(format!(
            "{}: {why}; give --mcast GROUPS to check the MFTs",
            mcfdbs.display()
        ))
    };
    let report = dir.join(OutFile::Report.name());
    if !report.is_file() {
        return Err(missing(
            "no report.json beside it names the groups file".into(),
        ));
    }
    let record = recorded_inputs(&report)?
        .into_iter()
        .find(|i| i.role == "mcast")
        .ok_or_else(|| missing(format!("{} names no groups file", report.display())))?;
    let path = record.path;
    let now = InputRecord::of("mcast", &path)
        .map_err(|_| missing(format!("the groups file {} is gone", path.display())))?;
    if record.sha256 != now.sha256 {
        return Err(missing(format!(
            "the groups file {} changed since the compile run",
            path.display()
        )));
    }
    Ok(path)
}

/// Checks the MFTs, adds the findings to `verdict` (first ones per code,
/// all counted) and says what was covered.
pub(super) fn check_multicast(
    fabric: &Fabric,
    m: &McastInputs,
    verdict: &mut Verdict,
    g: &Global,
) -> Result<McastStats> {
    let text = crate::io::read_text(&m.mcfdbs)?;
    let mfts = parse_mcfdbs(&m.mcfdbs.display().to_string(), &text, fabric)?;
    let groups = load_groups(&m.groups, fabric)?;
    let colours = match &m.colours {
        Some(p) => parse_colours(&p.display().to_string(), &crate::io::read_text(p)?)?,
        None => colours_from_groups(&groups),
    };
    if m.colours.is_none() && !g.quiet {
        eprintln!(
            "note: no mcast-colors.txt beside {}: each group's mlid= is its MLID, one tree per MLID",
            m.mcfdbs.display()
        );
    }
    let check = verify_mfts(fabric, &mfts, &groups, &colours);
    let found = check.findings.len();
    verdict.absorb(
        check.findings,
        VerifyOptions::default().max_findings_per_code,
    );
    let mut mlids: Vec<u16> = (0..mfts.num_switches() as u32)
        .flat_map(|s| mfts.rows(SwIdx(s)).iter().map(|e| e.0))
        .collect();
    mlids.sort_unstable();
    mlids.dedup();
    Ok(McastStats {
        mcfdbs: m.mcfdbs.display().to_string(),
        groups: m.groups.display().to_string(),
        colours: m.colours.as_ref().map(|p| p.display().to_string()),
        groups_checked: groups.len(),
        mlids: mlids.len(),
        mft_entries: mfts.num_entries(),
        trees: check.trees,
        max_tfi: check.max_tfi,
        findings: found,
    })
}

/// OpenSM's model: a group's MLID is its own (`mlid=` in the groups file,
/// the SA dump's MLID); groups sharing an MLID share its tree on purpose.
fn colours_from_groups(groups: &[McastGroup]) -> Vec<GroupColour> {
    let given = groups.iter().filter_map(|g| Some((g, g.mlid?)));
    given
        .map(|(g, mlid)| GroupColour {
            name: g.name.clone(),
            mlid,
            tree: u32::from(mlid),
        })
        .collect()
}
