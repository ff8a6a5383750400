//! The colour table `mcast-colors.txt` (`formats/mcast-colors.md`): one
//! line per group, `NAME MLID` then `key=value` details; groups sharing a
//! `tree=` form one merged virtual group (seed:mr4lms §3.3).

use std::io::{self, Write};

use crate::error::{ParseError, Result};
use crate::model::Fabric;

use super::groups::McastGroup;
use super::policy::McastResult;

/// One group's colour, as read back from a colour table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GroupColour {
    pub name: String,
    pub mlid: u16,
    /// Tree id: groups with the same id intentionally share a tree.
    pub tree: u32,
}

/// Writes the colour table of `result` (groups in input order).
pub fn write_colours(
    fabric: &Fabric,
    groups: &[McastGroup],
    result: &McastResult,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(
        out,
        "# routec mcast colours: NAME MLID tree= root= switches= height= groups= [was=]"
    )?;
    for (g, group) in groups.iter().enumerate() {
        let id = result.group_tree[g];
        let tree = &result.state.trees[id as usize];
        let root = fabric.node(fabric.switch_node(tree.root)).guid;
        write!(
            out,
            "{} 0x{:04x} tree={} root={} switches={} height={} groups={}",
            group.name,
            result.mlid(g),
            id,
            root,
            tree.nodes.len(),
            tree.height(),
            tree.groups.len()
        )?;
        if let Some(was) = group.mlid {
            write!(out, " was=0x{was:04x}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Reads a colour table back (for verifying MFT files against it).
pub fn parse_colours(file: &str, text: &str) -> Result<Vec<GroupColour>> {
    let mut v = Vec::new();
    for (start, line) in lines_at(text) {
        let body = line.split('#').next().unwrap_or("");
        let mut toks = tokens(body);
        let Some((_, name)) = toks.next() else {
            continue;
        };
        let err = |at: usize, len: usize, what: &str| {
            ParseError::at(file, text, start + at, len, what, "")
        };
        let (at, mlid_tok) = toks
            .next()
            .ok_or_else(|| err(body.trim_end().len(), 0, "an MLID (0xc000..0xfffe)"))?;
        let mlid = parse_mlid(mlid_tok)
            .ok_or_else(|| err(at, mlid_tok.len(), "an MLID (0xc000..0xfffe)"))?;
        let mut tree = None;
        for (at, tok) in toks {
            if let Some(t) = tok.strip_prefix("tree=") {
                tree = Some(t.parse().map_err(|_| err(at, tok.len(), "tree=<number>"))?);
            }
        }
        let tree = tree.ok_or_else(|| err(0, body.trim_end().len(), "a tree=<number> field"))?;
        v.push(GroupColour {
            name: name.to_string(),
            mlid,
            tree,
        });
    }
    Ok(v)
}

/// Lines of `text` (with their `\n`) and the byte offset each starts at,
/// for [`ParseError::at`].
pub fn lines_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0, |offset, line| {
        let start = *offset;
        *offset += line.len();
        Some((start, line))
    })
}

/// Whitespace-separated tokens with their byte offsets.
pub fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split_ascii_whitespace()
        .map(move |t| (t.as_ptr() as usize - s.as_ptr() as usize, t))
}

/// A multicast LID `0xC000..=0xFFFE`, any case.
pub fn parse_mlid(s: &str) -> Option<u16> {
    let hex = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    let v = u16::from_str_radix(hex, 16).ok()?;
    (super::mft::MLID_BASE..0xFFFF).contains(&v).then_some(v)
}
