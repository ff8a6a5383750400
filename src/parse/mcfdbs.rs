//! Reads `opensm.mcfdbs` (formats.md §5.3, ibdiagnet's `.mcfdbs` too) back
//! into [`Mfts`], so MFT files can be verified like computed tables, or by
//! switch GUID alone ([`parse_mcfdbs_by_guid`]) for `diff`, which has no
//! topology.

use crate::error::{ParseError, Result};
use crate::model::{Fabric, Guid, Mfts, MftsByGuid, PortMask};

use super::text::{lines_at, parse_mlid, tokens};

/// Parses `text` (named `file` in errors) against `fabric`'s switches.
pub fn parse_mcfdbs(file: &str, text: &str, fabric: &Fabric) -> Result<Mfts> {
    let mut mfts = Mfts::new(fabric.num_switches());
    let switch = |guid| {
        let sw = fabric.switch_index(fabric.node_by_guid(guid)?)?;
        Some((sw, fabric.node(fabric.switch_node(sw)).num_ports))
    };
    let expected = "the GUID of a switch of the topology";
    read_rows(file, text, switch, expected, |sw, mlid, mask| {
        mfts.insert(sw, mlid, mask)
    })?;
    Ok(mfts)
}

/// Parses `text` without a topology: any switch GUID, ports up to 255.
pub fn parse_mcfdbs_by_guid(file: &str, text: &str) -> Result<MftsByGuid> {
    let mut out = MftsByGuid::new();
    read_rows(
        file,
        text,
        |g| Some((g, 255)),
        "a switch GUID",
        |g, mlid, mask| {
            let row = out.entry(g).or_default();
            match row.binary_search_by_key(&mlid, |e| e.0) {
                Ok(i) => row[i].1 = mask,
                Err(i) => row.insert(i, (mlid, mask)),
            }
        },
    )?;
    Ok(out)
}

/// The grammar, once: `switch` resolves a `Switch` GUID to a key and its
/// port count (`None`: unknown, an error expecting `expected`); `row`
/// receives every `MLID : ports` line.
fn read_rows<K: Copy>(
    file: &str,
    text: &str,
    switch: impl Fn(Guid) -> Option<(K, u8)>,
    expected: &str,
    mut row: impl FnMut(K, u16, PortMask),
) -> Result<()> {
    let mut current: Option<(K, u8)> = None;
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
                current = Some(switch(guid).ok_or_else(|| err(gat, g.len(), expected))?);
            }
            "LID" => {}
            _ => {
                let (sw, num_ports) = current
                    .ok_or_else(|| err(at, first.len(), "`Switch 0x<guid>` before MFT rows"))?;
                let mlid = parse_mlid(first)
                    .ok_or_else(|| err(at, first.len(), "an MLID (0xC000..0xFFFE)"))?;
                let (cat, colon) = toks.next().ok_or_else(|| err(body.len(), 0, "`:`"))?;
                if colon != ":" {
                    return Err(err(cat, colon.len(), "`:`").into());
                }
                let mut mask = PortMask::default();
                for (pat, p) in toks {
                    let port = p
                        .strip_prefix("0x")
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                        .filter(|&v| v <= num_ports)
                        .ok_or_else(|| err(pat, p.len(), "a port of the switch (0x000..)"))?;
                    mask.set(port);
                }
                row(sw, mlid, mask);
            }
        }
    }
    Ok(())
}
