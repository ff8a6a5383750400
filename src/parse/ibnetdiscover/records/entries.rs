//! The record lines that make entries: a node header opens a node record
//! (its GUID from the name, or ibsim's running base), and a port line adds
//! a port record to it.

use super::super::lines::{Header, PortLine};
use super::{NO_PEER, NodeRec, PortRec, Records, guid_of_name, kind_slot};
use crate::error::Result;
use crate::model::{Guid, NodeKind};

impl<'a> Records<'a> {
    pub(super) fn header(&mut self, h: &Header<'a>, off: usize, len: usize) -> Result<()> {
        let slot = kind_slot(h.kind);
        let guid = if self.ibsim {
            let g = self.ibsim_base[slot];
            let step = if h.kind == NodeKind::Switch {
                1
            } else {
                h.num_ports as u64 + 1
            };
            self.ibsim_base[slot] = g.wrapping_add(step);
            Guid(g)
        } else {
            let from_name = match guid_of_name(h.id) {
                Some(Ok((_, g))) => Some(g),
                Some(Err(())) => return Err(self.bad_name_guid(off + h.id_at, h.id).into()),
                None => None,
            };
            match (self.pending.guid[slot].take(), from_name) {
                (Some(d), Some(n)) if d != n.0 => {
                    let e = self.error(
                        off + h.id_at,
                        h.id.len(),
                        format!("the GUID given by the guid= line above (0x{d:x})"),
                        format!("`{}`", h.id),
                    );
                    return Err(e.into());
                }
                (Some(d), _) => Guid(d),
                (None, Some(n)) => n,
                (None, None) => {
                    let e = self
                        .error(
                            off + h.id_at,
                            h.id.len(),
                            "a node name like \"S-<GUID>\" or a guid= line before the record",
                            format!("`\"{}\"`", h.id),
                        )
                        .with_help("ibsim net files name nodes freely: use --format ibsim");
                    return Err(e.into());
                }
            }
        };
        let p = std::mem::take(&mut self.pending);
        let desc = match h.desc {
            Some(d) => d,
            None if self.ibsim => h.id,
            None => "",
        };
        self.current = Some(self.nodes.len() as u32);
        self.nodes.push(NodeRec {
            kind: h.kind,
            id: h.id,
            line_off: off,
            line_len: len,
            num_ports: h.num_ports,
            desc,
            guid,
            port0_guid: if h.kind == NodeKind::Switch {
                p.port0
            } else {
                None
            },
            vendor_id: p.vendor_id,
            device_id: p.device_id,
            sysimg_guid: p.sysimg_guid,
            lid: h.lid,
            lmc: h.lmc,
            enhanced: h.enhanced,
            placeholder: false,
        });
        Ok(())
    }

    pub(super) fn port(&mut self, p: &PortLine<'a>, off: usize, len: usize) -> Result<()> {
        let Some(owner) = self.current else {
            let e = self.error(
                off,
                len,
                "a node header (`Switch`, `Ca`, `Rt`) before this port line",
                "",
            );
            return Err(e.into());
        };
        if !self.ibsim && p.remote_port.is_none() {
            let e = self.error(
                off + p.remote_port_at,
                1,
                "`[port]` after the peer name",
                "",
            );
            return Err(e.into());
        }
        let peer_guid = if self.ibsim {
            // ibsim ids are free text, whatever their shape
            None
        } else {
            match p.remote_name_guid {
                Some(Err(())) => {
                    return Err(self.bad_name_guid(off + p.remote_at, p.remote).into());
                }
                g => g.and_then(Result::ok),
            }
        };
        self.ports.push(PortRec {
            owner,
            peer: NO_PEER,
            line_off: off,
            line_len: len,
            remote: p.remote,
            peer_guid,
            local_guid: p.local_guid,
            local_lid: p.local_lid,
            port: p.port,
            remote_port: p.remote_port,
            width: p.width,
            speed: p.speed,
        });
        Ok(())
    }
}
