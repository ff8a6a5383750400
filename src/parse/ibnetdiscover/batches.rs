//! Line classification in parallel batches.
//!
//! Classifying a line (cutting a port line into its fields, parsing GUIDs
//! and numbers) is most of the parse and depends on the line alone; what
//! a line means for the fabric (which record it belongs to, the GUID bases
//! ibsim advances node by node) depends on every line before it. So lines
//! are classified in parallel, a batch at a time, while the previous batch
//! is taken in file order: the records, the warnings and the first error
//! are those of a serial pass, for any thread count.

use rayon::prelude::*;

use super::cursor::LineResult;
use super::lines::{self, Line};

/// Bytes of text per batch: big enough to keep both workers busy, small
/// enough that a batch's classified lines (144 bytes each, about 4 K
/// lines) stay under a MB whatever the file's size. Two batches' lines
/// are written fresh (the pool then reuses them), and the last batch is
/// taken with one worker idle: on the 11,664-host RLFT (5.4 MB) the line
/// pass took 10.6 ms at 256 KB against 12.5 at 1 MB and 12.4 at 128 KB
/// (medians of 30 alternating `compile` runs, 2 cores; issue 17).
const BATCH_BYTES: usize = 1 << 18;
/// Pieces a batch is cut into for the workers.
const PIECES: usize = 8;

/// One line, classified.
pub struct Classified<'a> {
    /// Byte offset of its first non-blank character in the file.
    pub base: usize,
    /// The line without its terminator and leading blanks.
    pub trimmed: &'a str,
    pub line: LineResult<Line<'a>>,
}

/// Offsets where lines start, about `step` bytes apart, from `from` to the
/// end of `text` (both included).
fn cuts(text: &str, from: usize, step: usize) -> Vec<usize> {
    let mut cuts = vec![from];
    let mut at = from + step;
    while at < text.len() {
        match memchr_newline(&text.as_bytes()[at..]) {
            Some(i) if at + i + 1 < text.len() => {
                cuts.push(at + i + 1);
                at += i + 1 + step;
            }
            _ => break,
        }
    }
    cuts.push(text.len());
    cuts
}

fn memchr_newline(b: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', b)
}

/// The lines of `piece` as `split('\n')` gives them (`keep_last_empty`)
/// or `split_terminator('\n')`, the line feeds found by `memchr`'s vector
/// search rather than `str::split`'s byte-at-a-time one. Not built on
/// `parse::text::lines_at` (feeds kept, then stripped): that took `info` on
/// 27,648 hosts from 0.101–0.114 s to 0.110–0.124 s (`perf stat -r 15`).
fn split_lines(piece: &str, keep_last_empty: bool) -> impl Iterator<Item = &str> {
    let mut feeds = memchr::memchr_iter(b'\n', piece.as_bytes());
    let (mut start, mut done) = (0, false);
    std::iter::from_fn(move || match feeds.next() {
        Some(i) => {
            let line = &piece[start..i];
            start = i + 1;
            Some(line)
        }
        None if done => None,
        None => {
            done = true;
            let rest = &piece[start..];
            (keep_last_empty || !rest.is_empty()).then_some(rest)
        }
    })
}

/// Classifies the lines of `text[start..end]` into `out` (emptied first,
/// its capacity kept). Every range but the file's last ends just after a
/// line feed; the last one also yields the empty piece after a final line
/// feed, as `str::split` does for the whole file.
fn classify_range<'a>(text: &'a str, start: usize, end: usize, out: &mut Vec<Classified<'a>>) {
    let piece = &text[start..end];
    let lines = split_lines(piece, end == text.len());
    let mut off = start;
    out.clear();
    out.reserve(piece.len() / 48);
    for raw in lines {
        let line_off = off;
        off += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim_start_matches([' ', '\t']);
        out.push(Classified {
            base: line_off + (line.len() - trimmed.len()),
            trimmed,
            line: lines::classify(trimmed),
        });
    }
}

