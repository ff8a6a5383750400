//! Peer names to node indices (formats.md §0.6, §0.7): every record's
//! name once, then each port line's peer looked up, and (ibnetdiscover)
//! placeholder nodes for peers that have no record of their own.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::records::{NodeRec, Records, guid_of_name};
use crate::error::{ParseError, Result, line_col};
use crate::model::{FxHasher, Guid};

/// How a port line names its peer. ibnetdiscover names stand for GUIDs, so
/// `"H-0x100"` and `"H-0000000000000100"` are one node; ibsim ids are text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Key<'a> {
    Guid(Guid),
    Name(&'a str),
}

type Names<'a> = HashMap<Key<'a>, u32, BuildHasherDefault<FxHasher>>;

fn key<'a>(ibsim: bool, id: &'a str) -> Key<'a> {
    match guid_of_name(id) {
        Some(Ok((_, g))) if !ibsim => Key::Guid(g),
        _ => Key::Name(id),
    }
}

/// Resolves every port line's peer to a node index ([`PortRec::peer`]),
/// adding placeholder nodes where ibnetdiscover names a node that has no
/// record; answers how many were added.
///
/// [`PortRec::peer`]: super::records::PortRec::peer
pub(super) fn resolve_peers(r: &mut Records<'_>) -> Result<usize> {
    let names = index_names(r)?;
    add_placeholders(r, names)
}

fn index_names<'a>(r: &Records<'a>) -> Result<Names<'a>> {
    let mut names = Names::with_capacity_and_hasher(r.nodes.len() * 2, Default::default());
    for (i, n) in r.nodes.iter().enumerate() {
        let k = key(r.ibsim, n.id);
        if let Some(&first) = names.get(&k) {
            let f = &r.nodes[first as usize];
            let (fl, _) = line_col(r.text, f.line_off);
            let (what, found) = if r.ibsim {
                (
                    "node id",
                    format!("duplicate node id \"{}\" (first record at line {fl})", n.id),
                )
            } else {
                (
                    "node GUID",
                    format!(
                        "duplicate node GUID {} (\"{}\", first record at line {fl})",
                        n.guid, n.id
                    ),
                )
            };
            let e = r
                .error(
                    n.line_off,
                    n.line_len,
                    format!("a {what} not used by an earlier record"),
                    found,
                )
                .with_secondary(r.text, f.line_off, f.line_len, "first record");
            return Err(e.into());
        }
        names.insert(k, i as u32);
    }
    Ok(names)
}

/// ibnetdiscover: a peer with no record of its own becomes a node built
/// from its name (kind, GUID) and the largest port number used on it.
/// ibsim ids carry no GUID, so an unknown id is an error there.
/// Peers with a record are looked up in parallel first (the map is only
/// read then), which also lists the lines left unresolved; those are
/// taken in file order, so placeholders and the first unknown id are
/// those of a serial pass. Listing them in the parallel pass spares a
/// serial scan of every port record (issue 17: 14.6 MB on the
/// 27,648-host RLFT, where none is left).
fn add_placeholders<'a>(r: &mut Records<'a>, mut names: Names<'a>) -> Result<usize> {
    use rayon::prelude::*;
    let unresolved: Vec<u32> = r
        .ports
        .par_iter_mut()
        .enumerate()
        .filter_map(|(i, pr)| {
            let k = pr.peer_guid.map_or(Key::Name(pr.remote), Key::Guid);
            match names.get(&k) {
                Some(&n) => {
                    pr.peer = n;
                    None
                }
                None => Some(i as u32),
            }
        })
        .collect();
    let mut made_up = 0;
    let text = r.text;
    for &i in &unresolved {
        let pr = &mut r.ports[i as usize];
        let port = pr.remote_port.unwrap_or(1);
        let k = pr.peer_guid.map_or(Key::Name(pr.remote), Key::Guid);
        if let Some(&i) = names.get(&k) {
            pr.peer = i;
            let n = &mut r.nodes[i as usize];
            if n.placeholder {
                n.num_ports = n.num_ports.max(port);
            }
            continue;
        }
        let line = pr.reread(text);
        let Some(Ok((kind, guid))) = (!r.ibsim).then(|| guid_of_name(pr.remote)).flatten() else {
            let e = ParseError::at(
                r.file,
                r.text,
                pr.line_off + line.map_or(0, |l| l.remote_at),
                pr.remote.len(),
                "the id of a node defined in this file",
                format!("\"{}\"", pr.remote),
            );
            return Err(e.into());
        };
        pr.peer = r.nodes.len() as u32;
        names.insert(k, pr.peer);
        made_up += 1;
        r.nodes.push(NodeRec {
            kind,
            id: pr.remote,
            line_off: pr.line_off,
            line_len: pr.line_len,
            num_ports: port.max(1),
            desc: line.and_then(|l| l.peer_desc).unwrap_or(""),
            guid,
            port0_guid: None,
            vendor_id: None,
            device_id: None,
            sysimg_guid: None,
            lid: None,
            lmc: None,
            enhanced: None,
            placeholder: true,
        });
    }
    Ok(made_up)
}
