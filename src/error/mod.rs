//! Errors that stop a run (exit code 2). Verification findings are values,
//! not errors: they live in [`crate::verify`].

mod excerpt;

use std::path::PathBuf;

use miette::{Diagnostic, LabeledSpan, SourceSpan};
use thiserror::Error;

use excerpt::{Excerpt, WINDOW, Window, floor_char, truncate};
pub use excerpt::{escape_controls, line_col};

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
