//! Readers of existing forwarding tables (`formats/lft-dumps.md`):
//! `opensm-lfts.dump` (both header forms), `ibroute`/`dump_fts` output,
//! routec route images (`routes.lft`, `.zst`) and `compile` output
//! directories, all into one [`TableSet`].
//!
//! Used by `routec diff` and `routec check --lfts`.

use std::path::Path;

use super::image;
use crate::error::{Error, ParseError, Result};
use crate::io::Bytes;
use crate::model::table_set::{SwitchTable, TableKind, TableSet, TableVl};
use crate::model::{Guid, LFT_BLOCK, Lid, NO_ROUTE, OutFile};

/// Reads tables from `path`: a `compile` output directory (its
/// `routes.lft`, `routes.lft.zst` or `opensm-lfts.dump`, in that order), a
/// route image, or an OpenSM / ibroute text dump, any of them zstd-compressed.
pub fn read_tables(path: &Path) -> Result<TableSet> {
    read_tables_rows(path).map(|(t, _)| t)
}

/// [`read_tables`], with the SHA-256 of every row (directory order) when
/// the tables are a route image, whose digest check hashes them anyway.
pub fn read_tables_rows(path: &Path) -> Result<(TableSet, Option<Vec<[u8; 32]>>)> {
    refuse_mixed_set(path)?;
    if path.is_dir() {
        let names = OutFile::TABLES.map(OutFile::name);
        let pick = names
            .iter()
            .map(|f| path.join(f))
            .find(|p| p.is_file())
            .ok_or_else(|| {
                Error::Input(format!(
                    "{}: no {} in this directory",
                    path.display(),
                    names.join(", ")
                ))
            })?;
        return read_tables_rows(&pick);
    }
    let bytes = crate::io::read_input(path)?;
    let name = path.display().to_string();
    if image::is_image(&bytes) {
        return from_image(&name, bytes).map(|(t, rows)| (t, Some(rows)));
    }
    parse_tables(&name, bytes).map(|t| (t, None))
}

/// A compile killed while replacing its outputs leaves the marker line
/// first in `routec.manifest` (`emit::commit`): the directory, or an output
/// of it, is then a mix of two runs, and is refused rather than read.
fn refuse_mixed_set(path: &Path) -> Result<()> {
    let dir = if path.is_dir() {
        path
    } else {
        let ours = path
            .file_name()
            .is_some_and(|n| OutFile::ALL.iter().any(|f| n == f.name()));
        match path.parent() {
            Some(d) if ours => d,
            _ => return Ok(()),
        }
    };
    let manifest = dir.join(OutFile::Manifest.name());
    let Ok(text) = std::fs::read_to_string(&manifest) else {
        return Ok(());
    };
    if text.lines().next() == Some(crate::model::MANIFEST_REPLACING) {
        return Err(Error::Input(format!(
            "{}: a compile was stopped while replacing the outputs in {}: they are a mix of \
             two runs (routec.manifest says so); run the compile again",
            path.display(),
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            }
            .display()
        )));
    }
    Ok(())
}

/// Parses tables from bytes already read; `name` is used in messages.
pub fn parse_tables(name: &str, bytes: Bytes) -> Result<TableSet> {
    if image::is_image(&bytes) {
        return from_image(name, bytes).map(|(t, _)| t);
    }
    let text = std::str::from_utf8(&bytes)
        .map(std::borrow::Cow::Borrowed)
        .unwrap_or_else(|_| String::from_utf8_lossy(&bytes));
    parse_text(name, &text)
}

/// The tables of a route image and its rows' SHA-256 (directory order).
fn from_image(name: &str, bytes: Bytes) -> Result<(TableSet, Vec<[u8; 32]>)> {
    let idx = image::read_index(&bytes).map_err(|e| Error::Input(format!("{name}: {e}")))?;
    // A changed table byte under a stale digest must not pass as tables
    // routec wrote: the digest is checked on every read.
    let rows = image::verified_row_digests(&bytes, &idx)
        .map_err(|e| Error::Input(format!("{name}: {e}")))?;
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
    let vl = idx.vl.map(|v| TableVl {
        vls: v.vls,
        end_port: v.end_port,
        default: v.default,
        sl2vl: v.sl2vl,
        path_sl: v.path_sl,
    });
    let set = TableSet {
        kind: TableKind::Image,
        switches,
        lid_guids: idx.lid_guids,
        header: Some(idx.header),
        vl,
        data: bytes,
    };
    Ok((set, rows))
}

