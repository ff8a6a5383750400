//! The mutations of the reader fuzz harness: byte-level edits that real
//! damage and hostile inputs make (flipped bits, cut files, repeated or
//! swapped lines, numbers at and past their limits, control bytes, YAML
//! aliases), stacked one to four deep, from a seeded ChaCha stream so that
//! every failure replays from its (reader, seed, run) triple.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Tokens that sit on a limit of some reader.
const TOKENS: &[&str] = &[
    "0",
    "-1",
    "255",
    "256",
    "65535",
    "65536",
    "49151",
    "49152",
    "0xffff",
    "0xc000",
    "0xffffffffffffffff",
    "18446744073709551616",
    "0x0",
    "0x",
    "99999999999999999999999",
    "\r",
    "\r\n",
    "\0",
    "\t",
    "\u{1b}[2J",
    "\u{7}",
    "---\n",
    "&a [*a, *a, *a]",
    "*a",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "#",
    ":",
    "/",
    "lmc 8",
    "lmc 255",
    "Switch",
    "Ca",
    "Hca",
    "port 0",
    "lid",
    "ports: 0",
    "\u{feff}",
    "é",
    "\u{fffd}",
];

/// Bytes that change a parser's path when they land in the right place.
const BYTES: &[u8] = b"\x00\xff\n\r \t#-09x:/[]{}\"',.;\x1b\x7f";

/// `seed` mutated by run `run` of `stream`; `others` are the other seeds of
/// the same reader (for splices).
pub fn mutate(seed: &[u8], others: &[Vec<u8>], stream: u64, run: u64) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(stream.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ run);
    let mut b = seed.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        one(&mut b, others, &mut rng);
    }
    b
}

fn pos(rng: &mut ChaCha8Rng, len: usize) -> usize {
    if len == 0 {
        0
    } else {
        rng.random_range(0..=len)
    }
}

fn one(b: &mut Vec<u8>, others: &[Vec<u8>], rng: &mut ChaCha8Rng) {
    let len = b.len();
    match rng.random_range(0..10) {
        0 if len > 0 => {
            let i = rng.random_range(0..len);
            b[i] ^= 1 << rng.random_range(0..8);
        }
        1 if len > 0 => {
            let i = rng.random_range(0..len);
            b[i] = BYTES[rng.random_range(0..BYTES.len())];
        }
        2 => {
            let i = pos(rng, len);
            let n = rng.random_range(0..=64).min(len - i);
            b.drain(i..i + n);
        }
        3 => {
            let i = pos(rng, len);
            let n = rng.random_range(0..=256).min(len - i);
            let piece = b[i..i + n].to_vec();
            let at = pos(rng, b.len());
            b.splice(at..at, piece);
        }
        4 | 5 => {
            let t = TOKENS[rng.random_range(0..TOKENS.len())].as_bytes();
            let at = pos(rng, len);
            if rng.random_bool(0.5) {
                // replace the number or word there
                let end = (at..len)
                    .find(|&j| !b[j].is_ascii_alphanumeric())
                    .unwrap_or(len);
                b.splice(at..end, t.iter().copied());
            } else {
                b.splice(at..at, t.iter().copied());
            }
        }
        6 => b.truncate(pos(rng, len)),
        7 if !others.is_empty() => {
            let o = &others[rng.random_range(0..others.len())];
            let i = pos(rng, o.len());
            let n = rng.random_range(0..=512).min(o.len() - i);
            let at = pos(rng, len);
            let end = (at + n).min(len);
            b.splice(at..end, o[i..i + n].iter().copied());
        }
        8 => repeat_or_swap_lines(b, rng),
        _ if len >= 16 => {
            // a little-endian field of a binary header: 0, 1, 63, 64, the
            // length, all ones
            let at = rng.random_range(0..len.min(168) - 8);
            let v: u64 =
                [0, 1, 63, 64, len as u64, u64::MAX, u32::MAX as u64][rng.random_range(0..7)];
            let w = if rng.random_bool(0.5) { 8 } else { 4 };
            b[at..at + w].copy_from_slice(&v.to_le_bytes()[..w]);
        }
        _ => {}
    }
}

/// A line repeated (duplicates: a switch twice, a LID twice) or two lines
/// swapped (order a reader may rely on).
fn repeat_or_swap_lines(b: &mut Vec<u8>, rng: &mut ChaCha8Rng) {
    let mut lines: Vec<Vec<u8>> = b
        .split_inclusive(|&c| c == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    if lines.is_empty() {
        return;
    }
    let i = rng.random_range(0..lines.len());
    let j = rng.random_range(0..lines.len());
    if rng.random_bool(0.5) {
        let l = lines[i].clone();
        lines.insert(j, l);
    } else {
        lines.swap(i, j);
    }
    *b = lines.concat();
}
