//! ibnetdiscover text and ibsim net files (formats.md §1, §2;
//! `formats/ibnetdiscover.md`, `formats/ibsim-net.md`).
//!
//! One pass over the lines collects borrowed node and port records
//! (`records`); peers are named before their own record appears, so the
//! fabric is assembled once every record is known (`build`), checking that
//! the two copies of each link agree.

mod batches;
mod build;
mod cursor;
mod detect;
mod lines;
mod names;
mod port_line;
mod records;

pub use detect::detect;
pub use lines::width_speed;

use super::{Loaded, TopoFormat};
use crate::error::{ParseError, Result};
use batches::Classified;

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
    batches::for_each_line(text, text.len() - body.len(), |c| {
        let &Classified {
            base,
            trimmed,
            line: ref classified,
        } = c;
        let err = |e: &cursor::LineError| -> crate::Error {
            let (expected, found) = (e.expected.clone(), e.found.clone());
            ParseError::at(name, text, base + e.at, e.len, expected, found).into()
        };
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
                return Err(unknown_line(name, text, base, trimmed));
            }
            rec.end_record();
            return Ok(());
        }
        rec.line(
            classified.as_ref().map_err(err)?,
            base,
            trimmed.trim_end().len(),
        )
    })?;
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

/// A line that is no part of the topology, outside `--lenient`.
fn unknown_line(name: &str, text: &str, base: usize, trimmed: &str) -> crate::Error {
    let found = format!(
        "`{}`",
        trimmed.trim_end().chars().take(60).collect::<String>()
    );
    ParseError::at(
        name,
        text,
        base,
        trimmed.trim_end().len(),
        EXPECTED_LINE,
        found,
    )
    .with_help("pass --lenient to skip lines that are not part of the topology")
    .into()
}

const EXPECTED_LINE: &str = "a node header (`Switch`, `Ca`, `Rt`), a port line `[n] \"peer\"[m]`, \
                             a `key=value` line, a `#` comment or a blank line";

#[cfg(test)]
mod tests {
    use super::*;

    /// (line, found) of the error parsing `text` as ibsim.
    fn ibsim_error(text: &str) -> (usize, String) {
        match parse("t", text, TopoFormat::Ibsim, false) {
            Err(crate::Error::Parse(e)) => (e.line, e.found.clone()),
            other => panic!("{:?}", other.map(|l| l.fabric.num_nodes())),
        }
    }

    /// Nodes are added at once (issue 17), yet the first bad record in
    /// file order is the one reported, whether it repeats a GUID or has
    /// GUID 0 (the ibsim base set to 0).
    #[test]
    fn first_bad_node_in_file_order() {
        let dup_then_zero = "switchguid=0x10\nSwitch 2 \"a\"\n[1] \"b\"[1]\n\n\
                             switchguid=0x10\nSwitch 2 \"b\"\n\n\
                             switchguid=0\nSwitch 2 \"c\"\n";
        let (line, found) = ibsim_error(dup_then_zero);
        assert_eq!(line, 6, "{found}");
        assert!(
            found.contains("duplicate node GUID 0x0000000000000010"),
            "{found}"
        );
        assert!(found.contains("first used at line 2"), "{found}");
        let zero_then_dup = "switchguid=0x10\nSwitch 2 \"a\"\n[1] \"b\"[1]\n\n\
                             switchguid=0\nSwitch 2 \"b\"\n\n\
                             switchguid=0x10\nSwitch 2 \"c\"\n";
        assert_eq!(
            ibsim_error(zero_then_dup),
            (6, "node GUID 0x0000000000000000".to_string())
        );
        // a second GUID 0 is no duplicate of the first: GUID 0 is reported
        let two_zeros = "switchguid=0\nSwitch 2 \"a\"\n\nswitchguid=0\nSwitch 2 \"b\"\n";
        assert_eq!(ibsim_error(two_zeros).0, 2);
    }

    fn load(text: &str, format: TopoFormat) -> Result<Loaded> {
        parse("t", text, format, false)
    }

    /// The GUID of a peer's name is read while lines are classified; what
    /// it means still depends on the format (issue 17).
    #[test]
    fn peer_name_guids_by_format() {
        let ibnd = "Switch 2 \"S-0000000000000001\" # \"s\" enhanced port 0 lid 1 lmc 0\n\
                    [1] \"H-00000000000000x2\"[1]\n";
        let e = load(ibnd, TopoFormat::Ibnetdiscover)
            .unwrap_err()
            .to_string();
        assert!(e.contains("a GUID (1 to 16 hex digits)"), "{e}");
        assert!(e.contains("`00000000000000x2`"), "{e}");
        // The same names are plain ids in an ibsim file.
        let ibsim = "Switch 2 \"S-0000000000000001\"\n[1] \"H-00000000000000x2\"[1]\n\n\
                     Hca 1 \"H-00000000000000x2\"\n[1] \"S-0000000000000001\"[1]\n";
        let f = load(ibsim, TopoFormat::Ibsim).unwrap().fabric;
        assert_eq!((f.num_nodes(), f.num_switches()), (2, 1));
        // ibnetdiscover: `S-0x01` and `S-0000000000000001` are one node.
        let same = "Switch 2 \"S-0000000000000001\" # \"s\" enhanced port 0 lid 1 lmc 0\n\
                    [1] \"H-0x2\"[1]\n\n\
                    Ca 1 \"H-0000000000000002\" # \"h\"\n\
                    [1](3) \"S-0x1\"[1] # lid 2 lmc 0 \"s\" lid 1 4xHDR\n";
        let f = load(same, TopoFormat::Ibnetdiscover).unwrap().fabric;
        assert_eq!(f.num_nodes(), 2);
        assert_eq!(f.links().count(), 1);
    }
}
