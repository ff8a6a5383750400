//! The no-panic property: random bytes and mutated fixtures, read in every
//! format, strict and lenient.

use proptest::prelude::*;
use routec::model::summary::FabricSummary;
use routec::parse::TopoFormat;

use super::writer::write;
use super::{fixture, parse_str};

fn mutate(lines: &[&str], ops: &[(u8, usize, usize, u8)]) -> String {
    let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    for &(op, i, j, byte) in ops {
        if v.is_empty() {
            break;
        }
        let i = i % v.len();
        match op % 4 {
            0 => {
                v.remove(i);
            }
            1 => {
                let l = v[i].clone();
                v.insert(j % (v.len() + 1), l);
            }
            2 => {
                let mut b = v[i].clone().into_bytes();
                if !b.is_empty() {
                    let k = j % b.len();
                    b[k] = byte;
                }
                v[i] = String::from_utf8_lossy(&b).into_owned();
            }
            _ => {
                let cut = j % (v[i].len() + 1);
                let cut = (0..=cut)
                    .rev()
                    .find(|&c| v[i].is_char_boundary(c))
                    .unwrap_or(0);
                v[i].truncate(cut);
            }
        }
    }
    v.join("\n")
}

fn no_panic(text: &str) {
    for format in [
        None,
        Some(TopoFormat::Ibnetdiscover),
        Some(TopoFormat::Ibsim),
    ] {
        for lenient in [false, true] {
            if let Ok(l) = parse_str(text, format, lenient) {
                let _ = FabricSummary::of(&l.fabric);
                let _ = write(&l.fabric);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        no_panic(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_fixtures_never_panic(
        which in 0usize..3,
        ops in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<usize>(), any::<u8>()), 1..8),
    ) {
        let rel = ["ibnetdiscover/tiny.ibnetdiscover", "ibnetdiscover/ibsim-directives.ibsim.net",
                   "real/manpage-voltaire-2007.ibnetdiscover"][which];
        let text = std::fs::read_to_string(fixture(rel)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        no_panic(&mutate(&lines, &ops));
    }
}
