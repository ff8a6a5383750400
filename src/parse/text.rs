//! Small text helpers the line-based readers share: lines with their byte
//! offsets (for [`crate::ParseError::at`]), tokens with theirs, MLIDs.

use crate::model::MLID_BASE;

/// Lines of `text` (with their `\n`) and the byte offset each starts at,
/// for [`crate::ParseError::at`].
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
    (MLID_BASE..0xFFFF).contains(&v).then_some(v)
}
