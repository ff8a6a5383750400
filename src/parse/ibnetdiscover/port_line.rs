//! Port lines of ibnetdiscover text and ibsim net files (formats.md
//! §1.2, §2): `[p](guid) "peer"[q](guid) # lid L lmc M "desc" lid L 4xHDR`,
//! cut into borrowed fields. Most lines of a file are port lines, so this
//! is most of classifying (issue 17); the other line types are in
//! [`super::lines`].

use super::cursor::{Cursor, LineResult, c_number};
use super::lines::unquote;
use super::records::guid_of_name;
use crate::model::{Guid, Lid, Speed, Width};

/// `[p](guid) "peer"[q](guid) # lid L lmc M "desc" lid L 4xHDR s= w= v=`.
#[derive(Debug, PartialEq)]
pub struct PortLine<'a> {
    pub port: u8,
    pub port_at: usize,
    /// The local port GUID (CA and router port lines).
    pub local_guid: Option<Guid>,
    pub remote: &'a str,
    pub remote_at: usize,
    /// The node GUID in `remote` when it is an ibnetdiscover name
    /// ([`guid_of_name`]; `Some(Err)`: the shape but no valid GUID). Read
    /// here, where lines are classified in parallel, not in the serial
    /// pass that takes them (issue 17); ibsim files ignore it.
    pub remote_name_guid: Option<Result<Guid, ()>>,
    /// `None` when `[n]` is missing (ibsim: port 1).
    pub remote_port: Option<u8>,
    pub remote_port_at: usize,
    /// The peer port GUID (printed after non-switch peers).
    pub remote_guid: Option<Guid>,
    /// `lid N lmc M` of the local port (CA lines).
    pub local_lid: Option<(Lid, u8)>,
    /// The peer's LID.
    pub peer_lid: Option<Lid>,
    pub width: Width,
    pub speed: Speed,
    pub peer_desc: Option<&'a str>,
}

pub(super) fn port_line(t: &str) -> LineResult<PortLine<'_>> {
    let mut c = Cursor::new(t);
    let (port, port_at) = c.port_number("the port number")?;
    let local_guid = c.paren_guid()?;
    c.ws();
    let (remote, remote_at) = c.quoted("the peer id")?;
    let remote_port_at = c.pos;
    let remote_port = if c.rest().starts_with('[') {
        Some(c.port_number("the peer port number")?.0)
    } else {
        None
    };
    c.ws();
    let remote_guid = c.paren_guid()?;
    let mut p = PortLine {
        port,
        port_at,
        local_guid,
        remote,
        remote_at,
        remote_name_guid: guid_of_name(remote).map(|r| r.map(|(_, g)| g)),
        remote_port,
        remote_port_at,
        remote_guid,
        local_lid: None,
        peer_lid: None,
        width: Width::Unknown,
        speed: Speed::Unknown,
        peer_desc: None,
    };
    // ibsim options (`w=4 s=2 e=0`) may precede the comment.
    loop {
        c.ws();
        if c.at_end() {
            return Ok(p);
        }
        if c.eat("#") {
            break;
        }
        let tok_len = c.rest().find([' ', '\t', '#']).unwrap_or(c.rest().len());
        let tok = &c.rest()[..tok_len];
        let opt = tok
            .split_once('=')
            .is_some_and(|(k, v)| ["w", "s", "e", "v"].contains(&k) && c_number(v).is_some());
        if !opt {
            return Err(c.error("`#`, a `w=`/`s=`/`e=` option or end of line"));
        }
        c.pos += tok_len;
    }
    port_tail(&mut c, &mut p)?;
    Ok(p)
}

