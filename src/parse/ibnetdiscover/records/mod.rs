//! The first pass: node records with their port lines, all borrowed from
//! the text, and the GUID each node gets.
//!
//! ibnetdiscover names carry the node GUID (`"S-%016x"`, formats.md §0.6)
//! and `switchguid=`/`caguid=`/`rtguid=` repeat it. ibsim ids are free
//! text: there the GUID comes from a per-type base that `switchguid=` and
//! friends reset and each node advances (ibsim `sim_net.c`, formats.md §2).

use super::cursor::hex_u64;
use super::lines::{self, Directive, Line, PortLine};
use crate::error::{ParseError, Result};
use crate::model::{Guid, Lid, NodeKind, Speed, Width};

mod entries;

/// First GUID ibsim gives to CAs, switches and routers when the file sets none.
pub const IBSIM_GUID_BASE: [u64; 3] = [0x100000, 0x200000, 0x300000];

/// One node: from its own record, or (ibnetdiscover) made up from the
/// references to it when the file has no record for it.
#[derive(Debug)]
pub struct NodeRec<'a> {
    pub kind: NodeKind,
    pub id: &'a str,
    /// Offset of the header line (or of the first reference).
    pub line_off: usize,
    pub line_len: usize,
    pub num_ports: u8,
    pub desc: &'a str,
    pub guid: Guid,
    pub port0_guid: Option<Guid>,
    pub vendor_id: Option<u32>,
    pub device_id: Option<u32>,
    pub sysimg_guid: Option<Guid>,
    pub lid: Option<Lid>,
    pub lmc: Option<u8>,
    pub enhanced: Option<bool>,
    /// No record of its own: built from references.
    pub placeholder: bool,
}

/// [`PortRec::peer`] before the peer's name is resolved.
pub const NO_PEER: u32 = u32::MAX;

/// One port line of a record: what building the fabric reads of every
/// line. The whole [`PortLine`] was 168 bytes a line, 28 MB of records for
/// the 27,648-host RLFT, most of it page faults and copies (issue 17); the
/// columns of its fields, which only error messages want, and the peer's
/// attributes, which only nodes without a record want, are read again
/// from the line by [`Records::port_line`].
#[derive(Debug)]
pub struct PortRec<'a> {
    pub owner: u32,
    /// The peer's node index, once names are resolved.
    pub peer: u32,
    pub line_off: usize,
    pub line_len: usize,
    /// The peer's name.
    pub remote: &'a str,
    /// The GUID in the peer's name (ibnetdiscover files), parsed once.
    pub peer_guid: Option<Guid>,
    pub local_guid: Option<Guid>,
    pub local_lid: Option<(Lid, u8)>,
    pub port: u8,
    /// `None` when `[n]` is missing (ibsim: port 1).
    pub remote_port: Option<u8>,
    pub width: Width,
    pub speed: Speed,
}

impl<'a> PortRec<'a> {
    /// The line read again from `text` (the file's), for the fields a
    /// record leaves out (error columns, the peer's attributes). The text
    /// classified as this port line before, so it does again: `None`
    /// cannot happen, and callers fall back to the line's start.
    pub fn reread(&self, text: &'a str) -> Option<PortLine<'a>> {
        let line = text.get(self.line_off..self.line_off + self.line_len)?;
        match lines::classify(line) {
            Ok(Line::Port(p)) => Some(p),
            _ => None,
        }
    }
}

/// Directives waiting for the next node.
#[derive(Default)]
struct Pending {
    vendor_id: Option<u32>,
    device_id: Option<u32>,
    sysimg_guid: Option<Guid>,
    guid: [Option<u64>; 3],
    port0: Option<Guid>,
}

/// Everything read so far.
pub struct Records<'a> {
    pub file: &'a str,
    pub text: &'a str,
    pub ibsim: bool,
    pub nodes: Vec<NodeRec<'a>>,
    pub ports: Vec<PortRec<'a>>,
    current: Option<u32>,
    pending: Pending,
    ibsim_base: [u64; 3],
}

