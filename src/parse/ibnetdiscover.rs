//! ibnetdiscover text and ibsim net files (formats.md §1, §2).

use super::{Loaded, TopoFormat};
use crate::error::{Error, Result};

/// Parses ibnetdiscover or ibsim text.
pub fn parse(name: &str, text: &str, format: TopoFormat, lenient: bool) -> Result<Loaded> {
    let _ = (text, format, lenient);
    Err(Error::Usage(format!("{name}: the ibnetdiscover parser is not written yet")))
}

/// Detects YAML vs ibnetdiscover vs ibsim from the content.
pub fn detect(text: &str) -> TopoFormat {
    let _ = text;
    TopoFormat::Ibnetdiscover
}
