//! Readers of existing forwarding tables (`formats/lft-dumps.md`):
//! `opensm-lfts.dump` (both header forms), `ibroute`/`dump_fts` output,
//! routec route images (`routes.lft`, `.zst`) and `compile` output
//! directories, all into one [`TableSet`].
//!
//! Used by `routec diff` and `routec check --lfts`.

use std::path::Path;

use super::image;
pub use super::lfts_text::parse_text;
use crate::error::{Error, Result};
use crate::io::Bytes;
use crate::model::OutFile;
use crate::model::table_set::{SwitchTable, TableKind, TableSet, TableVl};

/// Reads tables from `path`: a `compile` output directory (its
/// `routes.lft`, `routes.lft.zst` or `opensm-lfts.dump`, in that order), a
/// route image, or an OpenSM / ibroute text dump, any of them zstd-compressed.
pub fn read_tables(path: &Path) -> Result<TableSet> {
    read_tables_rows(path).map(|(t, _)| t)
}

/// [`read_tables`], with the SHA-256 of every row (directory order) when
/// the tables are a route image, whose digest check hashes them anyway.
pub fn read_tables_rows(path: &Path) -> Result<(TableSet, Option<Vec<[u8; 32]>>)> {
    refuse_mixed_set(path)?;
    if path.is_dir() {
        let names = OutFile::TABLES.map(OutFile::name);
        let pick = names
            .iter()
            .map(|f| path.join(f))
            .find(|p| p.is_file())
            .ok_or_else(|| {
                Error::Input(format!(
                    "{}: no {} in this directory",
                    path.display(),
                    names.join(", ")
                ))
            })?;
        return read_tables_rows(&pick);
    }
    let bytes = crate::io::read_input(path)?;
    let name = path.display().to_string();
    if image::is_image(&bytes) {
        return from_image(&name, bytes).map(|(t, rows)| (t, Some(rows)));
    }
    parse_tables(&name, bytes).map(|t| (t, None))
}

/// A compile killed while replacing its outputs leaves the marker line
/// first in `routec.manifest` (`emit::commit`): the directory, or an output
/// of it, is then a mix of two runs, and is refused rather than read.
fn refuse_mixed_set(path: &Path) -> Result<()> {
    let dir = if path.is_dir() {
        path
    } else {
        let ours = path
            .file_name()
            .is_some_and(|n| OutFile::ALL.iter().any(|f| n == f.name()));
        match path.parent() {
            Some(d) if ours => d,
            _ => return Ok(()),
        }
    };
    let manifest = dir.join(OutFile::Manifest.name());
    let Ok(text) = std::fs::read_to_string(&manifest) else {
        return Ok(());
    };
    if text.lines().next() == Some(crate::model::MANIFEST_REPLACING) {
        return Err(Error::Input(format!(
            "{}: a compile was stopped while replacing the outputs in {}: they are a mix of \
             two runs (routec.manifest says so); run the compile again",
            path.display(),
            if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            }
            .display()
        )));
    }
    Ok(())
}

/// Parses tables from bytes already read; `name` is used in messages.
pub fn parse_tables(name: &str, bytes: Bytes) -> Result<TableSet> {
    if image::is_image(&bytes) {
        return from_image(name, bytes).map(|(t, _)| t);
    }
    let text = std::str::from_utf8(&bytes)
        .map(std::borrow::Cow::Borrowed)
        .unwrap_or_else(|_| String::from_utf8_lossy(&bytes));
    parse_text(name, &text)
}

/// The tables of a route image and its rows' SHA-256 (directory order).
fn from_image(name: &str, bytes: Bytes) -> Result<(TableSet, Vec<[u8; 32]>)> {
    let idx = image::read_index(&bytes).map_err(|e| Error::Input(format!("{name}: {e}")))?;
    // A changed table byte under a stale digest must not pass as tables
    // routec wrote: the digest is checked on every read.
    let rows = image::verified_row_digests(&bytes, &idx)
        .map_err(|e| Error::Input(format!("{name}: {e}")))?;
    let switches = idx
        .switches
        .into_iter()
        .map(|d| SwitchTable {
            guid: d.guid,
            lid: d.lid,
            desc: Some(d.desc),
            num_ports: Some(d.num_ports),
            top: d.top,
            range: d.table,
        })
        .collect();
    let vl = idx.vl.map(|v| TableVl {
        vls: v.vls,
        end_port: v.end_port,
        default: v.default,
        sl2vl: v.sl2vl,
        path_sl: v.path_sl,
    });
    let set = TableSet {
        kind: TableKind::Image,
        switches,
        lid_guids: idx.lid_guids,
        header: Some(idx.header),
        vl,
        data: bytes,
    };
    Ok((set, rows))
}