/// A switch block being read.
struct Block {
    guid: Guid,
    lid: Option<Lid>,
    desc: String,
    top: Lid,
    start: usize,
    /// Byte offset of the header line, and of each LID's entry line + 1
    /// (0: none yet), to name both lines of a duplicate.
    at: usize,
    entry_at: Vec<usize>,
    /// The `N lids dumped` line OpenSM ends a block with was seen.
    ended: bool,
}

/// Parses OpenSM `opensm-lfts.dump` or `ibroute`/`dump_fts` text. Large
/// dumps (a 27,648-host fabric dumps 5.8 GB) are cut at switch headers and
/// the pieces parsed in parallel.
pub fn parse_text(name: &str, text: &str) -> Result<TableSet> {
    use rayon::prelude::*;
    let cuts = chunk_starts(text, rayon::current_num_threads() * 4);
    let parts: Vec<Partial> = cuts
        .par_windows(2)
        .map(|w| parse_range(name, text, w[0], w[1]))
        .collect::<Result<_>>()?;
    let kind = parts.iter().find_map(|p| p.kind).ok_or_else(|| {
        Error::from(ParseError::at(
            name,
            text,
            0,
            0,
            "an OpenSM or ibroute unicast LFT dump",
            "",
        ))
    })?;
    duplicate_switch(name, text, &parts)?;
    let mut data = Vec::with_capacity(parts.iter().map(|p| p.data.len()).sum());
    let (mut switches, mut lid_guids) = (Vec::new(), Vec::<Guid>::new());
    for p in parts {
        let base = data.len();
        data.extend_from_slice(&p.data);
        switches.extend(p.switches.into_iter().map(|mut s| {
            s.range = s.range.start + base..s.range.end + base;
            s
        }));
        if lid_guids.len() < p.lid_guids.len() {
            lid_guids.resize(p.lid_guids.len(), Guid(0));
        }
        for (l, g) in p.lid_guids.into_iter().enumerate() {
            if g.0 != 0 {
                lid_guids[l] = g;
            }
        }
    }
    Ok(TableSet {
        kind,
        switches,
        lid_guids,
        header: None,
        vl: None,
        data: Bytes::Owned(data),
    })
}

/// The same switch twice is an input error naming both headers: which
/// copy a check used would otherwise decide its verdict.
fn duplicate_switch(name: &str, text: &str, parts: &[Partial]) -> Result<()> {
    let mut all: Vec<(Guid, usize)> = parts
        .iter()
        .flat_map(|p| {
            p.switches
                .iter()
                .map(|s| s.guid)
                .zip(p.header_at.iter().copied())
        })
        .collect();
    all.sort_unstable();
    match all.windows(2).find(|w| w[0].0 == w[1].0) {
        None => Ok(()),
        Some(w) => {
            let (l, _) = crate::error::line_col(text, w[0].1);
            let e = ParseError::at(
                name,
                text,
                w[1].1,
                0,
                "each switch once",
                format!("switch {} again (first at line {l})", w[0].0),
            );
            Err(e
                .with_secondary(text, w[0].1, 1, "first block of this switch")
                .into())
        }
    }
}

/// Byte offsets `0 = c0 < c1 < ... = len` cutting `text` into about `n`
/// pieces, each cut at the start of a `Unicast lids [` line.
fn chunk_starts(text: &str, n: usize) -> Vec<usize> {
    const HEAD: &str = "\nUnicast lids [";
    let mut cuts = vec![0];
    let step = (text.len() / n.max(1)).max(1 << 20);
    let mut at = step;
    while at < text.len() {
        let from = at.max(*cuts.last().unwrap_or(&0));
        match text.get(from..).and_then(|t| t.find(HEAD)) {
            Some(i) => {
                let cut = from + i + 1;
                cuts.push(cut);
                at = cut + step;
            }
            None => break,
        }
    }
    cuts.push(text.len());
    cuts
}

