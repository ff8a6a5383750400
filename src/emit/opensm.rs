//! `opensm-lfts.dump`, byte-identical to OpenSM 3.3.23's `dump_ucast_lfts`
//! (`opensm/osm_dump.c`; formats.md §5.1, `formats/opensm-lfts-dump.md`),
//! so that `opensm -R file -U` loads it.
//!
//! The file is large (≈65 bytes per entry: 1.4 GB for an 11,664-host fat
//! tree), so everything that does not depend on the switch — the `0x%04x `
//! LID column and the ` # <type> portguid …: '<desc>'` tail of each LID —
//! is formatted once; a switch's block is then byte copies plus three port
//! digits. Blocks are formatted in parallel, in batches, and written in
//! OpenSM's switch order.

use std::io::{self, Write};

use super::batched::write_batched;
use super::digits::{push_dec, push_hex};
use crate::model::{Fabric, Lfts, LidMap, NodeKind, SwIdx};

/// Writes the LFTs of every switch in OpenSM's dump format.
pub fn write_lfts_dump(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    out: &mut dyn Write,
) -> io::Result<()> {
    let lines = LidLines::new(fabric, lids);
    let order = fabric.opensm_switch_order();
    write_batched(&order, out, |&s, buf| {
        switch_block(fabric, lids, lfts, &lines, s, buf)
    })
}

/// The switch-independent parts of every LID's line.
struct LidLines {
    /// `0x%04x ` of LID `l` at `heads[7 * l..7 * l + 7]`.
    heads: Vec<u8>,
    /// ` # …\n` of LID `l` at `tails[tail_at[l]..tail_at[l + 1]]`.
    tails: Vec<u8>,
    tail_at: Vec<u32>,
}

impl LidLines {
    fn new(fabric: &Fabric, lids: &LidMap) -> Self {
        let count = lids.max_lid() as usize + 1;
        let mut heads = Vec::with_capacity(7 * count);
        let mut tails = Vec::with_capacity(64 * count);
        let mut tail_at = Vec::with_capacity(count + 1);
        for lid in 0..count {
            heads.extend_from_slice(b"0x");
            push_hex(&mut heads, lid as u64, 4);
            heads.push(b' ');
            tail_at.push(tails.len() as u32);
            match lids.owner(lid as u16) {
                Some(o) => {
                    let node = fabric.node(o.node);
                    tails.extend_from_slice(b" # ");
                    tails.extend_from_slice(node_type_str(node.kind).as_bytes());
                    tails.extend_from_slice(b" portguid 0x");
                    push_hex(&mut tails, fabric.port(o.node, o.port).guid.0, 16);
                    tails.extend_from_slice(b": '");
                    tails.extend_from_slice(node.desc.as_bytes());
                    tails.extend_from_slice(b"'\n");
                }
                None => tails.extend_from_slice(b" # unknown node and type\n"),
            }
        }
        tail_at.push(tails.len() as u32);
        LidLines {
            heads,
            tails,
            tail_at,
        }
    }
}

/// `ib_get_node_type_str`.
fn node_type_str(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Ca => "Channel Adapter",
        NodeKind::Switch => "Switch",
        NodeKind::Router => "Router",
    }
}

/// One switch: header, one line per LID 0..=max LID whose port exists
/// (`port < NumPorts + 1`, so no-route entries vanish), trailer. The header
/// and trailer print the subnet's max LID, not a count (§5.1).
fn switch_block(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    lines: &LidLines,
    s: SwIdx,
    buf: &mut Vec<u8>,
) {
    let n = fabric.switch_node(s);
    let node = fabric.node(n);
    let max_lid = lids.max_lid();
    buf.extend_from_slice(b"Unicast lids [0-");
    push_dec(buf, max_lid as u64);
    buf.extend_from_slice(b"] of switch Lid ");
    push_dec(buf, fabric.switch_lid(n) as u64);
    buf.extend_from_slice(b" guid 0x");
    push_hex(buf, node.guid.0, 16);
    buf.extend_from_slice(b" ('");
    buf.extend_from_slice(node.desc.as_bytes());
    buf.extend_from_slice(b"'):\n");
    let row = lfts.row(s.ix());
    let count = (max_lid as usize + 1).min(row.len());
    for (lid, &port) in row[..count].iter().enumerate() {
        if port > node.num_ports {
            continue;
        }
        buf.extend_from_slice(&lines.heads[7 * lid..7 * lid + 7]);
        buf.extend_from_slice(&[b'0' + port / 100, b'0' + port / 10 % 10, b'0' + port % 10]);
        let (a, b) = (lines.tail_at[lid] as usize, lines.tail_at[lid + 1] as usize);
        buf.extend_from_slice(&lines.tails[a..b]);
    }
    push_dec(buf, max_lid as u64);
    buf.extend_from_slice(b" lids dumped\n");
}

#[cfg(test)]
mod example {
    use crate::model::LidMap;
    use crate::route::opensm::testfab;
    use crate::route::{RouteOptions, engine_by_name};

    /// The example of `formats/opensm-lfts-dump.md` is what routec writes
    /// for the hand-worked fabric of `route::minhop`'s tests, and parses
    /// back to the same tables.
    #[test]
    fn spec_example_is_the_written_text() {
        let spec = include_str!("../../formats/opensm-lfts-dump.md");
        let start = spec.find("```text\n").unwrap() + 8;
        let example = &spec[start..start + spec[start..].find("```").unwrap()];
        let f = testfab::line_with_island();
        let lids = LidMap::new(&f).unwrap();
        let r = engine_by_name("minhop")
            .unwrap()
            .route(&f, &lids, &RouteOptions::default())
            .unwrap();
        let mut out = Vec::new();
        super::write_lfts_dump(&f, &lids, &r.lfts, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        if std::env::var_os("PRINT_EXAMPLE").is_some() {
            print!("{text}");
        }
        assert_eq!(text, example);
        let set = crate::parse::lfts::parse_text("example", example).unwrap();
        let mut entries = 0;
        for (i, t) in set.switches.iter().enumerate() {
            let s = f.switch_index(f.node_by_guid(t.guid).unwrap()).unwrap();
            for lid in 0..=lids.max_lid() {
                let port = set.port(i, lid);
                entries += usize::from(port != crate::model::NO_ROUTE);
                assert_eq!(r.lfts.get(s.ix(), lid), port, "switch {} LID {lid}", t.guid);
            }
        }
        assert_eq!(entries, 16);
    }
}
