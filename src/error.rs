//! Errors that stop a run (exit code 2). Verification findings are values,
//! not errors: they live in [`crate::verify`].

use std::path::PathBuf;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceSpan};
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
    src: NamedSource<String>,
    #[label(collection)]
    labels: Vec<LabeledSpan>,
    #[help]
    help: Option<String>,
}

impl ParseError {
    /// An error at byte `offset` (spanning `len` bytes) of `text`.
    ///
    /// The found text defaults to the rest of the line from `offset` when
    /// `found` is empty, so that callers need not slice it themselves.
    pub fn at(
        file: &str,
        text: &str,
        offset: usize,
        len: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        let offset = offset.min(text.len());
        let (line, column) = line_col(text, offset);
        let mut found = found.into();
        if found.is_empty() {
            let rest = &text[offset..];
            let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
            found = if end == 0 {
                "end of line".to_string()
            } else {
                format!("`{}`", truncate(&rest[..end], 60))
            };
        }
        let expected = expected.into();
        let len = len.min(text.len() - offset);
        ParseError {
            file: file.to_string(),
            line,
            column,
            labels: vec![LabeledSpan::new_primary_with_span(
                Some(format!("expected {expected}")),
                SourceSpan::new(offset.into(), len),
            )],
            expected,
            found,
            src: NamedSource::new(file, text.to_string()),
            help: None,
        }
    }

    /// Adds a secondary location (for example the other copy of a link).
    pub fn with_secondary(
        mut self,
        text_len_ok: usize,
        len: usize,
        label: impl Into<String>,
    ) -> Self {
        self.labels.push(LabeledSpan::new_with_span(
            Some(label.into()),
            SourceSpan::new(text_len_ok.into(), len),
        ));
        self
    }

    /// Adds a hint on how to fix the input.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
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
