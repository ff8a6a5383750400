//! Active link width and speed, as ibnetdiscover prints them (`4xHDR`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// LinkWidthActive.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum Width {
    X1,
    X2,
    X4,
    X8,
    X12,
    /// `??`, or not given in the input.
    #[default]
    Unknown,
}

/// LinkSpeedActive (with the extended speeds).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum Speed {
    Sdr,
    Ddr,
    Qdr,
    Fdr10,
    Fdr,
    Edr,
    Hdr,
    Ndr,
    Xdr,
    /// `???`, or not given in the input.
    #[default]
    Unknown,
}

impl Width {
    /// Parses `1x`, `4x`, ..., `??`.
    pub fn parse(s: &str) -> Option<Width> {
        Some(match s {
            "1x" => Width::X1,
            "2x" => Width::X2,
            "4x" => Width::X4,
            "8x" => Width::X8,
            "12x" => Width::X12,
            "??" => Width::Unknown,
            _ => return None,
        })
    }
}

impl Speed {
    /// Parses `SDR`, ..., `XDR`, `???`.
    pub fn parse(s: &str) -> Option<Speed> {
        Some(match s {
            "SDR" => Speed::Sdr,
            "DDR" => Speed::Ddr,
            "QDR" => Speed::Qdr,
            "FDR10" => Speed::Fdr10,
            "FDR" => Speed::Fdr,
            "EDR" => Speed::Edr,
            "HDR" => Speed::Hdr,
            "NDR" => Speed::Ndr,
            "XDR" => Speed::Xdr,
            "???" => Speed::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for Width {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Width::X1 => "1x",
            Width::X2 => "2x",
            Width::X4 => "4x",
            Width::X8 => "8x",
            Width::X12 => "12x",
            Width::Unknown => "??",
        })
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Speed::Sdr => "SDR",
            Speed::Ddr => "DDR",
            Speed::Qdr => "QDR",
            Speed::Fdr10 => "FDR10",
            Speed::Fdr => "FDR",
            Speed::Edr => "EDR",
            Speed::Hdr => "HDR",
            Speed::Ndr => "NDR",
            Speed::Xdr => "XDR",
            Speed::Unknown => "???",
        })
    }
}
