//! The one integration-test crate: every file in `tests/it/` is a module
//! of it, so the suite links one binary instead of one per file.

mod common;
mod doc_blocks;
mod fabric_eq;
mod fuzz;

mod check_cli;
mod convert;
mod diff;
mod diff_plan;
mod dmodc;
mod dmodc_balance;
mod dmodc_escape;
mod dmodc_escape_lengths;
mod dmodc_lmc;
mod faults;
mod generators;
mod guid_files;
mod hardening;
mod hardening_exit_codes;
mod hardening_formats;
mod hardening_outdir;
mod hardening_signals;
mod ibdmchk;
mod ibdmchk_vl;
mod image;
mod incremental;
mod info;
mod layers;
mod mcast;
mod mcast_check;
mod mcast_diff;
mod opensm_identity;
mod opensm_live;
mod opensm_vl;
mod outputs;
mod parse_ibnetdiscover;
mod pgft;
mod pins;
mod quality;
mod shell_docs;
mod sssp;
mod verify;
mod vl_layering;
mod vtftr;
mod yaml_topology;
