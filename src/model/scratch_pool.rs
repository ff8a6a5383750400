//! Scratch shared by the tasks of a parallel pass, one per task running.
//!
//! Why: rayon's `fold` and `map_init` make a fresh accumulator or scratch
//! for every piece they split off (and `reduce` one more per join), so a
//! pass over a few hundred LFT blocks on 2 threads made 16–17 of them,
//! each of a megabyte or so faulted in, then merged or dropped (issues 13
//! and 17). Here a task takes a scratch from the pool and puts it back:
//! there are as many as tasks ran at once, whatever the splitting. What a
//! task computes must not depend on which scratch it got (scratch that is
//! reset, or results merged by a commutative rule), so the output does not
//! depend on the thread count either.

use std::sync::{Mutex, MutexGuard};

/// Free scratch values, taken and given back by the tasks of one pass.
pub struct ScratchPool<T> {
    free: Mutex<Vec<T>>,
}

impl<T> Default for ScratchPool<T> {
    fn default() -> Self {
        ScratchPool {
            free: Mutex::new(Vec::new()),
        }
    }
}

impl<T> ScratchPool<T> {
    /// Runs `f` on a free scratch, made by `make` when none is free, and
    /// gives it back.
    pub fn with<R>(&self, make: impl FnOnce() -> T, f: impl FnOnce(&mut T) -> R) -> R {
        let taken = self.lock().pop();
        let mut scratch = taken.unwrap_or_else(make);
        let r = f(&mut scratch);
        self.lock().push(scratch);
        r
    }

    /// Every scratch made, once the pass is over.
    pub fn into_inner(self) -> Vec<T> {
        self.free.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// The free list. It is locked only for a `pop` or a `push`, never
    /// while a task works; were it poisoned, the list would still be whole.
    fn lock(&self) -> MutexGuard<'_, Vec<T>> {
        self.free.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    /// On 2 threads, 500 tasks make at most 2 scratch values, and every
    /// task's work lands in one of them.
    #[test]
    fn as_many_scratch_values_as_tasks_run_at_once() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let scratch = ScratchPool::<Vec<u32>>::default();
        pool.install(|| {
            (0..500u32)
                .into_par_iter()
                .for_each(|i| scratch.with(Vec::new, |v| v.push(i)));
        });
        let made = scratch.into_inner();
        assert!((1..=2).contains(&made.len()), "{} made", made.len());
        let mut all: Vec<u32> = made.into_iter().flatten().collect();
        all.sort_unstable();
        assert_eq!(all, (0..500).collect::<Vec<_>>());
    }
}
