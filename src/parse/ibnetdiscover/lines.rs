//! Line types of ibnetdiscover text and ibsim net files (formats.md §1.1,
//! §1.2, §2). Each line is classified by its prefix, as ibsim's
//! `parse_netconf` does, then cut into borrowed fields: no allocation per
//! line.

use super::cursor::{Cursor, LineError, LineResult, c_number};
pub use super::port_line::{PortLine, width_speed};
use crate::model::{Guid, Lid, NodeKind};

/// One classified line.
#[derive(Debug, PartialEq)]
pub enum Line<'a> {
    /// Empty or whitespace only: ends a record.
    Blank,
    /// Comments and the decorations ibnetdiscover prints around records
    /// (`DR path` progress lines, `-g` chassis titles): skipped.
    Skip,
    Directive(Directive),
    Header(Header<'a>),
    Port(PortLine<'a>),
    /// An ibsim directive routec does not implement (`include`, `do`, `module`).
    Unsupported(&'static str),
    /// Anything else: an error unless `--lenient`.
    Unknown,
}

/// `key=value` lines. GUID values may be bases that the next node takes.
#[derive(Debug, PartialEq)]
pub enum Directive {
    VendId(u32),
    DevId(u32),
    SysImgGuid(Guid),
    /// `switchguid=`/`caguid=`/`hcaguids=`/`rtguid=`; `relative` for `+=`
    /// style (`switchguid+N`); `port0` is the `(portguid)` of `switchguid=`.
    NodeGuid {
        kind: NodeKind,
        value: u64,
        relative: bool,
        port0: Option<Guid>,
    },
    /// ibsim's global `width=`, `speed=`, `extspeed=`, `pdebug=`.
    Ignored,
}

/// `Switch 36 "S-…" # "desc" enhanced port 0 lid 1 lmc 0`, `Ca 2 "H-…" # "desc"`.
#[derive(Debug, PartialEq)]
pub struct Header<'a> {
    pub kind: NodeKind,
    pub num_ports: u8,
    pub id: &'a str,
    /// Byte offset of the id in the line.
    pub id_at: usize,
    pub desc: Option<&'a str>,
    pub lid: Option<Lid>,
    pub lmc: Option<u8>,
    pub enhanced: Option<bool>,
}

/// Classifies `line` (no line terminator, leading whitespace already cut).
pub fn classify(line: &str) -> LineResult<Line<'_>> {
    let t = line.trim_end();
    let Some(&first) = t.as_bytes().first() else {
        return Ok(Line::Blank);
    };
    match first {
        b'#' => return Ok(Line::Skip),
        b'[' => return super::port_line::port_line(t).map(Line::Port),
        _ => {}
    }
    for (kw, kind) in [
        ("Switch", NodeKind::Switch),
        ("Hca", NodeKind::Ca),
        ("Ca", NodeKind::Ca),
        ("Rt", NodeKind::Router),
    ] {
        if let Some(after) = t.strip_prefix(kw)
            && after.starts_with(|c: char| c == ' ' || c == '\t' || c.is_ascii_digit())
        {
            return header(t, kw.len(), kind).map(Line::Header);
        }
    }
    if let Some(d) = directive(t)? {
        return Ok(d);
    }
    let skipped = t.starts_with("DR path ")
        || t == "Non-Chassis Nodes"
        || t.starts_with("Hostname: ")
        || (t.starts_with("Chassis ") && t[8..].starts_with(|c: char| c.is_ascii_digit()));
    if skipped {
        return Ok(Line::Skip);
    }
    for kw in ["include", "do"] {
        if let Some(after) = t.strip_prefix(kw)
            && after.starts_with([' ', '\t'])
        {
            return Ok(Line::Unsupported(kw));
        }
    }
    Ok(Line::Unknown)
}

fn directive(t: &str) -> LineResult<Option<Line<'_>>> {
    let key_len = t.bytes().take_while(u8::is_ascii_lowercase).count();
    let (key, rest) = t.split_at(key_len);
    let relative = rest.starts_with('+');
    if !(rest.starts_with('=') || relative) {
        return Ok(None);
    }
    let kind = match key {
        "switchguid" => Some(NodeKind::Switch),
        "caguid" | "hcaguids" => Some(NodeKind::Ca),
        "rtguid" => Some(NodeKind::Router),
        "vendid" | "devid" | "sysimgguid" | "width" | "speed" | "extspeed" | "pdebug" => None,
        "module" => return Ok(Some(Line::Unsupported("module"))),
        _ => return Ok(None),
    };
    let mut c = Cursor::new(t);
    c.pos = key_len + 1;
    let vstart = c.pos;
    let vlen = c
        .rest()
        .find(|ch: char| !ch.is_ascii_alphanumeric())
        .unwrap_or(c.rest().len());
    let token = &t[vstart..vstart + vlen];
    let Some(value) = c_number(token) else {
        return Err(
            LineError::new(vstart, vlen.max(1), format!("a number after `{key}=`")).found(
                if token.is_empty() {
                    "nothing".into()
                } else {
                    format!("`{token}`")
                },
            ),
        );
    };
    c.pos += vlen;
    if relative && kind.is_none() {
        return Err(LineError::new(key_len, 1, format!("`=` after `{key}`")).found("`+`"));
    }
    let port0 = if kind == Some(NodeKind::Switch) {
        c.paren_guid()?
    } else {
        None
    };
    // `-g` appends `\t# Chassis …` / `\t# ISR9288 Line 3 Chip 1`.
    c.ws();
    if !c.at_end() && !c.rest().starts_with('#') {
        return Err(c.error("end of line or a `#` comment"));
    }
    let d = match (key, kind) {
        (_, Some(kind)) => Directive::NodeGuid {
            kind,
            value,
            relative,
            port0,
        },
        ("vendid", _) => Directive::VendId(value as u32),
        ("devid", _) => Directive::DevId(value as u32),
        ("sysimgguid", _) => Directive::SysImgGuid(Guid(value)),
        _ => Directive::Ignored,
    };
    Ok(Some(Line::Directive(d)))
}

