//! Readers of existing forwarding tables (`formats/lft-dumps.md`):
//! `opensm-lfts.dump` (both header forms), `ibroute`/`dump_fts` output,
//! routec route images (`routes.lft`, `.zst`) and `compile` output
//! directories, all into one [`TableSet`].
//!
//! Used by `routec diff` and `routec check --lfts`.

use std::ops::Range;
use std::path::Path;

use crate::emit::image::{self, ImageHeader};
use crate::error::{Error, ParseError, Result};
use crate::io::Bytes;
use crate::model::{Fabric, Guid, LFT_BLOCK, Lid, LidMap, Lfts, NO_ROUTE};

/// Where a [`TableSet`] came from.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableKind {
    /// routec route image (`routes.lft`, possibly zstd-compressed).
    Image,
    /// OpenSM `opensm-lfts.dump`.
    OpensmDump,
    /// infiniband-diags `ibroute` / `dump_fts` output.
    Ibroute,
    /// Built in memory from routed tables.
    Memory,
}

/// One switch's forwarding table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchTable {
    pub guid: Guid,
    /// The switch's LID (0 when the file does not tell).
    pub lid: Lid,
    pub desc: Option<String>,
    /// NumPorts, when the file tells (images do, dumps do not).
    pub num_ports: Option<u8>,
    /// LinearFDBTop: the highest LID with an entry.
    pub top: Lid,
    range: Range<usize>,
}

/// Forwarding tables read from a file: per-switch rows (LID-indexed, padded
/// with [`NO_ROUTE`] to whole blocks) over one buffer, which for an
/// uncompressed image is the memory map itself.
#[derive(Debug)]
pub struct TableSet {
    pub kind: TableKind,
    /// Switches in file order.
    pub switches: Vec<SwitchTable>,
    /// LID → port GUID where the file tells (`Guid(0)` = unknown).
    pub lid_guids: Vec<Guid>,
    /// The image header, for images.
    pub header: Option<ImageHeader>,
    data: Bytes,
}

impl TableSet {
    /// The LFT of switch `i`, LID-indexed, whole blocks (entries past `top`
    /// are [`NO_ROUTE`]).
    pub fn lft(&self, i: usize) -> &[u8] {
        &self.data[self.switches[i].range.clone()]
    }

    /// The output port of switch `i` for `lid` ([`NO_ROUTE`] past the table).
    pub fn port(&self, i: usize, lid: Lid) -> u8 {
        self.lft(i).get(lid as usize).copied().unwrap_or(NO_ROUTE)
    }

    /// The port GUID owning `lid`, when known.
    pub fn lid_guid(&self, lid: Lid) -> Option<Guid> {
        self.lid_guids.get(lid as usize).copied().filter(|g| g.0 != 0)
    }

    /// The index of the switch with node GUID `g` (linear; build a map for many).
    pub fn switch_by_guid(&self, g: Guid) -> Option<usize> {
        self.switches.iter().position(|s| s.guid == g)
    }

    /// Tables routed in memory, as `compile` would write them.
    pub fn from_routing(fabric: &Fabric, lids: &LidMap, lfts: &Lfts) -> TableSet {
        let switches = fabric
            .switches()
            .iter()
            .enumerate()
            .map(|(s, &n)| SwitchTable {
                guid: fabric.node(n).guid,
                lid: fabric.switch_lid(n),
                desc: Some(fabric.node(n).desc.clone()),
                num_ports: Some(fabric.node(n).num_ports),
                top: lfts.top(),
                range: s * lfts.stride()..(s + 1) * lfts.stride(),
            })
            .collect();
        TableSet {
            kind: TableKind::Memory,
            switches,
            lid_guids: image::lid_guids_of(fabric, lids),
            header: None,
            data: Bytes::Owned(lfts.as_bytes().to_vec()),
        }
    }

    /// The tables as a model [`Lfts`] in file switch order, with the largest
    /// LinearFDBTop of the set (for the verifier).
    pub fn to_lfts(&self) -> Lfts {
        let top = self.switches.iter().map(|s| s.top).max().unwrap_or(0);
        let mut out = Lfts::new(self.switches.len(), top);
        for (i, row) in out.rows_mut().enumerate() {
            let src = self.lft(i);
            let n = src.len().min(row.len());
            row[..n].copy_from_slice(&src[..n]);
        }
        out
    }
}

