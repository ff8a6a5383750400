//! Multicast groups files (`formats/mcast-groups.md`): routec's text form
//! (`NAME [mlid=0xC001] PORTGUID ...`), its YAML twin, and the multicast
//! records of OpenSM's SA database dump `opensm-sa.dump` (`sa_dump_one_mgrp`
//! and `mcast_mgr_dump_one_port` in `opensm/osm_sa.c`).

use std::collections::HashSet;
use std::path::Path;

use serde::Deserialize;

use crate::error::{ParseError, Result};
use crate::model::{Fabric, Guid, McastGroup, Member};

use super::text::{lines_at, parse_mlid, tokens};

/// Reads the groups file at `path`, resolving ports against `fabric`.
pub fn load_groups(path: &Path, fabric: &Fabric) -> Result<Vec<McastGroup>> {
    let text = crate::io::read_text(path)?;
    parse_groups(&path.display().to_string(), &text, fabric)
}

/// Parses groups `text` in whichever of the three forms it is.
pub fn parse_groups(file: &str, text: &str, fabric: &Fabric) -> Result<Vec<McastGroup>> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    if first.starts_with("groups:") || first == "---" {
        parse_yaml(file, text, fabric)
    } else if text.contains("MC Group 0x") {
        parse_sa_dump(file, text, fabric)
    } else {
        parse_text(file, text, fabric)
    }
}

/// A member port by GUID token at byte `at` of `text`.
fn member(file: &str, text: &str, at: usize, tok: &str, fabric: &Fabric) -> Result<Member> {
    let guid = Guid::parse(tok)
        .ok_or_else(|| ParseError::at(file, text, at, tok.len(), "a port GUID", ""))?;
    Member::resolve(fabric, guid).map_err(|why| {
        ParseError::at(
            file,
            text,
            at,
            tok.len(),
            "a port GUID of the topology",
            format!("`{tok}` ({why})"),
        )
        .into()
    })
}

fn check_name(
    file: &str,
    text: &str,
    at: usize,
    name: &str,
    seen: &mut HashSet<String>,
) -> Result<()> {
    if !seen.insert(name.to_string()) {
        return Err(ParseError::at(
            file,
            text,
            at,
            name.len(),
            "a group name not used before",
            format!("`{name}` again"),
        )
        .into());
    }
    Ok(())
}

