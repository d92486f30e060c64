//! Load-time filters: which recorded positions a trainer should learn from.
//!
//! Generators record every position; the filters decide at load time, so raw games stay reusable
//! when the filters change.

use super::record::PlyPosition;
use super::score::{Score, EVAL_LIMIT};
use std::fmt;

/// Which positions to keep. Every test is an option; [`Filters::default`] is the usual training
/// set-up, [`Filters::keep_all`] keeps every scored position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filters {
    /// Skip positions fewer than this many plies after the record's start (openings are
    /// repetitive and their scores say little). Default 16.
    pub min_ply: usize,
    /// Skip positions where the side to move is in check (the score is about the forced reply).
    /// Default true.
    pub skip_in_check: bool,
    /// Skip positions whose recorded move is a capture (the score depends on the exchange, which a
    /// static evaluation cannot see). Default true.
    pub skip_captures: bool,
    /// Skip mate and rule-win scores. Default true. When kept, they count as `±`[`EVAL_LIMIT`].
    pub skip_decided: bool,
    /// Keep only positions whose score magnitude is below this (engine units). Default 3000.
    pub max_score: i32,
    /// Keep only positions whose no-capture counter is below this (plies); a draw by the
    /// no-capture rule is not visible on the board. Default 80.
    pub max_no_capture_plies: u16,
}

impl Default for Filters {
    fn default() -> Self {
        Filters {
            min_ply: 16,
            skip_in_check: true,
            skip_captures: true,
            skip_decided: true,
            max_score: 3000,
            max_no_capture_plies: 80,
        }
    }
}

/// Why a position was skipped (the first failed test, in this order). Positions without a score
/// are always skipped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rejection {
    /// The ply has no score.
    Unscored,
    /// Fewer than `min_ply` plies after the start.
    EarlyPly,
    /// The side to move is in check.
    InCheck,
    /// The recorded move is a capture.
    Capture,
    /// A mate or rule-win score.
    Decided,
    /// `|score| >= max_score`.
    LargeScore,
    /// The no-capture counter is at or above `max_no_capture_plies`.
    NoCaptureCounter,
}

impl Rejection {
    /// Every reason, in test order.
    pub const ALL: [Rejection; 7] = [
        Rejection::Unscored,
        Rejection::EarlyPly,
        Rejection::InCheck,
        Rejection::Capture,
        Rejection::Decided,
        Rejection::LargeScore,
        Rejection::NoCaptureCounter,
    ];

    /// A short name for reports.
    pub const fn name(self) -> &'static str {
        match self {
            Rejection::Unscored => "unscored",
            Rejection::EarlyPly => "early ply",
            Rejection::InCheck => "in check",
            Rejection::Capture => "capture",
            Rejection::Decided => "mate/rule score",
            Rejection::LargeScore => "large score",
            Rejection::NoCaptureCounter => "no-capture counter",
        }
    }
}

/// The score a trainer learns from: the evaluation, `±`[`EVAL_LIMIT`] for decided scores, `None`
/// without a score.
pub fn training_score(score: Score) -> Option<i32> {
    match score {
        Score::None => None,
        Score::Eval(v) => Some(i32::from(v)),
        Score::Mate { wins, .. } | Score::Rule { wins, .. } => {
            Some(if wins { EVAL_LIMIT } else { -EVAL_LIMIT })
        }
    }
}

impl Filters {
    /// Keeps every position that has a score.
    pub fn keep_all() -> Filters {
        Filters {
            min_ply: 0,
            skip_in_check: false,
            skip_captures: false,
            skip_decided: false,
            max_score: i32::MAX,
            max_no_capture_plies: u16::MAX,
        }
    }

    /// Whether to keep `p`; on rejection, the first reason. On acceptance, the training score
    /// (side to move's view).
    pub fn check(&self, p: &PlyPosition) -> Result<i32, Rejection> {
        let score = training_score(p.ply.score).ok_or(Rejection::Unscored)?;
        if p.index < self.min_ply {
            return Err(Rejection::EarlyPly);
        }
        if self.skip_in_check && p.position.in_check() {
            return Err(Rejection::InCheck);
        }
        if self.skip_captures && p.position.piece_at(p.ply.mv.to()).is_some() {
            return Err(Rejection::Capture);
        }
        if self.skip_decided && p.ply.score.is_decided() {
            return Err(Rejection::Decided);
        }
        if score.unsigned_abs() >= self.max_score.unsigned_abs() {
            return Err(Rejection::LargeScore);
        }
        if p.position.no_capture_plies() >= self.max_no_capture_plies {
            return Err(Rejection::NoCaptureCounter);
        }
        Ok(score)
    }
}

/// Counts of kept and skipped positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilterStats {
    /// Positions looked at.
    pub seen: u64,
    /// Positions kept.
    pub kept: u64,
    /// Skipped positions per [`Rejection`], in [`Rejection::ALL`] order.
    pub rejected: [u64; Rejection::ALL.len()],
}

impl FilterStats {
    /// Counts one verdict.
    pub fn count(&mut self, verdict: &Result<i32, Rejection>) {
        self.seen += 1;
        match verdict {
            Ok(_) => self.kept += 1,
            Err(r) => {
                if let Some(i) = Rejection::ALL.iter().position(|x| x == r) {
                    self.rejected[i] += 1;
                }
            }
        }
    }

    /// Adds another set of counts.
    pub fn merge(&mut self, other: &FilterStats) {
        self.seen += other.seen;
        self.kept += other.kept;
        for (a, b) in self.rejected.iter_mut().zip(other.rejected) {
            *a += b;
        }
    }
}

impl fmt::Display for FilterStats {
    /// `kept 700 of 1000 positions (70.0%); skipped: early ply 160, in check 40, ...`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |n: u64| 100.0 * n as f64 / self.seen.max(1) as f64;
        write!(
            f,
            "kept {} of {} positions ({:.1}%)",
            self.kept,
            self.seen,
            pct(self.kept)
        )?;
        let skipped: Vec<String> = Rejection::ALL
            .iter()
            .zip(self.rejected)
            .filter(|(_, n)| *n > 0)
            .map(|(r, n)| format!("{} {n}", r.name()))
            .collect();
        if !skipped.is_empty() {
            write!(f, "; skipped: {}", skipped.join(", "))?;
        }
        Ok(())
    }
}
