//! ibnetdiscover text and ibsim net files (formats.md §1, §2;
//! `formats/ibnetdiscover.md`, `formats/ibsim-net.md`).
//!
//! One pass over the lines collects borrowed node and port records
//! ([`records`]); peers are named before their own record appears, so the
//! fabric is assembled once every record is known ([`build`]), checking that
//! the two copies of each link agree.

mod build;
mod cursor;
mod detect;
mod lines;
mod records;

pub use detect::detect;
pub use lines::width_speed;

use super::{Loaded, TopoFormat};
use crate::error::{ParseError, Result};

/// How many skipped lines `--lenient` lists one by one before summarising.
const LISTED_SKIPS: usize = 5;

/// Parses ibnetdiscover or ibsim text. `name` is used in messages; with
/// `lenient`, unrecognised lines are skipped and counted in the warnings.
pub fn parse(name: &str, text: &str, format: TopoFormat, lenient: bool) -> Result<Loaded> {
    let ibsim = format == TopoFormat::Ibsim;
    let mut rec = records::Records::new(name, text, ibsim);
    let mut skipped = Vec::new();
    let mut nskipped = 0usize;
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut off = text.len() - body.len();
    for raw in body.split('\n') {
        let line_off = off;
        off += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim_start_matches([' ', '\t']);
        let base = line_off + (line.len() - trimmed.len());
        let err = |e: cursor::LineError| -> crate::Error {
            let pe = ParseError::at(name, text, base + e.at, e.len, e.expected, e.found);
            pe.into()
        };
        let classified = lines::classify(trimmed);
        let skip = match classified {
            Ok(lines::Line::Unknown) => true,
            Ok(lines::Line::Port(_)) if !rec.in_record() && lenient => true,
            Err(_) if lenient => true,
            _ => false,
        };
        if skip {
            nskipped += 1;
            if skipped.len() < LISTED_SKIPS {
                let (l, _) = crate::error::line_col(text, base);
                let shown: String = trimmed.trim_end().chars().take(60).collect();
                skipped.push(format!("{name}:{l}: skipped unrecognised line `{shown}`"));
            }
            if !lenient {
                let found = format!(
                    "`{}`",
                    trimmed.trim_end().chars().take(60).collect::<String>()
                );
                let pe = ParseError::at(
                    name,
                    text,
                    base,
                    trimmed.trim_end().len(),
                    EXPECTED_LINE,
                    found,
                )
                .with_help("pass --lenient to skip lines that are not part of the topology");
                return Err(pe.into());
            }
            rec.end_record();
            continue;
        }
        rec.line(classified.map_err(err)?, base, trimmed.trim_end().len())?;
    }
    let mut warnings = skipped;
    if nskipped > LISTED_SKIPS {
        warnings.push(format!(
            "{name}: skipped {nskipped} unrecognised lines in all (--lenient)"
        ));
    }
    let (fabric, more) = build::build(rec)?;
    warnings.extend(more);
    Ok(Loaded {
        fabric,
        format,
        warnings,
    })
}

const EXPECTED_LINE: &str = "a node header (`Switch`, `Ca`, `Rt`), a port line `[n] \"peer\"[m]`, \
                             a `key=value` line, a `#` comment or a blank line";
