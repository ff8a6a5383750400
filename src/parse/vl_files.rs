//! Readers of VL plans: SL2VL tables as OpenSM dumps them
//! (`opensm-sl2vl.dump`, `formats/opensm-sl2vl-dump.md`) or as ibdmchk's
//! `-d` file takes them, and path SLs as ibdmchk's `-c` file takes them or
//! as `saquery -p` prints path records (`formats/ibdmchk-vl.md`,
//! `formats/saquery-path-records.md`). The form is told by the content;
//! unlike ibdmchk, which skips any line it cannot parse without a word,
//! every line must parse.

use std::path::Path;

use super::text::{lines_at, tokens};
use crate::error::{ParseError, Result};
use crate::model::vl::NUM_SL;
use crate::model::vl_records::{PathSlRecord, PathSource, Sl2VlRecord};
use crate::model::{Guid, Lid};

/// Reads the SL2VL file at `path` (either form).
pub fn load_sl2vl(path: &Path) -> Result<Vec<Sl2VlRecord>> {
    let text = crate::io::read_text(path)?;
    parse_sl2vl(&path.display().to_string(), &text)
}

/// Reads the path-SL file at `path` (either form).
pub fn load_psl(path: &Path) -> Result<Vec<PathSlRecord>> {
    let text = crate::io::read_text(path)?;
    parse_psl(&path.display().to_string(), &text)
}

/// [`load_psl`] handing each record to `sink` as it is read, the whole
/// file in memory (any form; [`super::psl_stream`] reads plain ibdmchk
/// files in bounded memory and falls back to this).
pub fn read_psl_file(path: &Path, sink: &mut dyn FnMut(PathSlRecord)) -> Result<()> {
    let text = crate::io::read_text(path)?;
    read_psl(&path.display().to_string(), &text, sink)
}

fn num<T: TryFrom<u64>>(tok: &str) -> Option<T> {
    let v = match tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok()?,
        None => tok.parse::<u64>().ok()?,
    };
    T::try_from(v).ok()
}

/// SL2VL rows: `(Switch|Channel Adapter|Router) 0xGUID, base LID N, "desc"`
/// headers with `IN OUT : VL0 .. VL15` rows under them (OpenSM), or
/// `0xGUID IN OUT 0xAB x8` lines (ibdmchk). `#` lines are comments.
pub fn parse_sl2vl(file: &str, text: &str) -> Result<Vec<Sl2VlRecord>> {
    let mut out = Vec::new();
    let mut current: Option<Guid> = None;
    for (start, line) in lines_at(text) {
        let body = line.trim_end();
        let toks: Vec<(usize, &str)> = tokens(body).collect();
        let Some(&(at0, first)) = toks.first() else {
            continue;
        };
        let err = |at: usize, len: usize, what: &str| {
            ParseError::at(file, text, start + at, len, what, "")
        };
        if first.starts_with('#') {
            continue;
        }
        if matches!(first, "Switch" | "Channel" | "Router") {
            let (gat, g) = toks
                .iter()
                .find(|t| t.1.starts_with("0x"))
                .copied()
                .ok_or_else(|| {
                    err(
                        at0,
                        first.len(),
                        "a node header `Switch 0xGUID, base LID N, \"desc\"`",
                    )
                })?;
            let g = g.trim_end_matches(',');
            current = Some(Guid::parse(g).ok_or_else(|| err(gat, g.len(), "a GUID"))?);
            continue;
        }
        let bad_row = || {
            err(
                at0,
                body.len() - at0,
                "`IN OUT : VL0 .. VL15` (OpenSM) or `0xGUID IN OUT 0xAB x8` (ibdmchk)",
            )
        };
        let rec = if first.starts_with("0x") && toks.len() == 11 {
            let guid = Guid::parse(first).ok_or_else(|| err(at0, first.len(), "a GUID"))?;
            let mut vl_of_sl = [0u8; NUM_SL];
            for (i, &(at, t)) in toks[3..].iter().enumerate() {
                let pair: u8 = num(t)
                    .filter(|_| t.len() == 4)
                    .ok_or_else(|| err(at, t.len(), "0x followed by two VL digits"))?;
                vl_of_sl[2 * i] = pair >> 4;
                vl_of_sl[2 * i + 1] = pair & 15;
            }
            Sl2VlRecord {
                guid,
                in_port: port(&toks[1], &err)?,
                out_port: port(&toks[2], &err)?,
                vl_of_sl,
            }
        } else if toks.len() == 3 + NUM_SL && toks[2].1 == ":" {
            let guid = current
                .ok_or_else(|| err(at0, first.len(), "a node header before the SL2VL rows"))?;
            let mut vl_of_sl = [0u8; NUM_SL];
            for (i, &(at, t)) in toks[3..].iter().enumerate() {
                vl_of_sl[i] = num(t)
                    .filter(|v: &u8| *v < 16)
                    .ok_or_else(|| err(at, t.len(), "a VL (0..15)"))?;
            }
            Sl2VlRecord {
                guid,
                in_port: port(&toks[0], &err)?,
                out_port: port(&toks[1], &err)?,
                vl_of_sl,
            }
        } else {
            return Err(bad_row().into());
        };
        out.push(rec);
    }
    Ok(out)
}

