//! Stage timings and the terminal spinner of long-running commands.

use super::common::Global;
use crate::emit::report::Timing;

/// Stage timings (`-v` prints them) and a progress spinner on a terminal.
pub struct Phases {
    verbose: bool,
    current: Option<(&'static str, std::time::Instant)>,
    timings: Vec<Timing>,
    bar: Option<indicatif::ProgressBar>,
    /// The command named in the spinner's message.
    command: &'static str,
}

impl Phases {
    pub fn new(g: &Global) -> Self {
        use std::io::IsTerminal;
        let bar = (!g.quiet && std::io::stderr().is_terminal()).then(|| {
            let b = indicatif::ProgressBar::new_spinner();
            b.enable_steady_tick(std::time::Duration::from_millis(120));
            b
        });
        Phases {
            verbose: g.verbose > 0 && !g.quiet,
            current: None,
            timings: Vec::new(),
            bar,
            command: "compile",
        }
    }

    /// The same, naming `command` in the spinner (`mcast: assign`).
    pub fn command(mut self, command: &'static str) -> Self {
        self.command = command;
        self
    }

    fn end(&mut self) {
        if let Some((stage, t0)) = self.current.take() {
            let ms = (t0.elapsed().as_secs_f64() * 1e6).round() / 1e3;
            if self.verbose {
                let line = format!("{stage}: {ms:.1} ms");
                match &self.bar {
                    Some(b) => b.println(line),
                    None => eprintln!("{line}"),
                }
            }
            self.timings.push(Timing {
                stage: stage.to_string(),
                ms,
            });
        }
    }

    pub fn begin(&mut self, stage: &'static str) {
        self.end();
        if let Some(b) = &self.bar {
            b.set_message(format!("{}: {stage}", self.command));
        }
        self.current = Some((stage, std::time::Instant::now()));
    }

    pub fn finish(mut self) -> Vec<Timing> {
        self.end();
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        if self.verbose
            && let Some(mb) = peak_mb()
        {
            eprintln!("peak memory: {mb:.1} MB");
        }
        self.timings
    }
}

/// The process's peak resident memory so far (`VmHWM`, in MB), where
/// `/proc` tells it: with the stage times, what a run costs (issue 17's
/// memory target is twice the tables; `benches/targets.rs` reads it here).
fn peak_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    let kb: f64 = kb.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb / 1024.0)
}
