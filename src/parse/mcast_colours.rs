//! Reads the colour table `mcast-colors.txt` (`formats/mcast-colors.md`)
//! back, so MFT files can be verified against the colours they were built
//! with: `NAME MLID` then `key=value` details, of which `tree=` matters
//! (groups sharing a tree form one merged virtual group, seed:mr4lms §3.3).

use crate::error::{ParseError, Result};
use crate::model::GroupColour;

use super::text::{lines_at, parse_mlid, tokens};

/// Reads a colour table.
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