/// Classifies one batch, its pieces in parallel; the pieces in file order.
/// The vectors of `pool` (a batch already taken) are filled again: fresh
/// ones for every batch cost a page fault per 4 KiB (issue 17: 15-18 % of
/// the parse), and a batch's lines are about the same size as the last's.
fn classify_batch<'a>(
    text: &'a str,
    start: usize,
    end: usize,
    mut pool: Vec<Vec<Classified<'a>>>,
) -> Vec<Vec<Classified<'a>>> {
    let step = ((end - start) / PIECES).max(1 << 16);
    let bounds = cuts(&text[..end], start, step);
    pool.resize_with(bounds.len() - 1, Vec::new);
    bounds
        .par_windows(2)
        .zip(pool.into_par_iter())
        .map(|(w, mut out)| {
            classify_range(text, w[0], w[1], &mut out);
            out
        })
        .collect()
}

/// Feeds every line of `text` from byte `from`, in file order, to `take`;
/// stops at `take`'s first error. The next batch is classified while
/// `take` runs over the current one. Lines are lent, not moved: a
/// classified port line is about 200 bytes, and moving it out of the
/// batch and on into the records copied it twice more (issue 17: `memmove`
/// was 6 % of the parse).
pub fn for_each_line<'a, E: Send>(
    text: &'a str,
    from: usize,
    mut take: impl FnMut(&Classified<'a>) -> Result<(), E> + Send,
) -> Result<(), E> {
    let batches = cuts(text, from, BATCH_BYTES);
    let mut current = classify_batch(text, batches[0], batches[1], Vec::new());
    let mut spare = Vec::new();
    for w in batches.windows(2).skip(1) {
        let pool = std::mem::take(&mut spare);
        let (taken, next) = rayon::join(
            || current.iter().flatten().try_for_each(&mut take),
            || classify_batch(text, w[0], w[1], pool),
        );
        taken?;
        // the emptied vectors keep their capacity for the batch after next
        current.iter_mut().for_each(Vec::clear);
        spare = std::mem::replace(&mut current, next);
    }
    current.iter().flatten().try_for_each(take)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line's offset and text as a serial `split('\n')` gives them.
    fn serial(text: &str, from: usize) -> Vec<(usize, String)> {
        let mut off = from;
        let mut out = Vec::new();
        for raw in text[from..].split('\n') {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let trimmed = line.trim_start_matches([' ', '\t']);
            out.push((off + line.len() - trimmed.len(), trimmed.to_string()));
            off += raw.len() + 1;
        }
        out
    }

    fn batched(text: &str, from: usize) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        for_each_line(text, from, |c| {
            out.push((c.base, c.trimmed.to_string()));
            Ok::<(), ()>(())
        })
        .unwrap();
        out
    }

    #[test]
    fn memchr_lines_are_the_split_lines() {
        for t in ["", "\n", "a", "a\n", "a\nb", "\n\nab\r\n c\n\n", "x\ny\n"] {
            let all: Vec<_> = split_lines(t, true).collect();
            assert_eq!(all, t.split('\n').collect::<Vec<_>>(), "{t:?}");
            let term: Vec<_> = split_lines(t, false).collect();
            assert_eq!(term, t.split_terminator('\n').collect::<Vec<_>>(), "{t:?}");
        }
    }

    #[test]
    fn batches_yield_the_serial_lines_in_order() {
        // Over three batches of mixed lines, CRLF ends, blank and indented
        // lines, with and without a final line feed, after a 3-byte BOM.
        let mut text = String::from("\u{feff}");
        let mut i = 0u64;
        while text.len() < 3 * BATCH_BYTES + 12_345 {
            text.push_str(match i % 5 {
                0 => "Switch 36 \"S-0000000000000001\" # \"s\" enhanced port 0 lid 1 lmc 0\n",
                1 => "[1]\t\"H-0000000000000002\"[1](2) \t\t# \"h\" lid 2 4xHDR\r\n",
                2 => "\n",
                3 => "   \t[2]\t\"S-0000000000000003\"[4]\n",
                _ => "# comment é\n",
            });
            i += 1;
        }
        for t in [text.clone(), format!("{text}[9]\t\"S-01\"[1]")] {
            assert_eq!(batched(&t, 3), serial(&t, 3));
        }
        assert_eq!(batched("", 0), vec![(0, String::new())]);
    }

    #[test]
    fn the_first_error_stops_the_pass_at_its_line() {
        let text = "a\n".repeat(BATCH_BYTES);
        let mut seen = 0usize;
        let r = for_each_line(&text, 0, |c| {
            seen += 1;
            if c.base == 2 * 1000 {
                Err(c.base)
            } else {
                Ok(())
            }
        });
        assert_eq!((r, seen), (Err(2000), 1001));
    }
}
