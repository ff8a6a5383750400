//! OpenSM-style GUID files: one GUID per line, `#` comments (formats.md §4,
//! `formats/guid-file.md`).
//!
//! OpenSM reads almost every GUID list (root GUIDs, GUID routing order, CN
//! and I/O GUIDs, ids, node name map) through one reader, `parse_node_map()`
//! in `complib/cl_nodenamemap.c`: blank and `#` lines are skipped, the first
//! token is read with `strtoull(…, 0)`, and a token that is not a number
//! fails the whole file. routec follows it so that a file OpenSM accepts
//! means the same thing here, including the octal reading of a leading `0`.

use std::path::Path;

use crate::error::{ParseError, Result};
use crate::model::Guid;

/// One GUID line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuidLine {
    pub guid: Guid,
    /// The rest of the line after the GUID, leading blanks removed, line
    /// end cut (an `ids` file's id, a node name map's name). Not trimmed of
    /// `#` comments: OpenSM hands it to the callback as is.
    pub rest: String,
    /// 1-based line number.
    pub line: usize,
    /// Whether the GUID was read as octal (written with a leading `0` and
    /// no `x`): almost always a hex GUID missing its `0x` (see
    /// `formats/guid-file.md`), worth a warning by the caller.
    pub octal: bool,
}

/// Reads the GUIDs of a GUID file, in file order (duplicates kept).
pub fn load_guid_file(path: &Path) -> Result<Vec<Guid>> {
    let text = crate::io::read_text(path)?;
    let lines = parse_guid_file(&path.display().to_string(), &text)?;
    Ok(lines.into_iter().map(|l| l.guid).collect())
}

/// Parses GUID file `text`; `name` is used in error messages.
pub fn parse_guid_file(name: &str, text: &str) -> Result<Vec<GuidLine>> {
    let mut out = Vec::new();
    let mut offset = 0;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let line_start = offset;
        offset += raw.len();
        let body = raw.trim_end_matches(['\n', '\r']);
        let lead = body.len() - body.trim_start().len();
        let token = &body[lead..];
        if token.is_empty() || token.starts_with('#') {
            continue;
        }
        let start = line_start + lead;
        let (value, used, octal) =
            strtoull(token).ok_or_else(|| bad_token(name, text, start, token))?;
        let follow = token[used..].chars().next();
        if follow.is_some_and(|c| !c.is_whitespace() && c != '#') {
            return Err(bad_token(name, text, start, token).into());
        }
        out.push(GuidLine {
            guid: Guid(value),
            rest: token[used..].trim_start().to_string(),
            line: i + 1,
            octal,
        });
    }
    Ok(out)
}

fn bad_token(name: &str, text: &str, start: usize, token: &str) -> ParseError {
    let word = token
        .split(|c: char| c.is_whitespace() || c == '#')
        .next()
        .unwrap_or("");
    let e = ParseError::at(
        name,
        text,
        start,
        word.len(),
        "a GUID (0x-prefixed hex, 0-prefixed octal, or decimal, as strtoull base 0)",
        format!("`{word}`"),
    );
    if word.starts_with('0') && word.len() > 1 && word.bytes().all(|b| b.is_ascii_hexdigit()) {
        e.with_help("a leading 0 means octal to OpenSM; write hex GUIDs with 0x")
    } else {
        e
    }
}

/// `strtoull(s, &end, 0)` without the sign and overflow leniency: returns
/// the value, the bytes used and whether it was octal. `None` when there is
/// no digit or the value does not fit 64 bits.
fn strtoull(s: &str) -> Option<(u64, usize, bool)> {
    let b = s.as_bytes();
    let (radix, skip) = match b {
        [b'0', b'x' | b'X', d, ..] if d.is_ascii_hexdigit() => (16, 2),
        [b'0', ..] => (8, 0),
        _ => (10, 0),
    };
    let digits = b[skip..]
        .iter()
        .take_while(|&&c| (c as char).is_digit(radix))
        .count();
    if digits == 0 {
        return None;
    }
    let v = u64::from_str_radix(&s[skip..skip + digits], radix).ok()?;
    Some((v, skip + digits, radix == 8 && digits > 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strtoull_bases() {
        assert_eq!(strtoull("0x1F rest"), Some((0x1f, 4, false)));
        assert_eq!(strtoull("0017"), Some((0o17, 4, true)));
        assert_eq!(strtoull("0"), Some((0, 1, false)));
        assert_eq!(
            strtoull("08"),
            Some((0, 1, false)),
            "stops before 8, as strtoull"
        );
        assert_eq!(
            strtoull("0x"),
            Some((0, 1, false)),
            "`0` then `x`, as strtoull"
        );
        assert_eq!(strtoull("1234#c"), Some((1234, 4, false)));
        assert_eq!(strtoull("0x1ffffffffffffffff"), None);
        assert_eq!(strtoull("-1"), None);
        assert_eq!(strtoull("g"), None);
    }
}