fn port(tok: &(usize, &str), err: &impl Fn(usize, usize, &str) -> ParseError) -> Result<u8> {
    num(tok.1)
        .filter(|&p: &u8| p < 255)
        .ok_or_else(|| err(tok.0, tok.1.len(), "a port number (0..254)").into())
}

/// Path SLs: `0xGUID DLID SL` lines (ibdmchk), or `saquery -p` output:
/// `PathRecord dump:` blocks whose `slid`, `dlid` and `sl` fields count
/// (others are skipped; a record with LID 0, which saquery prints for an
/// unanswered segment, is dropped).
pub fn parse_psl(file: &str, text: &str) -> Result<Vec<PathSlRecord>> {
    let mut out = Vec::new();
    read_psl(file, text, &mut |r| out.push(r))?;
    Ok(out)
}

/// [`parse_psl`] handing each record to `out` in file order.
pub fn read_psl(file: &str, text: &str, out: &mut dyn FnMut(PathSlRecord)) -> Result<()> {
    if text.contains("PathRecord dump") {
        return parse_path_records(file, text, out);
    }
    ibdmchk_lines(text, out)
        .map_err(|(at, len, what)| ParseError::at(file, text, at, len, what, "").into())
}

/// Where an ibdmchk line went wrong: byte offset in the text, length, and
/// what was expected there.
pub(super) type LineError = (usize, usize, &'static str);

/// The `0xGUID DLID SL` lines of `text` (blank and `#` lines skipped), each
/// handed to `out` in order.
pub(super) fn ibdmchk_lines(
    text: &str,
    out: &mut dyn FnMut(PathSlRecord),
) -> std::result::Result<(), LineError> {
    let mut last: Option<(&str, Guid)> = None;
    for (start, line) in lines_at(text) {
        // three tokens, and whether a fourth follows (no Vec per line: an
        // ibdmchk file has a line per CA and destination, 18 M of them for
        // 4,280 CAs)
        let mut it = tokens(line.trim_end());
        let Some((at0, first)) = it.next() else {
            continue;
        };
        if first.starts_with('#') {
            continue;
        }
        let err = |at: usize, len: usize, what| (start + at, len, what);
        let (Some(t1), Some(t2), None) = (it.next(), it.next(), it.next()) else {
            return Err(err(at0, line.trim_end().len() - at0, "`0xGUID DLID SL`"));
        };
        // a source's lines come together: parse its GUID once
        let guid = match last {
            Some((tok, g)) if tok == first => g,
            _ => Guid::parse(first)
                .filter(|_| first.starts_with("0x"))
                .ok_or_else(|| err(at0, first.len(), "a node GUID (0x...)"))?,
        };
        last = Some((first, guid));
        let dlid: Lid =
            t1.1.parse()
                .ok()
                .filter(|&l| l > 0)
                .ok_or_else(|| err(t1.0, t1.1.len(), "a decimal LID"))?;
        let sl: u8 =
            t2.1.parse()
                .ok()
                .filter(|&s| s < 16)
                .ok_or_else(|| err(t2.0, t2.1.len(), "an SL (0..15)"))?;
        out(PathSlRecord {
            src: PathSource::Node(guid),
            dlid,
            sl,
        });
    }
    Ok(())
}

fn parse_path_records(file: &str, text: &str, out: &mut dyn FnMut(PathSlRecord)) -> Result<()> {
    let (mut slid, mut dlid, mut sl) = (None, None, None);
    let mut flush = |slid: &mut Option<Lid>, dlid: &mut Option<Lid>, sl: &mut Option<u8>| {
        if let (Some(s), Some(d), Some(l)) = (slid.take(), dlid.take(), sl.take())
            && s != 0
            && d != 0
        {
            out(PathSlRecord {
                src: PathSource::Lid(s),
                dlid: d,
                sl: l,
            });
        }
    };
    for (start, line) in lines_at(text) {
        let body = line.trim();
        if body.starts_with("PathRecord dump") {
            flush(&mut slid, &mut dlid, &mut sl);
            continue;
        }
        let Some((key, value)) = body.split_once('.') else {
            continue;
        };
        let value = value.trim_start_matches('.');
        let at = start + line.find(value).unwrap_or(0);
        let err = |what: &str| ParseError::at(file, text, at, value.len(), what, "");
        match key {
            "slid" => slid = Some(num(value).ok_or_else(|| err("a LID"))?),
            "dlid" => dlid = Some(num(value).ok_or_else(|| err("a LID"))?),
            "sl" => {
                sl = Some(
                    num(value)
                        .filter(|&s: &u8| s < 16)
                        .ok_or_else(|| err("an SL (0..15)"))?,
                )
            }
            _ => {}
        }
    }
    flush(&mut slid, &mut dlid, &mut sl);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sl2vl_forms_read_the_same_row() {
        let osm = "Switch 0x0002c90101000000, base LID 2, \"R0\"\n\
                   #in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n\
                   #--------------------------------------------------------\n\
                   1   2   : 0  1  0  1  0  1  0  1  0  1  0  1  0  1  0  1 \n";
        let ibd = "0x0002c90101000000 1 2 0x01 0x01 0x01 0x01 0x01 0x01 0x01 0x01\n";
        let (a, b) = (
            parse_sl2vl("a", osm).unwrap(),
            parse_sl2vl("b", ibd).unwrap(),
        );
        assert_eq!(a, b);
        assert_eq!((a[0].in_port, a[0].out_port, a[0].vl_of_sl[3]), (1, 2, 1));
        let e = parse_sl2vl("c", "0x0002c90101000000 1 2 0x01\n").unwrap_err();
        assert!(e.to_string().contains("c:1:1"), "{e}");
    }

    #[test]
    fn path_records_and_ibdmchk_lines() {
        let sa = "PathRecord dump:\n\t\tdlid....................9\n\t\tslid....................2\n\t\tsl......................0x3\n\
                  PathRecord dump:\n\t\tdlid....................0\n\t\tslid....................0\n\t\tsl......................0x1\n";
        assert_eq!(
            parse_psl("sa", sa).unwrap(),
            [PathSlRecord {
                src: PathSource::Lid(2),
                dlid: 9,
                sl: 3
            }]
        );
        let ibd = parse_psl("p", "0x0002c90200000000 5 1\n").unwrap();
        assert_eq!(
            ibd[0],
            PathSlRecord {
                src: PathSource::Node(Guid(0x2c90200000000)),
                dlid: 5,
                sl: 1
            }
        );
        assert!(parse_psl("p", "0x0002c90200000000 5 16\n").is_err());
        // the GUID parsed once per run of lines: a new one is read anew,
        // a malformed one on a later line is still an error at that line
        let two = parse_psl(
            "p",
            "0x0002c90200000000 5 1\n0x0002c90200000000 6 2\n0x0002c90200000100 5 3\n",
        )
        .unwrap();
        let srcs: Vec<_> = two.iter().map(|r| (r.src, r.dlid, r.sl)).collect();
        let (a, b) = (
            PathSource::Node(Guid(0x2c90200000000)),
            PathSource::Node(Guid(0x2c90200000100)),
        );
        assert_eq!(srcs, [(a, 5, 1), (a, 6, 2), (b, 5, 3)]);
        for bad in [
            "0x0002c90200000000 5 1\n0x0002c9020000000g 6 2\n",
            "0x0002c90200000000 5 1\n0x0002c90200000000 6\n",
            "0x0002c90200000000 5 1\n0x0002c90200000000 6 2 7\n",
        ] {
            let e = parse_psl("p", bad).unwrap_err().to_string();
            assert!(e.contains("p:2:"), "{e}");
        }
    }
}
