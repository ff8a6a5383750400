//! Sorted unions of switch lists, for the `spread` variant's nominal sets
//! ([`super::spread::Nominal`]).

/// Sorted unions of switch lists: a stamp per switch marks the members
/// already taken, so only the union itself is sorted (issue 17: sorting
/// every list's concatenation, up to 48 × 24 entries per switch on the
/// 27,648-host RLFT, was 4 % of the whole compile).
pub(super) struct Union {
    stamp: Vec<u32>,
    round: u32,
}

impl Union {
    pub(super) fn new(n: usize) -> Union {
        Union {
            stamp: vec![0; n],
            round: 0,
        }
    }

    /// The members of `lists`, ascending, each once.
    pub(super) fn of<'a>(&mut self, lists: impl Iterator<Item = &'a [u32]>) -> Vec<u32> {
        self.round += 1;
        let mut set = Vec::new();
        for &x in lists.flatten() {
            let mark = &mut self.stamp[x as usize];
            if *mark != self.round {
                *mark = self.round;
                set.push(x);
            }
        }
        set.sort_unstable();
        set
    }
}

#[cfg(test)]
mod tests {
    use super::Union;

    /// The stamped union is the sorted, deduplicated concatenation (the
    /// oracle: sort + dedup), call after call on one reused stamp array.
    #[test]
    fn union_is_sorted_dedup_of_the_concatenation() {
        let mut u = Union::new(40);
        let cases: [&[&[u32]]; 5] = [
            &[],
            &[&[3, 1, 2]],
            &[&[5, 9], &[9, 5, 1], &[], &[39, 0]],
            &[&[7, 7, 7], &[7]],
            &[&[1, 2, 3], &[3, 2, 1], &[20, 10, 30]],
        ];
        for lists in cases {
            let mut want: Vec<u32> = lists.concat();
            want.sort_unstable();
            want.dedup();
            assert_eq!(u.of(lists.iter().copied()), want, "{lists:?}");
        }
    }
}
