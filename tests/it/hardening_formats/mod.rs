//! Hardening (issue 11, items 5, 14, 16, 23): format errors where findings
//! or parser jargon used to come out, and limits refused up front.
//!
//! One submodule per item, each test failing before its fix, so that the
//! old behaviour cannot come back unseen: a route image laid out wrong, too
//! many multicast groups, a fabric at the LID limit, errors in routec's
//! words. `bin` is the binary they all run.

mod errors;
mod lid_limit;
mod mlid_limit;
mod route_image;

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("routec")
}
