//! Readers of OpenSM `opensm-lfts.dump` (both header forms) and
//! `ibroute`/`dump_fts` text (`formats/lft-dumps.md`), into a [`TableSet`];
//! `parse::lfts` picks them for text input.

use crate::error::{Error, ParseError, Result};
use crate::io::Bytes;
use crate::model::table_set::{SwitchTable, TableKind, TableSet};
use crate::model::{Guid, LFT_BLOCK, Lid, NO_ROUTE};

mod lines;
use lines::{entry, header, is_skippable, port_guid};

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
pub(super) fn chunk_starts(text: &str, n: usize) -> Vec<usize> {
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
pub(super) struct Partial {
    kind: Option<TableKind>,
    switches: Vec<SwitchTable>,
    /// Byte offset of each switch's header line.
    header_at: Vec<usize>,
    pub(super) data: Vec<u8>,
    pub(super) lid_guids: Vec<Guid>,
}

/// Parses `text[start..end]`, which starts at a line start; errors point
/// into the whole `text`.
pub(super) fn parse_range(name: &str, text: &str, start: usize, end: usize) -> Result<Partial> {
    let mut p = Partial {
        kind: None,
        switches: Vec::new(),
        header_at: Vec::new(),
        data: Vec::new(),
        lid_guids: Vec::new(),
    };
    let mut cur: Option<Block> = None;
    for (at, raw) in super::text::lines_at(&text[start..end]) {
        let at = start + at;
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