/// Reads tables from `path`: a `compile` output directory (its
/// `routes.lft`, `routes.lft.zst` or `opensm-lfts.dump`, in that order), a
/// route image, or an OpenSM / ibroute text dump, any of them zstd-compressed.
pub fn read_tables(path: &Path) -> Result<TableSet> {
    if path.is_dir() {
        let pick = ["routes.lft", "routes.lft.zst", "opensm-lfts.dump"]
            .iter()
            .map(|f| path.join(f))
            .find(|p| p.is_file())
            .ok_or_else(|| {
                Error::Input(format!(
                    "{}: no routes.lft, routes.lft.zst or opensm-lfts.dump in this directory",
                    path.display()
                ))
            })?;
        return read_tables(&pick);
    }
    let bytes = crate::io::read_input(path)?;
    parse_tables(&path.display().to_string(), bytes)
}

/// Parses tables from bytes already read; `name` is used in messages.
pub fn parse_tables(name: &str, bytes: Bytes) -> Result<TableSet> {
    if image::is_image(&bytes) {
        return from_image(name, bytes);
    }
    let text = std::str::from_utf8(&bytes)
        .map(std::borrow::Cow::Borrowed)
        .unwrap_or_else(|_| String::from_utf8_lossy(&bytes));
    parse_text(name, &text)
}

fn from_image(name: &str, bytes: Bytes) -> Result<TableSet> {
    let idx = image::read_index(&bytes).map_err(|e| Error::Input(format!("{name}: {e}")))?;
    let switches = idx
        .switches
        .into_iter()
        .map(|d| SwitchTable {
            guid: d.guid,
            lid: d.lid,
            desc: Some(d.desc),
            num_ports: Some(d.num_ports),
            top: d.top,
            range: d.table,
        })
        .collect();
    Ok(TableSet {
        kind: TableKind::Image,
        switches,
        lid_guids: idx.lid_guids,
        header: Some(idx.header),
        data: bytes,
    })
}

/// A switch block being read.
struct Block {
    guid: Guid,
    lid: Option<Lid>,
    desc: String,
    top: Lid,
    start: usize,
}

/// Parses OpenSM `opensm-lfts.dump` or `ibroute`/`dump_fts` text.
pub fn parse_text(name: &str, text: &str) -> Result<TableSet> {
    let mut kind = None;
    let mut switches = Vec::new();
    let mut data: Vec<u8> = Vec::new();
    let mut lid_guids: Vec<Guid> = Vec::new();
    let mut cur: Option<Block> = None;
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        let at = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let err = |col: usize, expected: &str| -> Error {
            ParseError::at(name, text, at + col, 1, expected, "").into()
        };
        if let Some(rest) = line.strip_prefix("Unicast lids [") {
            if let Some(b) = cur.take() {
                switches.push(finish(b, &data));
            }
            let (b, k) = header(rest, data.len()).ok_or_else(|| {
                err(0, "`Unicast lids [LO-HI] of switch Lid N guid 0x... (desc):`")
            })?;
            kind.get_or_insert(k);
            data.resize(data.len() + rows_len(b.top), NO_ROUTE);
            cur = Some(b);
        } else if line.starts_with("0x") {
            let Some(b) = cur.as_mut() else {
                return Err(err(0, "a `Unicast lids` header before the first entry"));
            };
            let (lid, port, guid) = entry(line).ok_or_else(|| err(0, "`0xLID PORT` entry"))?;
            if lid > b.top {
                return Err(err(0, &format!("a LID within the block range 0..={}", b.top)));
            }
            data[b.start + lid as usize] = port;
            if port == 0 {
                b.lid.get_or_insert(lid);
            }
            if let Some(g) = guid {
                if lid_guids.len() <= lid as usize {
                    lid_guids.resize(lid as usize + 1, Guid(0));
                }
                lid_guids[lid as usize] = g;
            }
        } else if is_skippable(line) {
        } else {
            return Err(err(0, "a `Unicast lids` header, a `0xLID PORT` entry or `N lids dumped`"));
        }
    }
    if let Some(b) = cur.take() {
        switches.push(finish(b, &data));
    }
    let kind = kind.ok_or_else(|| {
        Error::from(ParseError::at(name, text, 0, 0, "an OpenSM or ibroute unicast LFT dump", ""))
    })?;
    Ok(TableSet {
        kind,
        switches,
        lid_guids,
        header: None,
        data: Bytes::Owned(data),
    })
}

fn rows_len(top: Lid) -> usize {
    (top as usize / LFT_BLOCK + 1) * LFT_BLOCK
}

fn finish(b: Block, _data: &[u8]) -> SwitchTable {
    SwitchTable {
        guid: b.guid,
        lid: b.lid.unwrap_or(0),
        desc: Some(b.desc),
        num_ports: None,
        top: b.top,
        range: b.start..b.start + rows_len(b.top),
    }
}

fn is_skippable(line: &str) -> bool {
    let t = line.trim();
    t.is_empty()
        || t.ends_with("lids dumped")
        || t.starts_with("Lid  Out")
        || t.starts_with("Port     Info")
        || t.starts_with('#')
}

