//! The emit stage: writes forwarding tables and reports in the formats of
//! `formats/`.

mod batched;
mod commit;
mod compare_writer;
mod digits;
mod early_sync;
pub mod fdbs;
pub mod ibnetdiscover;
pub mod image;
pub mod image_vl;
pub mod make_files;
pub mod mcast;
pub mod mcfdbs;
pub mod opensm;
pub mod outputs;
pub mod report;
mod stage_writer;
pub mod staged_file;
pub mod state;
pub mod vl;
pub mod yaml;
