//! Division by a run-time constant without a divide instruction: the
//! Dmodc formulas divide every destination index by the same Π per port
//! group, once per (switch, LID) on the per-LID path.

/// Exact division by a constant for numerators below 2^17 (node indices are
/// below 2^17 since LIDs are 16-bit): `x / v = (x · ⌈2^40 / v⌉) >> 40`,
/// exact because x · (⌈2^40/v⌉·v − 2^40) < 2^17 · 2^17 < 2^40.
#[derive(Clone, Copy, Debug)]
pub struct FastDiv {
    m: u64,
}

impl FastDiv {
    /// Divider `v` (>= 1). Values above 2^17 act as 2^17: every quotient of
    /// a numerator below 2^17 is 0 either way.
    pub fn new(v: u64) -> FastDiv {
        let v = v.clamp(1, 1 << 17);
        FastDiv {
            m: (1u64 << 40).div_ceil(v),
        }
    }

    #[inline]
    pub fn quot(self, x: u32) -> u32 {
        ((x as u64 * self.m) >> 40) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::FastDiv;

    #[test]
    fn fast_division_is_exact_below_2_pow_17() {
        for v in (1..=300u64).chain([
            1000,
            4096,
            65_535,
            1 << 16,
            131_071,
            1 << 17,
            1 << 20,
            u64::MAX,
        ]) {
            let f = FastDiv::new(v);
            for x in (0..1u32 << 17).step_by(7).chain([(1 << 17) - 1]) {
                assert_eq!(f.quot(x) as u64, x as u64 / v, "{x} / {v}");
            }
        }
    }
}
