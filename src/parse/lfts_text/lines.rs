//! One line of an LFT dump at a time: a switch block's header, an entry,
//! and the lines that carry neither.

use super::Block;
use crate::model::table_set::TableKind;
use crate::model::{Guid, Lid};

pub(super) fn is_skippable(line: &str) -> bool {
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
pub(super) fn header(rest: &str, start: usize) -> Option<(Block, TableKind)> {
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
pub(super) fn entry(line: &str) -> Option<(Lid, u8, Option<&str>)> {
    let mut it = line.splitn(3, ' ');
    let lid = Lid::try_from(parse_num(it.next()?)?).ok()?;
    let port: u8 = it.next()?.parse().ok()?;
    Some((lid, port, it.next()))
}

/// The `portguid 0x...` an entry's tail names, if any.
pub(super) fn port_guid(tail: &str) -> Option<Guid> {
    let (_, g) = tail.split_once("portguid ")?;
    Guid::parse(g.split([':', ')', ' ']).next()?)
}
