//! Findings as data (the ruff model, style-and-ecosystem.md §1.2): every
//! check yields [`Finding`]s with a stable [`Code`]; rendering is shared.
//! `formats/findings.md` documents each code with an example.

use std::fmt;

use serde::Serialize;

use crate::model::{Guid, Lid, PortNum};

/// Stable finding codes. Numbers never change meaning once released.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Code {
    /// A CA LID is not reached from a source switch (dead end).
    V001,
    /// A route toward a LID runs in a circle (routing loop).
    V002,
    /// A route is longer than the hop limit.
    V003,
    /// A switch LID is not reached from some switch (management routes).
    V004,
    /// A route takes a down link and then an up link.
    V010,
    /// The channel dependency graph has a cycle (credit loop, deadlock).
    V020,
    /// A used hop's SL2VL entry is VL 15: its packets are dropped.
    V021,
    /// A used hop is on a VL beyond its port's operational data VLs.
    V022,
    /// A multicast group has no MLID (colour table or groups file).
    V030,
    /// A multicast member's switch has no MFT entry for it.
    V031,
    /// A multicast member is cut off from its group's other members.
    V032,
    /// A multicast tree has a cycle (packets loop or arrive twice).
    V033,
    /// An MFT port leads to a switch whose entry does not lead back.
    V034,
    /// An MFT port delivers a group's packets to a non-member.
    V035,
    /// Two multicast trees not merged on purpose are joined on one MLID.
    V036,
}

impl Code {
    /// Every code, in order.
    pub const ALL: [Code; 15] = [
        Code::V001,
        Code::V002,
        Code::V003,
        Code::V004,
        Code::V010,
        Code::V020,
        Code::V021,
        Code::V022,
        Code::V030,
        Code::V031,
        Code::V032,
        Code::V033,
        Code::V034,
        Code::V035,
        Code::V036,
    ];

    /// The code as printed (`V001`).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::V001 => "V001",
            Code::V002 => "V002",
            Code::V003 => "V003",
            Code::V004 => "V004",
            Code::V010 => "V010",
            Code::V020 => "V020",
            Code::V021 => "V021",
            Code::V022 => "V022",
            Code::V030 => "V030",
            Code::V031 => "V031",
            Code::V032 => "V032",
            Code::V033 => "V033",
            Code::V034 => "V034",
            Code::V035 => "V035",
            Code::V036 => "V036",
        }
    }

    /// A short name for summaries.
    pub fn title(self) -> &'static str {
        match self {
            Code::V001 => "unreachable",
            Code::V002 => "routing-loop",
            Code::V003 => "hop-limit",
            Code::V004 => "switch-lid-unreachable",
            Code::V010 => "up-down-violation",
            Code::V020 => "credit-loop",
            Code::V021 => "sl2vl-drop",
            Code::V022 => "vl-beyond-operational",
            Code::V030 => "mcast-no-mlid",
            Code::V031 => "mcast-member-without-entry",
            Code::V032 => "mcast-member-cut-off",
            Code::V033 => "mcast-loop",
            Code::V034 => "mcast-one-way-port",
            Code::V035 => "mcast-stray-delivery",
            Code::V036 => "mcast-trees-joined",
        }
    }

    /// How bad it is. Switch LIDs with no route are a warning: up/down and
    /// ftree leave them out by design (OpenSM current-routing.txt).
    pub fn severity(self) -> Severity {
        match self {
            Code::V004 => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Errors make `check` exit 1; warnings are printed only.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One step of a route or cycle: a switch, the port the packet came in on
/// (if known), the port it leaves by, and the VL of the outgoing channel.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize)]
pub struct Hop {
    pub switch: Guid,
    /// NodeDescription of the switch, for people.
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_port: Option<PortNum>,
    pub out_port: PortNum,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vl: Option<u8>,
}

/// One verification finding.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize)]
pub struct Finding {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// Destination LIDs involved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lids: Vec<Lid>,
    /// Switches involved (sources, dead ends), by node GUID.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<Guid>,
    /// The route, loop or cycle, hop by hop.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hops: Vec<Hop>,
}

impl Finding {
    /// A finding of `code` with its default severity.
    pub fn new(code: Code, message: String) -> Self {
        Finding {
            code,
            severity: code.severity(),
            message,
            lids: Vec::new(),
            switches: Vec::new(),
            hops: Vec::new(),
        }
    }
}

impl fmt::Display for Finding {
    /// Ruff-style: `V020 error: message`, then one `-->` line per hop.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(f, "{} {sev}: {}", self.code, self.message)?;
        for h in &self.hops {
            write!(f, "  --> {} {:?}", h.switch, h.name)?;
            if let Some(p) = h.in_port {
                write!(f, " in {p}")?;
            }
            write!(f, " out {}", h.out_port)?;
            if let Some(vl) = h.vl {
                write!(f, " VL {vl}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