/// The comment tail: `lid N lmc M` from the left (CA lines), then
/// `lid N WxS [s= w= v=] [slot N|(scp)]` anchored on the rightmost `lid`
/// that is followed by a number; the peer description is what lies between.
fn port_tail<'a>(c: &mut Cursor<'a>, p: &mut PortLine<'a>) -> LineResult<()> {
    c.ws();
    let mut probe = Cursor::new(c.line);
    probe.pos = c.pos;
    if probe.eat("lid") && {
        probe.ws();
        probe.uint(u64::MAX, "").is_ok()
    } {
        let mut q = Cursor::new(c.line);
        q.pos = c.pos + 3;
        q.ws();
        let lid = q.uint(0xffff, "a LID")? as Lid;
        q.ws();
        if q.eat("lmc") {
            q.ws();
            let lmc = q.uint(7, "an LMC")? as u8;
            p.local_lid = Some((lid, lmc));
            c.pos = q.pos;
        }
    }
    let start = c.pos;
    let tail = c.rest();
    // every `lid` from the right, as `rmatch_indices` gives them (the
    // word cannot overlap itself), by bytes: the two-way searcher was a
    // fifth of classifying a port line, and comparing each 3-byte window
    // as a slice called `memcmp` once per byte of the tail (issue 17)
    let lids = lid_words_from_right(tail.as_bytes());
    for i in lids {
        let before_ok = i == 0 || tail[..i].ends_with([' ', '\t', '"']);
        let mut q = Cursor::new(c.line);
        q.pos = start + i + 3;
        let had_ws = q.rest().starts_with([' ', '\t']);
        q.ws();
        if !before_ok || !had_ws || !q.rest().starts_with(|ch: char| ch.is_ascii_digit()) {
            continue;
        }
        p.peer_lid = Some(q.uint(0xffff, "a LID")? as Lid);
        q.ws();
        let tok_len = q
            .rest()
            .bytes()
            .position(|b| b == b' ' || b == b'\t')
            .unwrap_or(q.rest().len());
        let Some((w, s)) = width_speed(&q.rest()[..tok_len]) else {
            return Err(q.error("a link width and speed such as `4xHDR`"));
        };
        p.width = w;
        p.speed = s;
        q.pos += tok_len;
        extras(&mut q)?;
        p.peer_desc = Some(unquote(&tail[..i]));
        return Ok(());
    }
    let d = unquote(tail);
    p.peer_desc = (!d.is_empty()).then_some(d);
    Ok(())
}

/// Offsets of every `lid` in `b`, rightmost first.
fn lid_words_from_right(b: &[u8]) -> impl Iterator<Item = usize> + '_ {
    (0..b.len().saturating_sub(2))
        .rev()
        .filter(move |&i| b[i] == b'l' && b[i + 1] == b'i' && b[i + 2] == b'd')
}

/// `-f`'s ` s=N w=N v=N` and the Xsigo ` slot N` / ` (scp)`.
fn extras(q: &mut Cursor<'_>) -> LineResult<()> {
    loop {
        q.ws();
        if q.at_end() {
            return Ok(());
        }
        if q.eat("(scp)") {
            continue;
        }
        if q.eat("slot") {
            q.ws();
            q.uint(u64::MAX, "a slot number")?;
            continue;
        }
        let key_ok = ["s=", "w=", "v=", "e="].iter().any(|k| q.eat(k));
        if !key_ok {
            return Err(q.error("` s=N w=N v=N` or end of line"));
        }
        q.uint(u64::MAX, "a number")?;
    }
}

/// `4xHDR`, `12xEDR`, `4x???`, `?????` (`??` width, `???` speed).
pub fn width_speed(tok: &str) -> Option<(Width, Speed)> {
    let (w, s) = if let Some(s) = tok.strip_prefix("??") {
        ("??", s)
    } else {
        let x = tok.find('x')?;
        tok.split_at(x + 1)
    };
    Some((Width::parse(w)?, Speed::parse(s)?))
}

#[cfg(test)]
mod tests {
    use super::super::lines::{Line, classify};
    use super::*;

    #[test]
    fn ca_port_line_with_full_extras() {
        let l = "[1](100019) \t\"S-0000000000200005\"[1]\t\t# lid 19 lmc 0 \"leaf4 lid 7\" lid 9 4xSDR s=1 w=2 v=4";
        let Ok(Line::Port(p)) = classify(l) else {
            panic!()
        };
        assert_eq!(p.local_guid, Some(Guid(0x100019)));
        assert_eq!(p.local_lid, Some((19, 0)));
        assert_eq!(p.peer_lid, Some(9));
        assert_eq!(p.peer_desc, Some("leaf4 lid 7"));
    }

    /// The byte search finds what `rmatch_indices` finds, rightmost first.
    #[test]
    fn lid_words_match_rmatch_indices() {
        for t in [
            "",
            "li",
            "lid",
            "lidlid",
            "\"lid 7\" lid 9 4xSDR",
            "xlidx lid",
            "lilid",
        ] {
            let want: Vec<usize> = t.rmatch_indices("lid").map(|(i, _)| i).collect();
            let got: Vec<usize> = lid_words_from_right(t.as_bytes()).collect();
            assert_eq!(got, want, "{t:?}");
        }
    }

    #[test]
    fn truncated_width_is_an_error() {
        let e = classify("[3]\t\"S-01\"[1]\t\t# \"x\" lid 13 4x").unwrap_err();
        assert!(e.expected.contains("width and speed"));
    }

    #[test]
    fn width_speed_forms() {
        assert_eq!(width_speed("4x???"), Some((Width::X4, Speed::Unknown)));
        assert_eq!(width_speed("?????"), Some((Width::Unknown, Speed::Unknown)));
        assert_eq!(width_speed("12xFDR10"), Some((Width::X12, Speed::Fdr10)));
        assert_eq!(width_speed("4x"), None);
    }
}
