//! Reads `opensm.mcfdbs` (formats.md §5.3, ibdiagnet's `.mcfdbs` too) back
//! into [`Mfts`], so MFT files can be verified like computed tables.

use crate::error::{ParseError, Result};
use crate::model::{Fabric, Guid, SwIdx};

use super::colours::{lines_at, parse_mlid, tokens};
use super::mft::{Mfts, PortMask};

/// Parses `text` (named `file` in errors) against `fabric`'s switches.
pub fn parse_mcfdbs(file: &str, text: &str, fabric: &Fabric) -> Result<Mfts> {
    let mut mfts = Mfts::new(fabric.num_switches());
    let mut current: Option<SwIdx> = None;
    for (start, line) in lines_at(text) {
        let body = line.trim_end();
        let err = |at: usize, len: usize, what: &str| {
            ParseError::at(file, text, start + at, len, what, "")
        };
        let mut toks = tokens(body);
        let Some((at, first)) = toks.next() else {
            continue;
        };
        match first {
            "Switch" => {
                let (gat, g) = toks
                    .next()
                    .ok_or_else(|| err(body.len(), 0, "a switch GUID"))?;
                let guid = Guid::parse(g).ok_or_else(|| err(gat, g.len(), "a switch GUID"))?;
                let sw = fabric
                    .node_by_guid(guid)
                    .and_then(|n| fabric.switch_index(n));
                current =
                    Some(sw.ok_or_else(|| {
                        err(gat, g.len(), "the GUID of a switch of the topology")
                    })?);
            }
            "LID" => {}
            _ => {
                let sw = current
                    .ok_or_else(|| err(at, first.len(), "`Switch 0x<guid>` before MFT rows"))?;
                let mlid = parse_mlid(first)
                    .ok_or_else(|| err(at, first.len(), "an MLID (0xC000..0xFFFE)"))?;
                let (cat, colon) = toks.next().ok_or_else(|| err(body.len(), 0, "`:`"))?;
                if colon != ":" {
                    return Err(err(cat, colon.len(), "`:`").into());
                }
                let num_ports = fabric.node(fabric.switch_node(sw)).num_ports;
                let mut mask = PortMask::default();
                for (pat, p) in toks {
                    let port = p
                        .strip_prefix("0x")
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                        .filter(|&v| v <= num_ports)
                        .ok_or_else(|| err(pat, p.len(), "a port of the switch (0x000..)"))?;
                    mask.set(port);
                }
                mfts.insert(sw, mlid, mask);
            }
        }
    }
    Ok(mfts)
}
