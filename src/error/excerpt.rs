//! The excerpt of the input a parse error shows: one line's window
//! around the column, control bytes escaped, placed at its true line and
//! column.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Characters of the input shown on each side of an error's column: an
/// error on a 100 MB line shows a window, not the line.
pub(super) const WINDOW: usize = 80;

/// The window of the input an error shows, placed at its true line and
/// column so that the snippet's header names the input's position.
#[derive(Debug)]
pub(super) struct Excerpt {
    name: String,
    shown: String,
    /// 0-based line and column (in characters) of the window's start.
    line: usize,
    column: usize,
}

impl Excerpt {
    pub(super) fn new(file: &str, text: &str, w: &Window) -> Self {
        let (line, column) = line_col(text, w.from);
        Excerpt {
            name: file.to_string(),
            shown: w.shown.clone(),
            line: line - 1,
            column: column - 1,
        }
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let (start, end) = (span.offset(), span.offset() + span.len());
        if end > self.shown.len() || !self.shown.is_char_boundary(start) {
            return Err(MietteError::OutOfBounds);
        }
        // The window is one line: with context, all of it; without, the
        // span itself at its column.
        let (from, to, column) = if before > 0 || after > 0 {
            (0, self.shown.len(), self.column)
        } else {
            (
                start,
                end,
                self.column + self.shown[..start].chars().count(),
            )
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &self.shown.as_bytes()[from..to],
            (from, to - from).into(),
            self.line,
            column,
            1,
        )))
    }
}

/// The part of the input an error shows: bytes `from..to` of the text, as
/// shown (control bytes escaped).
pub(super) struct Window {
    pub(super) from: usize,
    pub(super) to: usize,
    shown: String,
}

impl Window {
    /// The line holding `offset`, cut to [`WINDOW`] characters each side.
    pub(super) fn around(text: &str, offset: usize) -> Self {
        let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let line_end = text[offset..]
            .find(['\n', '\r'])
            .map_or(text.len(), |i| offset + i);
        let from = text[line_start..offset]
            .char_indices()
            .rev()
            .nth(WINDOW - 1)
            .map_or(line_start, |(i, _)| line_start + i);
        let to = text[offset..line_end]
            .char_indices()
            .nth(WINDOW)
            .map_or(line_end, |(i, _)| offset + i);
        Window::between(text, from, to)
    }

    pub(super) fn between(text: &str, from: usize, to: usize) -> Self {
        Window {
            from,
            to,
            shown: escape_controls(&text[from..to]),
        }
    }

    /// The span of bytes `offset..offset + len` of the text in `shown`.
    pub(super) fn span(&self, text: &str, offset: usize, len: usize) -> (usize, usize) {
        let at = |o: usize| {
            escape_controls(&text[self.from..floor_char(text, o.clamp(self.from, self.to))]).len()
        };
        let start = at(offset);
        (start, at(offset + len).saturating_sub(start))
    }
}

/// The input's control characters (ESC, BEL, NUL, ...) as `\u{1b}`-style
/// escapes; tabs stay.
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(|c| c.is_control() && c != '\t') {
        return s.to_string();
    }
    s.chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The largest char boundary of `s` at or below `i`.
pub(super) fn floor_char(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// 1-based line and column (in chars) of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

pub(super) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let cut: String = s.chars().take(max).collect();
        format!("{cut}…")
    }
}