fn parse_text(file: &str, text: &str, fabric: &Fabric) -> Result<Vec<McastGroup>> {
    let mut groups = Vec::new();
    let mut seen = HashSet::new();
    for (start, line) in lines_at(text) {
        let body = line.split('#').next().unwrap_or("");
        let mut toks = tokens(body);
        let Some((nat, name)) = toks.next() else {
            continue;
        };
        check_name(file, text, start + nat, name, &mut seen)?;
        let mut mlid = None;
        let mut members = Vec::new();
        for (at, tok) in toks {
            if let Some(v) = tok.strip_prefix("mlid=") {
                let m = parse_mlid(v).ok_or_else(|| {
                    ParseError::at(file, text, start + at, tok.len(), "mlid=0xC000..0xFFFE", "")
                })?;
                mlid = Some(m);
            } else {
                members.push(member(file, text, start + at, tok, fabric)?);
            }
        }
        if members.is_empty() {
            let end = start + body.trim_end().len();
            return Err(ParseError::at(
                file,
                text,
                end,
                0,
                "at least one member port GUID",
                "end of line",
            )
            .into());
        }
        groups.push(McastGroup::new(name, mlid, members));
    }
    Ok(groups)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct YamlFile {
    groups: Vec<YamlGroup>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct YamlGroup {
    name: String,
    #[serde(default)]
    mlid: Option<String>,
    members: Vec<String>,
}

fn parse_yaml(file: &str, text: &str, fabric: &Fabric) -> Result<Vec<McastGroup>> {
    let doc: YamlFile = serde_saphyr::from_str(text).map_err(|e| {
        let offset = e.location().map_or(0, |l| {
            offset_of(text, l.line() as usize, l.column() as usize)
        });
        ParseError::at(
            file,
            text,
            offset,
            1,
            "a groups document (formats/mcast-groups.md)",
            e.to_string(),
        )
    })?;
    let mut groups = Vec::new();
    let mut seen = HashSet::new();
    for g in doc.groups {
        let at = find_after(text, 0, &g.name);
        check_name(file, text, at, &g.name, &mut seen)?;
        let mlid = match &g.mlid {
            Some(m) => Some(parse_mlid(m).ok_or_else(|| {
                ParseError::at(
                    file,
                    text,
                    find_after(text, at, m),
                    m.len(),
                    "an MLID 0xC000..0xFFFE",
                    "",
                )
            })?),
            None => None,
        };
        if g.members.is_empty() {
            return Err(ParseError::at(
                file,
                text,
                at,
                g.name.len(),
                "a group with members",
                "none",
            )
            .into());
        }
        let members = g
            .members
            .iter()
            .map(|tok| member(file, text, find_after(text, at, tok), tok, fabric))
            .collect::<Result<Vec<_>>>()?;
        groups.push(McastGroup::new(g.name, mlid, members));
    }
    Ok(groups)
}

/// Byte offset of 1-based (line, column).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column.saturating_sub(1)).min(text.len())
}

/// Where `needle` first occurs at or after `from` (for error locations).
fn find_after(text: &str, from: usize, needle: &str) -> usize {
    text.get(from..)
        .and_then(|t| t.find(needle))
        .map_or(from, |i| from + i)
}

/// The MGID as saquery prints it: eight groups of four hex digits.
fn mgid_name(hi: u64, lo: u64) -> String {
    let w: Vec<String> = [hi, lo]
        .iter()
        .flat_map(|v| {
            (0..4)
                .rev()
                .map(move |i| format!("{:04x}", (v >> (16 * i)) & 0xffff))
        })
        .collect();
    w.join(":")
}

/// `0xHHHH:0xLLLL` (a GID as `osm_sa.c` prints it).
fn gid(s: &str) -> Option<(u64, u64)> {
    let (a, b) = s.split_once(':')?;
    Some((Guid::parse(a)?.0, Guid::parse(b)?.0))
}

fn field<'a>(body: &'a str, key: &str) -> Option<(usize, &'a str)> {
    tokens(body).find_map(|(at, t)| t.strip_prefix(key).map(|v| (at + key.len(), v)))
}

fn parse_sa_dump(file: &str, text: &str, fabric: &Fabric) -> Result<Vec<McastGroup>> {
    let mut groups: Vec<McastGroup> = Vec::new();
    let mut seen = HashSet::new();
    for (start, line) in lines_at(text) {
        let body = line.trim_end();
        let bad = |at: usize, len: usize, what: &str| {
            ParseError::at(file, text, start + at, len, what, "")
        };
        if body.starts_with("MC Group ") {
            let (at, v) =
                field(body, "mgid=").ok_or_else(|| bad(0, body.len(), "mgid=0x..:0x.."))?;
            let (hi, lo) = gid(v).ok_or_else(|| bad(at, v.len(), "an MGID 0x<prefix>:0x<id>"))?;
            let name = mgid_name(hi, lo);
            check_name(file, text, start + at, &name, &mut seen)?;
            let mlid = match field(body, "mlid=") {
                Some((at, v)) => {
                    Some(parse_mlid(v).ok_or_else(|| bad(at, v.len(), "an MLID 0xC000..0xFFFE"))?)
                }
                None => None,
            };
            groups.push(McastGroup::new(name, mlid, Vec::new()));
        } else if body.starts_with("mcm_port:") {
            let (at, v) =
                field(body, "port_gid=").ok_or_else(|| bad(0, body.len(), "port_gid=0x..:0x.."))?;
            let group = groups
                .last_mut()
                .ok_or_else(|| bad(0, 9, "an `MC Group` record before its ports"))?;
            let (_, id) =
                gid(v).ok_or_else(|| bad(at, v.len(), "a port GID 0x<prefix>:0x<guid>"))?;
            let guid_at = start + at + v.find(':').map_or(0, |i| i + 1);
            let m = member(file, text, guid_at, &format!("0x{id:016x}"), fabric)?;
            group.members.push(m);
        }
    }
    groups.retain(|g| !g.members.is_empty());
    Ok(groups
        .into_iter()
        .map(|g| McastGroup::new(g.name, g.mlid, g.members))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mgid_prints_like_saquery() {
        assert_eq!(
            mgid_name(0xff12401bffff0000, 1),
            "ff12:401b:ffff:0000:0000:0000:0000:0001"
        );
    }
}