fn kind_slot(k: NodeKind) -> usize {
    match k {
        NodeKind::Ca => 0,
        NodeKind::Switch => 1,
        NodeKind::Router => 2,
    }
}

/// The node GUID encoded in an ibnetdiscover name (`S-`, `H-`, `R-`, `?-`).
/// `Some(Err(at))` when the name has the shape but not a valid GUID.
pub fn guid_of_name(id: &str) -> Option<std::result::Result<(NodeKind, Guid), ()>> {
    let b = id.as_bytes();
    if b.len() < 2 || b[1] != b'-' {
        return None;
    }
    let kind = match b[0] {
        b'S' => NodeKind::Switch,
        b'H' | b'?' => NodeKind::Ca,
        b'R' => NodeKind::Router,
        _ => return None,
    };
    // `Guid::parse`'s grammar (optional `0x`, 1 to 16 hex digits) in one pass
    let hex = &b[2..];
    let hex = hex
        .strip_prefix(b"0x")
        .or_else(|| hex.strip_prefix(b"0X"))
        .unwrap_or(hex);
    Some(hex_u64(hex).map(|g| (kind, Guid(g))).ok_or(()))
}

impl<'a> Records<'a> {
    pub fn new(file: &'a str, text: &'a str, ibsim: bool) -> Self {
        Records {
            file,
            text,
            ibsim,
            nodes: Vec::new(),
            ports: Vec::with_capacity(text.len() / 64),
            current: None,
            pending: Pending::default(),
            ibsim_base: IBSIM_GUID_BASE,
        }
    }

    /// Whether port lines would belong to a record now.
    pub fn in_record(&self) -> bool {
        self.current.is_some()
    }

    /// Closes the open record (a blank or foreign line ends it, as in ibsim).
    pub fn end_record(&mut self) {
        self.current = None;
    }

    pub fn error(
        &self,
        at: usize,
        len: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> ParseError {
        ParseError::at(self.file, self.text, at, len, expected, found)
    }

    /// The error for a node name `S-…`/`H-…` (at byte `at`) whose GUID
    /// part is not 1 to 16 hex digits.
    fn bad_name_guid(&self, at: usize, name: &str) -> ParseError {
        self.error(
            at + 2,
            name.len() - 2,
            "a GUID (1 to 16 hex digits)",
            format!("`{}`", &name[2..]),
        )
    }

    /// Takes one classified line starting at byte `off` (`len` bytes).
    pub fn line(&mut self, line: &Line<'a>, off: usize, len: usize) -> Result<()> {
        match line {
            Line::Blank | Line::Unknown => self.current = None,
            Line::Skip => {}
            Line::Directive(d) => {
                self.current = None;
                self.directive(d);
            }
            Line::Header(h) => self.header(h, off, len)?,
            Line::Port(p) => self.port(p, off, len)?,
            &Line::Unsupported(what) => {
                let e = self
                    .error(
                        off,
                        len,
                        "a topology line",
                        format!("the ibsim `{what}` directive"),
                    )
                    .with_help(format!(
                        "routec reads self-contained net files: `{what}` is not supported; \
                         expand it into plain records (see formats/ibsim-net.md)"
                    ));
                return Err(e.into());
            }
        }
        Ok(())
    }

    fn directive(&mut self, d: &Directive) {
        let p = &mut self.pending;
        match *d {
            Directive::VendId(v) => p.vendor_id = Some(v),
            Directive::DevId(v) => p.device_id = Some(v),
            Directive::SysImgGuid(g) => p.sysimg_guid = Some(g),
            Directive::NodeGuid {
                kind,
                value,
                relative,
                port0,
            } => {
                let slot = kind_slot(kind);
                if self.ibsim {
                    let base = &mut self.ibsim_base[slot];
                    *base = if relative {
                        base.wrapping_add(value)
                    } else {
                        value
                    };
                } else {
                    p.guid[slot] = Some(value);
                }
                if kind == NodeKind::Switch {
                    p.port0 = port0;
                }
            }
            Directive::Ignored => {}
        }
    }
}
