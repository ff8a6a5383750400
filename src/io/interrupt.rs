//! SIGINT and SIGTERM: remove routec's temporary files, let a commit in
//! progress finish, then exit 130 or 143 (issue 11, item 6;
//! `formats/output-directory.md`, "Signals").
//!
//! Without a handler the kernel ends routec at once: unnamed (`O_TMPFILE`)
//! files vanish with it, but a named `.routec-…` file (the one being
//! renamed in a commit, or every temporary file where `O_TMPFILE` is not
//! available, or `write_atomic`'s for `gen -o`) stays, and a kill inside
//! the commit leaves a marked mix of two runs. So [`install`] starts a
//! thread that waits for the two signals (signal-hook's iterator: the
//! real handler only writes to a pipe, no `unsafe` here). On a signal it
//! takes the commit lock — waiting while [`critical`] holds it, which is
//! for the few renames of a commit — removes every named temporary file
//! still [`track`]ed, and exits with 128 + the signal number. SIGKILL
//! cannot be caught: what it leaves the next run removes
//! (`emit::staged_file::sweep_temps`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Held while outputs are being replaced; the signal thread takes it
/// before it exits, so a signal never lands between two renames.
static COMMIT: Mutex<()> = Mutex::new(());

/// Named temporary files this process created and may not have renamed
/// or removed yet.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Poison only means a panic elsewhere; the data (a list, a unit) is fine.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts the signal thread (once per process; later calls do nothing).
/// Failing to install it is not an error: the kernel's default (end at
/// once) is what routec did before, and the next run cleans up.
pub fn install() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGINT, SIGTERM};
            if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) {
                let _ = std::thread::Builder::new()
                    .name("routec-signals".into())
                    .spawn(move || {
                        if let Some(sig) = signals.forever().next() {
                            exit_on(sig);
                        }
                    });
            }
        }
    });
}

/// The signal that arrived, 0 before any: a commit that finishes while
/// one waits ends the process itself, so that the main thread does not
/// race on to a clean exit 0.
static PENDING: AtomicI32 = AtomicI32::new(0);

/// Ends the process for signal `sig`: after any commit in progress,
/// before another can start.
fn exit_on(sig: i32) -> ! {
    PENDING.store(sig, Ordering::SeqCst);
    let _commit = lock(&COMMIT);
    finish(sig)
}

/// Removes the tracked files and exits 128 + `sig` (the caller holds the
/// commit lock).
fn finish(sig: i32) -> ! {
    let removed = remove_tracked();
    let name = match sig {
        2 => "SIGINT",
        15 => "SIGTERM",
        _ => "a signal",
    };
    eprintln!("routec: interrupted by {name}; {removed} temporary file(s) removed");
    std::process::exit(128 + sig)
}

/// Runs `f` (the replacing part of a commit) with signals held off: a
/// SIGINT or SIGTERM arriving meanwhile takes effect when `f` returns
/// (whether it succeeded or failed: the exit code is the signal's).
pub fn critical<R>(f: impl FnOnce() -> R) -> R {
    let _commit = lock(&COMMIT);
    let r = f();
    match PENDING.load(Ordering::SeqCst) {
        0 => r,
        sig => finish(sig),
    }
}

/// Records a named temporary file for removal on a signal. Entries whose
/// file is gone (renamed over an output, or dropped) are forgotten here,
/// so the list stays as short as the files alive.
pub fn track(path: &Path) {
    let mut temps = lock(&TEMPS);
    temps.retain(|p| p.symlink_metadata().is_ok());
    temps.push(path.to_path_buf());
}

/// Removes the tracked files still there; their count.
fn remove_tracked() -> usize {
    let temps = std::mem::take(&mut *lock(&TEMPS));
    temps
        .iter()
        .filter(|p| std::fs::remove_file(p).is_ok())
        .count()
}