/// The tables of one piece of a dump.
struct Partial {
    kind: Option<TableKind>,
    switches: Vec<SwitchTable>,
    /// Byte offset of each switch's header line.
    header_at: Vec<usize>,
    data: Vec<u8>,
    lid_guids: Vec<Guid>,
}

/// Parses `text[start..end]`, which starts at a line start; errors point
/// into the whole `text`.
fn parse_range(name: &str, text: &str, start: usize, end: usize) -> Result<Partial> {
    let mut p = Partial {
        kind: None,
        switches: Vec::new(),
        header_at: Vec::new(),
        data: Vec::new(),
        lid_guids: Vec::new(),
    };
    let mut cur: Option<Block> = None;
    let mut offset = start;
    for raw in text[start..end].split_inclusive('\n') {
        let at = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let err =
            |expected: &str| -> Error { ParseError::at(name, text, at, 1, expected, "").into() };
        if let Some(rest) = line.strip_prefix("Unicast lids [") {
            if let Some(b) = cur.take() {
                close(name, text, &mut p, b, at)?;
            }
            let (mut b, k) = header(rest, p.data.len())
                .ok_or_else(|| err("`Unicast lids [LO-HI] of switch Lid N guid 0x... (desc):`"))?;
            b.at = at;
            b.entry_at = vec![0; b.top as usize + 1];
            p.kind.get_or_insert(k);
            p.data.resize(p.data.len() + rows_len(b.top), NO_ROUTE);
            cur = Some(b);
        } else if line.starts_with("0x") {
            let Some(b) = cur.as_mut() else {
                return Err(err("a `Unicast lids` header before the first entry"));
            };
            let (lid, port, tail) = entry(line).ok_or_else(|| err("`0xLID PORT` entry"))?;
            if lid > b.top {
                return Err(err(&format!("a LID within the block range 0..={}", b.top)));
            }
            let first = b.entry_at[lid as usize];
            if first != 0 {
                let (l, _) = crate::error::line_col(text, first - 1);
                let e = ParseError::at(
                    name,
                    text,
                    at,
                    line.len(),
                    "each LID once per switch",
                    format!("LID {lid} again (first at line {l})"),
                );
                return Err(e
                    .with_secondary(text, first - 1, 1, "first entry for this LID")
                    .into());
            }
            b.entry_at[lid as usize] = at + 1;
            p.data[b.start + lid as usize] = port;
            if port == 0 {
                b.lid.get_or_insert(lid);
            }
            // Every switch names the same destinations: parse each GUID once.
            let known = p.lid_guids.get(lid as usize).is_some_and(|g| g.0 != 0);
            if !known && let Some(g) = tail.and_then(port_guid) {
                if p.lid_guids.len() <= lid as usize {
                    p.lid_guids.resize(lid as usize + 1, Guid(0));
                }
                p.lid_guids[lid as usize] = g;
            }
        } else if line.trim_end().ends_with("lids dumped") {
            // (its count is not the number of entries in every OpenSM
            // version, so only its presence is checked)
            if let Some(b) = cur.as_mut() {
                b.ended = true;
            }
        } else if !is_skippable(line) {
            return Err(err(
                "a `Unicast lids` header, a `0xLID PORT` entry or `N lids dumped`",
            ));
        }
    }
    if let Some(b) = cur.take() {
        close(name, text, &mut p, b, end)?;
    }
    Ok(p)
}

/// Ends a switch's block at byte `at`: OpenSM closes every block with
/// `N lids dumped`, so a block without one was cut short.
fn close(name: &str, text: &str, p: &mut Partial, b: Block, at: usize) -> Result<()> {
    if p.kind == Some(TableKind::OpensmDump) && !b.ended {
        let at = floor_line(text, at);
        return Err(ParseError::at(
            name,
            text,
            at,
            0,
            format!("`N lids dumped` closing the block of switch {}", b.guid),
            "no such line: the dump is cut short",
        )
        .into());
    }
    p.header_at.push(b.at);
    p.switches.push(finish(b));
    Ok(())
}