#[cfg(test)]
mod tests {
    use super::super::lfts_text::{chunk_starts, parse_range};
    use super::*;
    use crate::model::{Guid, NO_ROUTE};

    const OPENSM: &str = "\
Unicast lids [0-3] of switch Lid 2 guid 0x0000000000200000 ('spine 1'):
0x0001 001 # Channel Adapter portguid 0x0000000000100001: 'h1'
0x0002 000 # Switch portguid 0x0000000000200000: 'spine 1'
3 lids dumped
";

    #[test]
    fn opensm_dump_entries_and_guids() {
        let t = parse_text("d", OPENSM).unwrap();
        assert_eq!(t.kind, TableKind::OpensmDump);
        assert_eq!(t.switches.len(), 1);
        let s = &t.switches[0];
        assert_eq!((s.guid, s.lid, s.top), (Guid(0x200000), 2, 3));
        assert_eq!(s.desc.as_deref(), Some("spine 1"));
        assert_eq!(&t.lft(0)[..4], &[NO_ROUTE, 1, 0, NO_ROUTE]);
        assert_eq!(t.lft(0).len(), 64);
        assert_eq!(t.lid_guid(1), Some(Guid(0x100001)));
        assert_eq!(t.lid_guid(3), None);
    }

    #[test]
    fn old_hex_header_and_ibroute() {
        let old = OPENSM.replace("[0-3]", "[0x0-0x3]");
        assert_eq!(parse_text("d", &old).unwrap().switches[0].top, 3);
        let ib = "\
Unicast lids [0x0-0x29] of switch DR path slid 0; dlid 0; 0,1,5,7 guid 0x0000000000200005 (leaf4):
  Lid  Out   Destination
       Port     Info 
0x0002 005 : (Channel Adapter portguid 0x0000000000100001: 'h1')
0x0003 007 : (path #2 out of 2: portguid 0x0000000000100001)
0x000e 000 : (Switch portguid 0x0000000000200005: 'leaf4')
0x000f 003 
38 valid lids dumped 
";
        let t = parse_text("i", ib).unwrap();
        assert_eq!(t.kind, TableKind::Ibroute);
        let s = &t.switches[0];
        assert_eq!(
            (s.lid, s.top, s.desc.as_deref()),
            (0xe, 0x29, Some("leaf4"))
        );
        assert_eq!(t.port(0, 3), 7);
        assert_eq!(t.port(0, 0xf), 3);
        assert_eq!(t.lid_guid(3), Some(Guid(0x100001)));
    }

    #[test]
    fn big_dumps_parse_in_pieces_like_one() {
        let mut text = String::new();
        for s in 0..80u32 {
            text += &format!(
                "Unicast lids [0-999] of switch Lid {} guid 0x{:016x} ('s{s}'):\n",
                s + 1,
                0x100 + s
            );
            for l in 1..1000u32 {
                let g = 0x5000 + l;
                text += &format!(
                    "0x{l:04x} {:03} # Channel Adapter portguid 0x{g:016x}: 'h'\n",
                    (l * 7 + s) % 36
                );
            }
            text += "999 lids dumped\n";
        }
        assert!(text.len() > 3 << 20);
        let cuts = chunk_starts(&text, 8);
        assert!(cuts.len() > 3, "{cuts:?}");
        assert!(
            cuts[1..cuts.len() - 1]
                .iter()
                .all(|&c| text[c..].starts_with("Unicast lids ["))
        );
        let whole = parse_range("big", &text, 0, text.len()).unwrap();
        let t = parse_text("big", &text).unwrap();
        assert_eq!(t.switches.len(), 80);
        assert_eq!(&*t.data, &whole.data[..]);
        assert_eq!(t.lid_guids, whole.lid_guids);
        assert_eq!(t.port(79, 999), ((999 * 7 + 79) % 36) as u8);
        assert_eq!(t.switches[79].desc.as_deref(), Some("s79"));
        // An error in a later piece still names its line in the whole file.
        let line = 60 * 1001 + 1000; // switch 60 (1,001 lines each), LID 999
        let bad: String = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i + 1 == line {
                    l.replacen("0x03e7", "0x03e8", 1) + "\n"
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let e = parse_text("big", &bad).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("big:{line}:1: expected a LID within")),
            "{e}"
        );
    }

    #[test]
    fn errors_point_at_the_line() {
        let e = parse_text(
            "d",
            "Unicast lids [0-3] of switch Lid 2 guid 0x1 ('s'):\n0x0009 001\n",
        )
        .unwrap_err();
        assert!(e.to_string().contains("d:2:1"), "{e}");
        let e = parse_text("d", "hello\n").unwrap_err();
        assert!(e.to_string().contains("d:1:1"), "{e}");
        assert!(parse_text("d", "").is_err());
    }
}
