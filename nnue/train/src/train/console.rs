//! Where a run's text goes: lines above a progress bar on standard output (the bar on standard
//! error), or nowhere with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicBool, Ordering};

/// A run's lines and progress bar.
pub(crate) struct Console {
    bar: ProgressBar,
    quiet: bool,
    /// Set once standard output could not be written: the lines stop, the training goes on.
    silenced: AtomicBool,
}

impl Console {
    /// A console showing lines and a bar, or nothing when `quiet`.
    pub fn new(quiet: bool) -> Console {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        };
        Console {
            bar,
            quiet,
            silenced: AtomicBool::new(false),
        }
    }

    /// Prints `text` as a line above the bar.
    pub fn line(&self, text: &str) {
        use std::io::Write;
        if self.quiet || self.silenced.load(Ordering::Relaxed) {
            return;
        }
        self.bar.suspend(|| {
            let mut out = std::io::stdout().lock();
            if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush()) {
                // The net file is what the run makes: a reader gone or a full disk costs these
                // lines, not hours of training (and `println!` would panic).
                self.silenced.store(true, Ordering::Relaxed);
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    eprintln!("warning: cannot write to standard output: {e}; training goes on");
                }
            }
        });
    }

    /// Shows the bar as reading `total_bytes` bytes of data.
    pub fn start_loading(&self, total_bytes: u64) {
        self.bar.set_length(total_bytes);
        self.bar.set_style(style(
            "loading {bytes}/{total_bytes} {binary_bytes_per_sec} ETA {eta}",
        ));
    }

    /// Shows the bar as training on `positions` positions.
    pub fn start_training(&self, positions: u64) {
        self.bar.reset();
        self.bar.set_length(positions);
        self.bar.set_position(0);
        self.bar.set_style(style(
            "{msg} [{wide_bar}] {human_pos}/{human_len} {per_sec} ETA {eta}",
        ));
    }

    /// Moves the bar on by `n` (bytes read, or positions trained on).
    pub fn advance(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Sets the text beside the bar.
    pub fn message(&self, text: String) {
        self.bar.set_message(text);
    }

    /// Takes the bar away.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
}
