//! printf-style numbers appended to a byte buffer. The text outputs run to
//! hundreds of MB (`ibdmchk.psl` holds one line per CA and destination), and
//! `write!` spent most of their time in `core::fmt`'s padding and dispatch.

/// `%0<width>x` (lower case).
pub(super) fn push_hex(buf: &mut Vec<u8>, v: u64, width: usize) {
    push_hex_digits(buf, v, width, b"0123456789abcdef");
}

/// `%0<width>X` (upper case).
pub(super) fn push_hex_upper(buf: &mut Vec<u8>, v: u64, width: usize) {
    push_hex_digits(buf, v, width, b"0123456789ABCDEF");
}

fn push_hex_digits(buf: &mut Vec<u8>, v: u64, width: usize, digits: &[u8; 16]) {
    let len = (64 - v.leading_zeros() as usize)
        .div_ceil(4)
        .max(width)
        .max(1);
    for i in (0..len).rev() {
        let d = if i < 16 {
            (v >> (4 * i)) as usize & 0xf
        } else {
            0
        };
        buf.push(digits[d]);
    }
}

/// `%u`.
pub(super) fn push_dec(buf: &mut Vec<u8>, v: u64) {
    push_dec_zero(buf, v, 1);
}

/// `%0<width>u`.
pub(super) fn push_dec_zero(buf: &mut Vec<u8>, mut v: u64, width: usize) {
    let mut tmp = [b'0'; 20];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let start = i.min(tmp.len().saturating_sub(width));
    buf.extend_from_slice(&tmp[start..]);
}

/// `%-<width>u`: left-aligned, padded with spaces.
pub(super) fn push_dec_left(buf: &mut Vec<u8>, v: u64, width: usize) {
    let at = buf.len();
    push_dec(buf, v);
    let len = buf.len() - at;
    buf.resize(at + len.max(width), b' ');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each helper against `format!` with the printf spec it stands for.
    #[test]
    fn numbers_match_format() {
        for v in [
            0u64,
            1,
            9,
            10,
            15,
            16,
            99,
            100,
            255,
            999,
            4095,
            65535,
            13284,
            0x200000,
            u64::MAX,
        ] {
            for w in [0, 1, 2, 3, 4, 16] {
                let pushed = |f: fn(&mut Vec<u8>, u64, usize)| {
                    let mut b = Vec::new();
                    f(&mut b, v, w);
                    String::from_utf8(b).unwrap()
                };
                assert_eq!(pushed(push_hex), format!("{v:0w$x}"));
                assert_eq!(pushed(push_hex_upper), format!("{v:0w$X}"));
                assert_eq!(pushed(push_dec_zero), format!("{v:0w$}"));
                assert_eq!(pushed(push_dec_left), format!("{v:<w$}"));
            }
            let mut b = Vec::new();
            push_dec(&mut b, v);
            assert_eq!(String::from_utf8(b).unwrap(), v.to_string());
        }
    }
}
