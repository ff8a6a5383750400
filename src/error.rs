//! Errors that stop a run (exit code 2). Verification findings are values,
//! not errors: they live in [`crate::verify`].

use std::path::PathBuf;

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};
use thiserror::Error;

/// The crate-wide result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Anything that prevents routec from producing a result.
#[derive(Debug, Error, Diagnostic)]
pub enum Error {
    /// A malformed input file, with its location.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Parse(Box<ParseError>),
    /// A file could not be read or written.
    // The cause is in the message, not chained, so miette prints it once.
    #[error("{}: {cause}", path.display())]
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    /// Input that parses but cannot be used (unknown fault target, LID clash...).
    #[error("{0}")]
    Input(String),
    /// A command line that makes no sense.
    #[error("{0}")]
    Usage(String),
    /// The fabric cannot be routed by the chosen engine (no roots, unreachable leaves...).
    #[error("{message}")]
    Route {
        message: String,
        #[help]
        help: Option<String>,
    },
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            cause: source,
        }
    }
}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(Box::new(e))
    }
}

/// A syntax error in an input file: file, line, column, what was expected
/// and what was found, rendered by miette with a caret under the culprit.
#[derive(Debug, Error, Diagnostic)]
#[error("{file}:{line}:{column}: expected {expected}, found {found}")]
#[diagnostic(code(routec::parse))]
pub struct ParseError {
    /// Name of the input file as the user gave it.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What the grammar wanted here.
    pub expected: String,
    /// What the file has here.
    pub found: String,
    #[source_code]
    src: Excerpt,
    #[label(collection)]
    labels: Vec<LabeledSpan>,
    #[help]
    help: Option<String>,
    /// Bytes of the input the source shown covers.
    window: (usize, usize),
}

/// Characters of the input shown on each side of an error's column: an
/// error on a 100 MB line shows a window, not the line.
const WINDOW: usize = 80;

impl ParseError {
    /// An error at byte `offset` (spanning `len` bytes) of `text`.
    ///
    /// The found text defaults to the rest of the line from `offset` when
    /// `found` is empty, so that callers need not slice it themselves. The
    /// source shown is a window of the line around the column with control
    /// bytes escaped, so that neither a huge line nor an ESC in the input
    /// reaches the terminal.
    pub fn at(
        file: &str,
        text: &str,
        offset: usize,
        len: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        let offset = floor_char(text, offset.min(text.len()));
        let (line, column) = line_col(text, offset);
        let mut found = escape_controls(&found.into());
        if found.is_empty() {
            let rest = &text[offset..];
            let cap = floor_char(rest, 4 * WINDOW);
            let end = rest[..cap].find(['\n', '\r']).unwrap_or(cap);
            found = if end == 0 {
                "end of line".to_string()
            } else {
                format!("`{}`", escape_controls(&truncate(&rest[..end], 60)))
            };
        }
        let expected = escape_controls(&expected.into());
        let window = Window::around(text, offset);
        let (start, span_len) = window.span(text, offset, len);
        ParseError {
            file: file.to_string(),
            line,
            column,
            labels: vec![LabeledSpan::new_primary_with_span(
                Some(format!("expected {expected}")),
                SourceSpan::new(start.into(), span_len),
            )],
            expected,
            found,
            src: Excerpt::new(file, text, &window),
            help: None,
            window: (window.from, window.to),
        }
    }

    /// Adds a secondary location of `text` (for example the other copy of a
    /// link): a label when it lies in the window shown, else a line of help
    /// naming its line and column.
    pub fn with_secondary(
        mut self,
        text: &str,
        offset: usize,
        len: usize,
        label: impl Into<String>,
    ) -> Self {
        let offset = floor_char(text, offset.min(text.len()));
        let label = escape_controls(&label.into());
        if (self.window.0..self.window.1).contains(&offset) {
            let w = Window::between(text, self.window.0, self.window.1);
            let (start, span_len) = w.span(text, offset, len);
            self.labels.push(LabeledSpan::new_with_span(
                Some(label),
                SourceSpan::new(start.into(), span_len),
            ));
        } else {
            let (l, c) = line_col(text, offset);
            let note = format!("{label}: line {l}, column {c}");
            self.help = Some(match self.help.take() {
                Some(h) => format!("{h}\n{note}"),
                None => note,
            });
        }
        self
    }

    /// Adds a hint on how to fix the input.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        let help = escape_controls(&help.into());
        self.help = Some(match self.help.take() {
            Some(h) => format!("{help}\n{h}"),
            None => help,
        });
        self
    }
}

/// The window of the input an error shows, placed at its true line and
/// column so that the snippet's header names the input's position.
#[derive(Debug)]
struct Excerpt {
    name: String,
    shown: String,
    /// 0-based line and column (in characters) of the window's start.
    line: usize,
    column: usize,
}

impl Excerpt {
    fn new(file: &str, text: &str, w: &Window) -> Self {
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
struct Window {
    from: usize,
    to: usize,
    shown: String,
}

impl Window {
    /// The line holding `offset`, cut to [`WINDOW`] characters each side.
    fn around(text: &str, offset: usize) -> Self {
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

    fn between(text: &str, from: usize, to: usize) -> Self {
        Window {
            from,
            to,
            shown: escape_controls(&text[from..to]),
        }
    }

    /// The span of bytes `offset..offset + len` of the text in `shown`.
    fn span(&self, text: &str, offset: usize, len: usize) -> (usize, usize) {
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
fn floor_char(s: &str, mut i: usize) -> usize {
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

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let cut: String = s.chars().take(max).collect();
        format!("{cut}…")
    }
}
