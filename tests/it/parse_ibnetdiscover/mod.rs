//! The ibnetdiscover / ibsim reader and writer: every fixture, hand-counted
//! summaries, field values, each malformed-input class, round trips through
//! the writer, the spec examples, and a no-panic property.

mod fields;
mod fixtures;
mod malformed;
mod no_panic;
mod writer;

use std::path::{Path, PathBuf};

use routec::parse::{self, LoadOptions, Loaded, TopoFormat};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

fn load(rel: &str) -> Loaded {
    let opts = LoadOptions {
        lenient: rel.contains("lenient"),
        ..Default::default()
    };
    parse::load_topology(&fixture(rel), &opts).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn load_err(rel: &str) -> routec::Error {
    parse::load_topology(&fixture(rel), &LoadOptions::default()).expect_err(rel)
}

/// Every ibnetdiscover/ibsim fixture that must load.
fn good_fixtures() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["real", "ibnetdiscover"] {
        for e in std::fs::read_dir(fixture(dir)).unwrap() {
            let name = e.unwrap().file_name().into_string().unwrap();
            if !name.ends_with(".md") {
                out.push(format!("{dir}/{name}"));
            }
        }
    }
    out.sort();
    out
}

fn parse_str(text: &str, format: Option<TopoFormat>, lenient: bool) -> routec::Result<Loaded> {
    parse::parse_topology("t", text, &LoadOptions { format, lenient })
}
