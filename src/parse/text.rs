//! Small text helpers the line-based readers share: lines with their byte
//! offsets (for [`crate::ParseError::at`]), tokens with theirs, MLIDs.

use crate::model::MLID_BASE;

/// Lines of `text` (with their `\n`, as `split_inclusive` gives them) and
/// the byte offset each starts at, for [`crate::ParseError::at`]. The
/// newlines are found by `memchr`'s vector search: a 1.4 GB LFT dump is
/// 24 M lines.
pub fn lines_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let last = (!text.is_empty() && !text.ends_with('\n')).then_some(text.len());
    memchr::memchr_iter(b'\n', text.as_bytes())
        .map(|i| i + 1)
        .chain(last)
        .scan(0, move |start, end| {
            let line = (*start, &text[*start..end]);
            *start = end;
            Some(line)
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

#[cfg(test)]
mod tests {
    /// The memchr lines are `split_inclusive`'s, with their offsets.
    #[test]
    fn lines_at_are_the_inclusive_split_lines() {
        for t in ["", "\n", "a", "a\n", "a\nb", "\n\nab\r\n c\n\n", "é\nü"] {
            let mut at = 0;
            let want: Vec<_> = t
                .split_inclusive('\n')
                .map(|l| {
                    at += l.len();
                    (at - l.len(), l)
                })
                .collect();
            assert_eq!(super::lines_at(t).collect::<Vec<_>>(), want, "{t:?}");
        }
    }
}
