//! The emit stage: writes forwarding tables and reports in the formats of
//! `formats/`.

pub mod ibnetdiscover;
pub mod opensm;