fn header(t: &str, kw_len: usize, kind: NodeKind) -> LineResult<Header<'_>> {
    let mut c = Cursor::new(t);
    c.pos = kw_len;
    c.ws();
    let n = c.uint(255, "the number of ports")?;
    if n == 0 {
        return Err(LineError::new(c.pos - 1, 1, "a number of ports from 1 to 255").found("`0`"));
    }
    if kind == NodeKind::Switch && n > 254 {
        // An LFT entry is a port number and 255 means "no route".
        return Err(LineError::new(
            c.pos.saturating_sub(3),
            3,
            "a switch with 1 to 254 ports (IB: LFT entry 255 = no route)",
        )
        .found(format!("`{n}`")));
    }
    c.ws();
    let (id, id_at) = c.quoted("the node id")?;
    c.ws();
    let mut h = Header {
        kind,
        num_ports: n as u8,
        id,
        id_at,
        desc: None,
        lid: None,
        lmc: None,
        enhanced: None,
    };
    if c.at_end() {
        return Ok(h);
    }
    c.expect("#", "`#` before the node description, or end of line")?;
    // Right-anchored tail: `[enhanced|base] port 0 lid N lmc M` (ibsim
    // also accepts each part alone). The description keeps the rest.
    let mut rest = c.rest().trim();
    if let Some((r, v)) = last_keyword_uint(rest, "lmc") {
        if v > 7 {
            let at = t.rfind("lmc").unwrap_or(0);
            return Err(
                LineError::new(at, t.len() - at, "an LMC from 0 to 7").found(format!("`lmc {v}`"))
            );
        }
        h.lmc = Some(v as u8);
        rest = r;
    }
    if let Some((r, v)) = last_keyword_uint(rest, "lid") {
        h.lid = u16::try_from(v).ok();
        rest = r;
    }
    if let Some(r) = rest.strip_suffix("port 0").map(str::trim_end) {
        for (word, enh) in [("enhanced", true), ("base", false)] {
            if let Some(r2) = r.strip_suffix(word)
                && (r2.is_empty() || r2.ends_with([' ', '\t', '"']))
            {
                h.enhanced = Some(enh);
                rest = r2.trim_end();
            }
        }
        if h.enhanced.is_none() {
            rest = r;
        }
    }
    h.desc = Some(unquote(rest));
    Ok(h)
}

/// Splits `… key N` into (`…`, N) when `s` ends that way.
fn last_keyword_uint<'s>(s: &'s str, key: &str) -> Option<(&'s str, u64)> {
    let (head, num) = s.rsplit_once([' ', '\t'])?;
    let v: u64 = num.parse().ok()?;
    let head = head.trim_end().strip_suffix(key)?;
    let ok_boundary = head.is_empty() || head.ends_with([' ', '\t', '"']);
    ok_boundary.then(|| (head.trim_end(), v))
}

/// Strips one pair of surrounding quotes; inner quotes are kept as they are
/// (ibnetdiscover does not escape them, formats.md §0.5).
pub(super) fn unquote(s: &str) -> &str {
    let s = s.trim();
    if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') {
        &s[1..s.len() - 1]
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Speed, Width};

    #[test]
    fn switch_header_with_quotes_in_description() {
        let l =
            r#"Switch	36 "S-0002c903007b78b0"		# "a "quoted" # desc" enhanced port 0 lid 19 lmc 0"#;
        let Ok(Line::Header(h)) = classify(l) else {
            panic!()
        };
        assert_eq!(h.num_ports, 36);
        assert_eq!(h.id, "S-0002c903007b78b0");
        assert_eq!(h.desc, Some(r#"a "quoted" # desc"#));
        assert_eq!((h.lid, h.lmc, h.enhanced), (Some(19), Some(0), Some(true)));
    }

    #[test]
    fn putty_header_and_port_without_separators() {
        let Ok(Line::Header(h)) = classify(r##"Switch41 "S-01"# "sw""##) else {
            panic!()
        };
        assert_eq!((h.num_ports, h.id, h.desc), (41, "S-01", Some("sw")));
        let l = r##"[1]"H-02"[1](3) # "h" lid 5 4xEDR"##;
        let Ok(Line::Port(p)) = classify(l) else {
            panic!()
        };
        assert_eq!(
            (p.remote, p.remote_port, p.remote_guid),
            ("H-02", Some(1), Some(Guid(3)))
        );
        assert_eq!(
            (p.peer_lid, p.width, p.speed),
            (Some(5), Width::X4, Speed::Edr)
        );
    }

    #[test]
    fn directives_and_skips() {
        assert_eq!(
            classify("switchguid=0x5442ba00003080(5442ba00003080)\t# ISR9288 Line 3 Chip 1"),
            Ok(Line::Directive(Directive::NodeGuid {
                kind: NodeKind::Switch,
                value: 0x5442ba00003080,
                relative: false,
                port0: Some(Guid(0x5442ba00003080)),
            }))
        );
        assert_eq!(
            classify("DR path slid 0; dlid 0; 0,1 -> new Switch"),
            Ok(Line::Skip)
        );
        assert_eq!(classify("include \"x\""), Ok(Line::Unsupported("include")));
        assert_eq!(classify("user@host:~$ ibnetdiscover"), Ok(Line::Unknown));
    }
}
