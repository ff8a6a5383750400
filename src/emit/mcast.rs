//! The multicast outputs beside `opensm.mcfdbs`: the colour table
//! `mcast-colors.txt` (`formats/mcast-colors.md`) and `mcast.json` (the
//! run's figures and the verification of its MFTs); and groups files in the
//! text form of `formats/mcast-groups.md` (`routec gen mcast`).

use std::io::{self, Write};

use serde::Serialize;

use crate::model::{ColourLine, Fabric, McastGroup, McastSummary};
use crate::verify::mcast::McastCheck;

/// Writes the colour table: one line per group, `NAME MLID` then details.
pub fn write_colours(lines: &[ColourLine], out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "# routec mcast colours: NAME MLID tree= root= switches= height= groups= [was=]"
    )?;
    for l in lines {
        write!(
            out,
            "{} 0x{:04x} tree={} root={} switches={} height={} groups={}",
            l.colour.name, l.colour.mlid, l.colour.tree, l.root, l.switches, l.height, l.groups
        )?;
        if let Some(was) = l.was {
            write!(out, " was=0x{was:04x}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The content of `mcast.json`.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct McastReport<'a> {
    #[serde(flatten)]
    pub summary: &'a McastSummary,
    /// Verification of the computed MFTs (no findings when sound).
    pub check: &'a McastCheck,
}

/// Writes `mcast.json`.
pub fn write_mcast_json(report: &McastReport, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    writeln!(out)
}

/// Writes groups in the text form (`routec gen mcast`).
pub fn write_groups(fabric: &Fabric, groups: &[McastGroup], out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "# routec multicast groups: NAME [mlid=0xC001] PORTGUID ..."
    )?;
    for g in groups {
        write!(out, "{}", g.name)?;
        if let Some(m) = g.mlid {
            write!(out, " mlid=0x{m:04x}")?;
        }
        for m in &g.members {
            write!(out, " {}", m.guid(fabric))?;
        }
        writeln!(out)?;
    }
    Ok(())
}
