//! `opensm.mcfdbs`, byte-identical to OpenSM's `dump_mcast_routes`
//! (`opensm/osm_dump.c`, formats.md §5.3): switches in `sw_guid_tbl` order
//! (ascending byte-swapped node GUID, algorithms.md §2.0), only switches
//! with an entry, each preceded by an empty line; rows by MLID
//! (`0x%04X :`), ports ascending, each printed ` 0x%03X `.

use std::io::{self, Write};

use crate::model::{Fabric, Mfts};

/// Writes the MFT of every switch in OpenSM's dump format.
pub fn write_mcfdbs(fabric: &Fabric, mfts: &Mfts, out: &mut dyn Write) -> io::Result<()> {
    for s in fabric.opensm_switch_order() {
        let rows = mfts.rows(s);
        if rows.iter().all(|(_, m)| m.is_empty()) {
            continue;
        }
        let guid = fabric.node(fabric.switch_node(s)).guid;
        write!(out, "\nSwitch {guid}\nLID    : Out Port(s)\n")?;
        for (mlid, mask) in rows.iter().filter(|(_, m)| !m.is_empty()) {
            write!(out, "0x{mlid:04X} :")?;
            for p in mask.ports() {
                write!(out, " 0x{p:03X} ")?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}
