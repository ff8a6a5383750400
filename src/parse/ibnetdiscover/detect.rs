//! Format detection by content (`formats/ibnetdiscover.md` § Detection).
//!
//! 1. ibsim: a node header uses the `Hca` keyword, or quotes an id that is
//!    not an ibnetdiscover name (`S-`, `H-`, `R-`, `?-` then anything).
//! 2. YAML: the first line that is neither blank nor a `#` comment is `---`
//!    or a mapping key (`switches:`, `name: x`: an identifier directly
//!    followed by `:`), and no line is a node header (`Switch 8 "…"`), so
//!    an `ibwarn:` line atop a topology does not make it YAML.
//! 3. Otherwise ibnetdiscover (the names carry the GUIDs).

use rayon::prelude::*;

use crate::parse::TopoFormat;

/// Guesses the topology format of `text`.
pub fn detect(text: &str) -> TopoFormat {
    let yaml_first = text
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}').trim())
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(looks_like_yaml);
    // Which header is found first does not matter (any ibsim header makes
    // the file ibsim), so pieces of whole lines are scanned in parallel
    // (issue 17: this was a serial pass over the 12.8 MB of the RLFT).
    let scans: Vec<Scan> = pieces(text, SCAN_PIECE)
        .into_par_iter()
        .map(scan_headers)
        .collect();
    if scans.contains(&Scan::Ibsim) {
        return TopoFormat::Ibsim;
    }
    let has_header = scans.contains(&Scan::Header);
    if yaml_first && !has_header {
        TopoFormat::Yaml
    } else {
        TopoFormat::Ibnetdiscover
    }
}

/// Bytes per piece of the header scan.
const SCAN_PIECE: usize = 1 << 20;

/// What a piece's node headers say.
#[derive(PartialEq)]
enum Scan {
    None,
    Header,
    Ibsim,
}

/// `text` cut after line feeds into pieces of about `step` bytes.
fn pieces(text: &str, step: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while rest.len() > step {
        match rest.as_bytes()[step..].iter().position(|&b| b == b'\n') {
            Some(i) => {
                let (a, b) = rest.split_at(step + i + 1);
                out.push(a);
                rest = b;
            }
            None => break,
        }
    }
    out.push(rest);
    out
}

fn scan_headers(text: &str) -> Scan {
    let mut found = Scan::None;
    for l in text.lines().filter(|l| may_be_header(l)) {
        let l = l.trim_start_matches('\u{feff}').trim();
        if l.starts_with("Hca")
            && l[3..].starts_with(|c: char| c.is_ascii_whitespace() || c.is_ascii_digit())
        {
            return Scan::Ibsim;
        }
        let header = ["Switch", "Ca", "Rt"].iter().any(|kw| {
            l.strip_prefix(kw).is_some_and(|r| {
                r.starts_with(|c: char| c.is_ascii_whitespace() || c.is_ascii_digit())
            })
        });
        if header && let Some(id) = l.split('"').nth(1) {
            found = Scan::Header;
            let b = id.as_bytes();
            let ibnd_name =
                b.len() > 2 && matches!(b[0], b'S' | b'H' | b'R' | b'?') && b[1] == b'-';
            if !ibnd_name {
                return Scan::Ibsim;
            }
        }
    }
    found
}

/// Whether a raw line may start with a node header keyword once trimmed:
/// its first byte that is not ASCII blank is `H`, `S`, `C`, `R` or not
/// ASCII (a BOM or other Unicode blank, which `trim` also cuts). Port
/// lines (`[`) and comments, most of a file, are passed over without
/// trimming (issue 17: the scan was a serial pass over every line).
fn may_be_header(raw: &str) -> bool {
    raw.bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c))
        .is_some_and(|b| !b.is_ascii() || matches!(b, b'H' | b'S' | b'C' | b'R'))
}

fn looks_like_yaml(line: &str) -> bool {
    if line == "---" || line.starts_with("--- ") {
        return true;
    }
    let key_len = line
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-')
        .count();
    key_len > 0
        && line[key_len..].starts_with(':')
        && line[key_len + 1..]
            .chars()
            .next()
            .is_none_or(|c| c == ' ' || c == '\t')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_ibsim_ibnetdiscover() {
        assert_eq!(
            detect("# a fabric\nswitches:\n  - name: s1\n"),
            TopoFormat::Yaml
        );
        assert_eq!(detect("---\nswitches: []\n"), TopoFormat::Yaml);
        assert_eq!(
            detect("Switch\t8 \"Switch1\"\n[1]\t\"h1\"[1]\n"),
            TopoFormat::Ibsim
        );
        assert_eq!(detect("Hca\t2 \"H-0000000000000001\"\n"), TopoFormat::Ibsim);
        let ibnd =
            "#\n# Topology file\nvendid=0x2c9\nSwitch\t8 \"S-0000000000000001\"\t\t# \"s\"\n";
        assert_eq!(detect(ibnd), TopoFormat::Ibnetdiscover);
        assert_eq!(
            detect("Switch 8 \"S-9c05<redacted>\"\n"),
            TopoFormat::Ibnetdiscover
        );
        // A terminal log: the prompt is not a YAML key (space before `:`).
        assert_eq!(
            detect("user@host:~$ ibnetdiscover\nSwitch 8 \"S-01\"\n"),
            TopoFormat::Ibnetdiscover
        );
        assert_eq!(
            detect("ibwarn: timeout\nSwitch 8 \"S-01\"\n"),
            TopoFormat::Ibnetdiscover
        );
    }

    #[test]
    fn headers_after_any_blank_are_still_seen() {
        // Blanks that `trim` cuts before a keyword: vertical tab, form
        // feed, NBSP, a BOM; the pre-check must not pass over these lines.
        for lead in ["\u{b}", "\u{c}", "\u{a0}", "\u{feff}", " \t"] {
            let hca = format!("# net\n{lead}Hca\t2 \"H-0000000000000001\"\n");
            assert_eq!(detect(&hca), TopoFormat::Ibsim, "{lead:?}");
            let free = format!("{lead}Switch 8 \"Switch1\"\n[1] \"h1\"[1]\n");
            assert_eq!(detect(&free), TopoFormat::Ibsim, "{lead:?}");
        }
        // A header shape after another first byte is no header.
        assert_eq!(detect("x Hca 2 \"h\"\n"), TopoFormat::Ibnetdiscover);
        assert_eq!(
            detect("# Switch 8 \"Switch1\"\n"),
            TopoFormat::Ibnetdiscover
        );
        assert_eq!(detect("[1] \"Switch1\"[1]\n"), TopoFormat::Ibnetdiscover);
        // `name: x` then a header further down that the pre-check must see.
        let yamlish = "name: x\n\u{a0}Switch 8 \"S-01\"\n";
        assert_eq!(detect(yamlish), TopoFormat::Ibnetdiscover);
        assert!(!may_be_header("  [3]\t\"S-01\"[1]"));
        // An ibsim header in a later piece of a long file is still seen.
        let long = format!(
            "{}Switch 2 \"S-01\"\n[1] \"H-02\"[1]\n",
            "# padding line\n".repeat(3 * SCAN_PIECE / 15)
        );
        assert_eq!(detect(&long), TopoFormat::Ibnetdiscover);
        assert_eq!(
            detect(&format!("{long}Switch 2 \"Sw\"\n")),
            TopoFormat::Ibsim
        );
        assert!(may_be_header("\r\u{b}Rt 2 \"R-01\""));
    }
}
