//! serde-saphyr's messages in routec's words (issue 11, item 23): a user
//! of `routec` should read "expected a whole number from 0 to 65535, found
//! `-1`", not "found invalid u16", and never an API name
//! (`from_str_multiple`) or a debug struct (`Nodes { nodes: 250001 }`).
//!
//! Also the reader's budget: serde-saphyr's defaults (250,000 nodes,
//! 1,000,000 events) refuse a fabric routec itself writes at a few
//! thousand hosts. The limits here grow with the document, so any fabric up
//! to the IB limits (49,151 LIDs) reads back, while alias bombs — the
//! expansion the budget exists for — stay bounded by the file's own size.

/// The budget for a document of `len` bytes. Every YAML node and event
/// takes at least one byte of the text, so `len`-proportional limits never
/// refuse a document for its size alone (the size is capped before, by
/// `ROUTEC_MAX_INPUT`); aliases, anchors and depth keep their defaults.
pub(crate) fn budget(len: usize) -> serde_saphyr::Budget {
    let mut b = serde_saphyr::Budget::default();
    b.max_nodes = b.max_nodes.max(len.saturating_add(64));
    b.max_events = b.max_events.max(len.saturating_mul(2).saturating_add(64));
    b.max_total_scalar_bytes = b.max_total_scalar_bytes.max(len);
    b
}

/// `(found, expected)` for a serde-saphyr message `msg` (its " at line …"
/// suffix cut); `span` is the text the error points at, `what` the kind
/// of document expected.
pub(crate) fn in_routec_words(msg: &str, span: &str, what: &str) -> (String, String) {
    let span = span.trim();
    let shown = if span.is_empty() {
        "nothing".to_string()
    } else {
        format!("`{span}`")
    };
    if let Some(ty) = msg.strip_prefix("invalid ")
        && let Some(words) = type_words(ty)
    {
        return (shown, words.to_string());
    }
    if msg.starts_with("multiple YAML documents") {
        return (
            "a second YAML document (a `---` line)".into(),
            format!("one document: {what}"),
        );
    }
    if let Some(breach) = msg.strip_prefix("budget breached: ") {
        return (breach_words(breach), what.to_string());
    }
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = msg.strip_prefix(prefix)
            && let Some((found, expected)) = rest.split_once(", expected ")
        {
            let expected = type_words(expected).map_or(expected.to_string(), str::to_string);
            return (
                found.replace("integer ", "").replace("string ", ""),
                expected,
            );
        }
    }
    match msg.split_once(", expected ") {
        Some((f, x)) => (f.to_string(), x.to_string()),
        None => (msg.to_string(), what.to_string()),
    }
}

/// Rust type names as a user reads them.
fn type_words(ty: &str) -> Option<&'static str> {
    Some(match ty.trim() {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "usize" => "a whole number from 0 to 18446744073709551615",
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "bool" | "a boolean" => "true or false",
        "char" => "a single character",
        _ => return None,
    })
}

/// A budget breach (`Depth { depth: 65 }`, …) in words.
fn breach_words(breach: &str) -> String {
    let kind = breach.split([' ', '{']).next().unwrap_or("");
    let what = match kind {
        "Depth" => "nesting deeper than routec reads (64 levels)",
        "Aliases" | "AliasAnchorRatio" => "more aliases (`*name`) than routec expands",
        "Anchors" => "more anchors (`&name`) than routec keeps",
        "Documents" => "more YAML documents than routec reads",
        "Nodes" | "Events" | "ScalarBytes" | "TotalScalarBytes" => {
            "more YAML than its size allows (an alias expanding too far)"
        }
        _ => "YAML beyond the limits routec reads",
    };
    what.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parser_words_become_routec_words() {
        let what = "a routec topology";
        assert_eq!(
            in_routec_words("invalid u16", "-1", what),
            ("`-1`".into(), "a whole number from 0 to 65535".into())
        );
        let (f, x) = in_routec_words(
            "multiple YAML documents detected; use from_str_multiple or from_str_multiple_with_options",
            "",
            what,
        );
        assert!(
            !f.contains("from_str") && !x.contains("from_str"),
            "{f} {x}"
        );
        let (f, _) = in_routec_words("budget breached: Depth { depth: 65 }", "", what);
        assert!(!f.contains('{'), "{f}");
        assert_eq!(
            in_routec_words("invalid type: string \"x\", expected u8", "x", what),
            ("\"x\"".into(), "a whole number from 0 to 255".into())
        );
    }
}
