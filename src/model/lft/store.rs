//! The bytes behind [`super::Lfts`]: a plain vector, or — for tables of
//! several megabytes — an anonymous mapping advised to use transparent huge
//! pages (issue 17).
//!
//! Why: the 27,648-host RLFT's 88 MB of tables are written once, on fresh
//! pages, and on this class of machine (a VM, `transparent_hugepage` in
//! `madvise` mode) the 21,500 first-touch faults of 4 KB pages cost more
//! than the route formulas that fill them (profile of issue 17: ~100 ms of
//! kernel time for one pass over 88 MB, against ~35 ms on 2 MB pages).
//! Huge pages are only advice: where the kernel has none to give, or
//! mapping fails, the bytes are the same and only the speed differs.
//! `memmap2`'s `map_anon` and `advise(HugePage)` are safe calls: no
//! `unsafe` here.

use memmap2::{Advice, MmapMut};

/// Below this, a vector (a mapping's fixed cost is not worth it).
const MAPPED_FROM: usize = 4 << 20;

/// Table bytes, one contiguous block.
pub(super) enum Store {
    Heap(Vec<u8>),
    Mapped(MmapMut),
}

impl Store {
    /// `len` bytes, all `value`. Large stores of 0 are fresh pages that
    /// nothing has touched yet (the kernel zeroes them on first touch), so
    /// a parallel filler faults them in on its own threads.
    pub(super) fn filled(len: usize, value: u8) -> Store {
        if len >= MAPPED_FROM {
            if let Ok(mut map) = MmapMut::map_anon(len) {
                // Advice only: an old kernel or THP "never" keeps 4 KB pages.
                let _ = map.advise(Advice::HugePage);
                if value != 0 {
                    map.fill(value);
                }
                return Store::Mapped(map);
            }
        }
        Store::Heap(vec![value; len])
    }
}

impl std::ops::Deref for Store {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Store::Heap(v) => v,
            Store::Mapped(m) => m,
        }
    }
}

impl std::ops::DerefMut for Store {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            Store::Heap(v) => v,
            Store::Mapped(m) => m,
        }
    }
}

impl Clone for Store {
    fn clone(&self) -> Store {
        Store::Heap(self.to_vec())
    }
}

impl PartialEq for Store {
    fn eq(&self, other: &Store) -> bool {
        **self == **other
    }
}

impl Eq for Store {}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both kinds hold `len` bytes of `value`, compare by content and
    /// clone to equal content, whichever side of the threshold.
    #[test]
    fn mapped_and_heap_stores_hold_the_same_bytes() {
        for len in [0, 1, 4095, MAPPED_FROM - 1, MAPPED_FROM, MAPPED_FROM + 4097] {
            for value in [0u8, 0xff] {
                let mut s = Store::filled(len, value);
                assert_eq!(
                    matches!(s, Store::Mapped(_)),
                    len >= MAPPED_FROM,
                    "len {len}"
                );
                assert_eq!(s.len(), len);
                assert!(s.iter().all(|&b| b == value), "len {len} value {value}");
                let heap = Store::Heap(vec![value; len]);
                assert_eq!(s, heap);
                if len > 0 {
                    s[len - 1] = 7;
                    assert_ne!(s, heap);
                    let c = s.clone();
                    assert_eq!(c, s);
                    assert_eq!(c[len - 1], 7);
                }
            }
        }
    }
}
