//! What a person sees while the analysis runs: a progress bar with the positions searched and
//! the time left (on a terminal only; indicatif draws nothing when standard error is not one),
//! and, if asked for, the search's `info` lines with their moves in the output notation.

use cotuong::search::Info;
use engine_core::{Notation, Position};
use indicatif::ProgressBar;

use super::super::progress_bar::progress_bar;

use super::score::RedScore;

/// Told the searches done and the total after each search (a page's progress bar).
pub type Observer = Box<dyn Fn(u64, u64) + Send + Sync>;

/// The progress display of one run.
pub struct Progress {
    bar: ProgressBar,
    /// Print every finished iteration, moves in this notation.
    info_notation: Option<Notation>,
    observer: Option<Observer>,
}

impl Progress {
    /// A display for `searches` searches; `quiet` hides the bar, `info_notation` turns on the
    /// `info` lines.
    pub fn new(searches: u64, quiet: bool, info_notation: Option<Notation>) -> Progress {
        let bar = progress_bar(
            searches,
            quiet,
            "{elapsed_precise} [{bar:24}] {pos}/{len} positions, {msg} ETA {eta}",
        );
        Progress {
            bar,
            info_notation,
            observer: None,
        }
    }

    /// The same display, also reporting each finished search to `observer`.
    pub fn observed(self, observer: Observer) -> Progress {
        Progress {
            observer: Some(observer),
            ..self
        }
    }

    /// Names what is being analyzed (`game 3, ply 41`).
    pub fn working_on(&self, what: String) {
        self.bar.set_message(what);
    }

    /// Takes `n` searches off the total (those of the games a resumed review keeps).
    pub fn skip(&self, n: u64) {
        let total = self.bar.length().unwrap_or(0);
        self.bar.set_length(total.saturating_sub(n));
    }

    /// Counts one finished search.
    pub fn searched(&self) {
        self.bar.inc(1);
        if let Some(observer) = &self.observer {
            observer(self.bar.position(), self.bar.length().unwrap_or(0));
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Prints an iteration of a search of `pos` as an `info` line on standard error, if asked
    /// for: depth, line number, score from Red's view, nodes, time and the line's moves.
    pub fn info(&self, pos: &Position, info: &Info) {
        let Some(notation) = self.info_notation else {
            return;
        };
        if let Info::Iteration {
            depth,
            seldepth,
            multipv,
            score,
            nodes,
            time_ms,
            pv,
            ..
        } = info
        {
            let line = notation.format_line(pos, pv).join(" ");
            let score = RedScore::from_side(pos.side_to_move(), *score);
            // Around the bar, which would otherwise draw over the line.
            self.bar.suspend(|| {
                eprintln!(
                    "info depth {depth} seldepth {seldepth} multipv {multipv} score {score} \
                     nodes {nodes} time {time_ms} pv {line}"
                )
            });
        }
    }
}