/// The start of the last line that begins before `at`.
fn floor_line(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    text[..at]
        .trim_end_matches('\n')
        .rfind('\n')
        .map_or(0, |i| i + 1)
}

fn rows_len(top: Lid) -> usize {
    (top as usize / LFT_BLOCK + 1) * LFT_BLOCK
}

fn finish(b: Block) -> SwitchTable {
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
    let lid = portid
        .strip_prefix("Lid ")
        .and_then(parse_num)
        .and_then(|l| Lid::try_from(l).ok());
    let desc = rest
        .trim_end()
        .strip_suffix(':')?
        .strip_prefix('(')?
        .strip_suffix(')')?;
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
        at: 0,
        entry_at: Vec::new(),
        ended: false,
    };
    Some((block, kind))
}

/// `0xLLLL PPP[ # ...| : (...)]` → (LID, port, the rest of the line).
fn entry(line: &str) -> Option<(Lid, u8, Option<&str>)> {
    let mut it = line.splitn(3, ' ');
    let lid = Lid::try_from(parse_num(it.next()?)?).ok()?;
    let port: u8 = it.next()?.parse().ok()?;
    Some((lid, port, it.next()))
}

/// The `portguid 0x...` an entry's tail names, if any.
fn port_guid(tail: &str) -> Option<Guid> {
    let (_, g) = tail.split_once("portguid ")?;
    Guid::parse(g.split([':', ')', ' ']).next()?)
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
        assert_eq!(
            (s.lid, s.top, s.desc.as_deref()),
            (0xe, 0x29, Some("leaf4"))
        );
        assert_eq!(t.port(0, 3), 7);
        assert_eq!(t.port(0, 0xf), 3);
        assert_eq!(t.lid_guid(3), Some(Guid(0x100001)));
    }

    #[test]
    fn big_dumps_parse_in_pieces_like_one() {
        let mut text = String::new();
        for s in 0..80u32 {
            text += &format!(
                "Unicast lids [0-999] of switch Lid {} guid 0x{:016x} ('s{s}'):\n",
                s + 1,
                0x100 + s
            );
            for l in 1..1000u32 {
                let g = 0x5000 + l;
                text += &format!(
                    "0x{l:04x} {:03} # Channel Adapter portguid 0x{g:016x}: 'h'\n",
                    (l * 7 + s) % 36
                );
            }
            text += "999 lids dumped\n";
        }
        assert!(text.len() > 3 << 20);
        let cuts = chunk_starts(&text, 8);
        assert!(cuts.len() > 3, "{cuts:?}");
        assert!(
            cuts[1..cuts.len() - 1]
                .iter()
                .all(|&c| text[c..].starts_with("Unicast lids ["))
        );
        let whole = parse_range("big", &text, 0, text.len()).unwrap();
        let t = parse_text("big", &text).unwrap();
        assert_eq!(t.switches.len(), 80);
        assert_eq!(&*t.data, &whole.data[..]);
        assert_eq!(t.lid_guids, whole.lid_guids);
        assert_eq!(t.port(79, 999), ((999 * 7 + 79) % 36) as u8);
        assert_eq!(t.switches[79].desc.as_deref(), Some("s79"));
        // An error in a later piece still names its line in the whole file.
        let line = 60 * 1001 + 1000; // switch 60 (1,001 lines each), LID 999
        let bad: String = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i + 1 == line {
                    l.replacen("0x03e7", "0x03e8", 1) + "\n"
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let e = parse_text("big", &bad).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("big:{line}:1: expected a LID within")),
            "{e}"
        );
    }

    #[test]
    fn errors_point_at_the_line() {
        let e = parse_text(
            "d",
            "Unicast lids [0-3] of switch Lid 2 guid 0x1 ('s'):\n0x0009 001\n",
        )
        .unwrap_err();
        assert!(e.to_string().contains("d:2:1"), "{e}");
        let e = parse_text("d", "hello\n").unwrap_err();
        assert!(e.to_string().contains("d:1:1"), "{e}");
        assert!(parse_text("d", "").is_err());
    }
}