fn parse_num(s: &str) -> Option<u32> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// `LO-HI] of switch <portid> guid 0x<hex> (<desc>):` after `Unicast lids [`.
/// OpenSM writes `Lid N` and `('desc')`; ibroute `Lid N` or `DR path ...`
/// and `(desc)`; OpenSM before 2008 a hex range.
fn header(rest: &str, start: usize) -> Option<(Block, TableKind)> {
    let (range, rest) = rest.split_once("] of switch ")?;
    let (_, hi) = range.split_once('-')?;
    let top = Lid::try_from(parse_num(hi)?).ok()?;
    let (portid, rest) = rest.split_once(" guid ")?;
    let (guid, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let guid = Guid::parse(guid)?;
    let lid = portid.strip_prefix("Lid ").and_then(parse_num).and_then(|l| Lid::try_from(l).ok());
    let desc = rest.trim_end().strip_suffix(':')?.strip_prefix('(')?.strip_suffix(')')?;
    let (desc, kind) = match desc.strip_prefix('\'').and_then(|d| d.strip_suffix('\'')) {
        Some(d) => (d, TableKind::OpensmDump),
        None => (desc, TableKind::Ibroute),
    };
    let block = Block {
        guid,
        lid,
        desc: desc.to_string(),
        top,
        start,
    };
    Some((block, kind))
}

/// `0xLLLL PPP[ # ...| : (...)]` → (LID, port, port GUID if printed).
fn entry(line: &str) -> Option<(Lid, u8, Option<Guid>)> {
    let mut it = line.splitn(3, ' ');
    let lid = Lid::try_from(parse_num(it.next()?)?).ok()?;
    let port: u8 = it.next()?.parse().ok()?;
    let guid = it.next().and_then(|rest| {
        let (_, g) = rest.split_once("portguid ")?;
        let g = g.split(|c: char| c == ':' || c == ')' || c == ' ').next()?;
        Guid::parse(g)
    });
    Some((lid, port, guid))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENSM: &str = "\
Unicast lids [0-3] of switch Lid 2 guid 0x0000000000200000 ('spine 1'):
0x0001 001 # Channel Adapter portguid 0x0000000000100001: 'h1'
0x0002 000 # Switch portguid 0x0000000000200000: 'spine 1'
3 lids dumped
";

    #[test]
    fn opensm_dump_entries_and_guids() {
        let t = parse_text("d", OPENSM).unwrap();
        assert_eq!(t.kind, TableKind::OpensmDump);
        assert_eq!(t.switches.len(), 1);
        let s = &t.switches[0];
        assert_eq!((s.guid, s.lid, s.top), (Guid(0x200000), 2, 3));
        assert_eq!(s.desc.as_deref(), Some("spine 1"));
        assert_eq!(&t.lft(0)[..4], &[NO_ROUTE, 1, 0, NO_ROUTE]);
        assert_eq!(t.lft(0).len(), 64);
        assert_eq!(t.lid_guid(1), Some(Guid(0x100001)));
        assert_eq!(t.lid_guid(3), None);
    }

    #[test]
    fn old_hex_header_and_ibroute() {
        let old = OPENSM.replace("[0-3]", "[0x0-0x3]");
        assert_eq!(parse_text("d", &old).unwrap().switches[0].top, 3);
        let ib = "\
Unicast lids [0x0-0x29] of switch DR path slid 0; dlid 0; 0,1,5,7 guid 0x0000000000200005 (leaf4):
  Lid  Out   Destination
       Port     Info 
0x0002 005 : (Channel Adapter portguid 0x0000000000100001: 'h1')
0x0003 007 : (path #2 out of 2: portguid 0x0000000000100001)
0x000e 000 : (Switch portguid 0x0000000000200005: 'leaf4')
0x000f 003 
38 valid lids dumped 
";
        let t = parse_text("i", ib).unwrap();
        assert_eq!(t.kind, TableKind::Ibroute);
        let s = &t.switches[0];
        assert_eq!((s.lid, s.top, s.desc.as_deref()), (0xe, 0x29, Some("leaf4")));
        assert_eq!(t.port(0, 3), 7);
        assert_eq!(t.port(0, 0xf), 3);
        assert_eq!(t.lid_guid(3), Some(Guid(0x100001)));
    }

    #[test]
    fn errors_point_at_the_line() {
        let e = parse_text("d", "Unicast lids [0-3] of switch Lid 2 guid 0x1 ('s'):\n0x0009 001\n")
            .unwrap_err();
        assert!(e.to_string().contains("d:2:1"), "{e}");
        let e = parse_text("d", "hello\n").unwrap_err();
        assert!(e.to_string().contains("d:1:1"), "{e}");
        assert!(parse_text("d", "").is_err());
    }
}
