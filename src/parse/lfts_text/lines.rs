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
    entry_fast(line).or_else(|| entry_any(line))
}

/// The entry as every dump writes it — `0x`, hex digits, one space, 1–3
/// decimal digits, then a space or the end — read byte by byte; `None`
/// for anything else, which [`entry_any`] then reads (or rejects). Where
/// both read a line they agree (`fast_and_general_entries_agree`).
fn entry_fast(line: &str) -> Option<(Lid, u8, Option<&str>)> {
    let b = line.as_bytes().strip_prefix(b"0x")?;
    let hex = b.iter().take_while(|c| c.is_ascii_hexdigit()).count();
    if !(1..=4).contains(&hex) || b.get(hex) != Some(&b' ') {
        return None;
    }
    let lid = b[..hex].iter().fold(0u16, |v, &c| {
        v << 4 | (c as char).to_digit(16).unwrap_or(0) as u16
    });
    let p = &b[hex + 1..];
    let digits = p.iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=3).contains(&digits) {
        return None;
    }
    let port = p[..digits]
        .iter()
        .fold(0u16, |v, &c| v * 10 + u16::from(c - b'0'));
    let port = u8::try_from(port).ok()?;
    let tail_at = 2 + hex + 1 + digits;
    match p.get(digits) {
        None => Some((lid, port, None)),
        Some(b' ') => Some((lid, port, Some(&line[tail_at + 1..]))),
        Some(_) => None,
    }
}

fn entry_any(line: &str) -> Option<(Lid, u8, Option<&str>)> {
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

#[cfg(test)]
mod tests {
    use super::{entry_any, entry_fast};

    #[test]
    fn fast_and_general_entries_agree() {
        let lines = [
            "0x0001 000 # Switch portguid 0x0002c90101000000: 'L1S0000'",
            "0x00a7 012 : (Channel Adapter portguid 0x0002c9030000000b: 'h 11')",
            "0xFfFf 255",
            "0x1 7",
            "0x0001 001 ",
            "0x0001 256",
            "0x0001 0001",
            "0x00001 001",
            "0x10000 001",
            "0x 001",
            "0x0001  001",
            "0x0001 +01",
            "0x0001 01x",
            "0x0001\t001",
            "0xg001 001",
            "0x0001 ",
            "0x0001",
        ];
        let mut fast = 0;
        for l in lines {
            let f = entry_fast(l);
            if f.is_some() {
                fast += 1;
                assert_eq!(f, entry_any(l), "{l:?}");
            }
        }
        assert_eq!(fast, 5, "the dump forms take the fast path");
    }
}
