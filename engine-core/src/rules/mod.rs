//! The rules referee: game outcomes, repetition cycles (perpetual check and chase, Vietnamese Law
//! Điều 22-24), the no-capture rule and insufficient material.
//!
//! INTERIM API (issue 4 fills it in): the search and the match runner code against these
//! signatures now; `judge_cycle` currently calls every cycle a draw.

use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;

/// The referee's verdict on one repetition cycle, cheap enough to ask inside the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CycleVerdict {
    /// Nobody offends, or both offend equally.
    Draw,
    /// This side offends (perpetual check or forbidden chase) and loses.
    Loses(Color),
}

/// Judges a repetition: `pos` is the current position, identical to the position `cycle.len()`
/// plies earlier, and `cycle` holds the moves played from that earlier occurrence to now, in order
/// (none of them a capture).
pub fn judge_cycle(pos: &Position, cycle: &[Move]) -> CycleVerdict {
    let _ = (pos, cycle);
    CycleVerdict::Draw
}

/// Configurable parts of the rules (the Law leaves these open; see the README).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleOptions {
    /// Occurrence of the same position at which a repetition is judged at the root (default 3).
    pub repetition_threshold: u32,
    /// Full moves without capture that draw (default 60 = 120 plies; 50 selectable).
    pub no_capture_moves: u32,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            repetition_threshold: 3,
            no_capture_moves: 60,
        }
    }
}

/// Final result of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// 1-0.
    RedWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
}

impl GameResult {
    /// PGN result text.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result in which `color` wins.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Which rule decided a game; `id()` is the stable machine-readable name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RuleId {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (it loses).
    Stalemate,
    /// One side checked on every move of a repetition cycle.
    PerpetualCheck,
    /// One side chased the same piece on every move of a repetition cycle (Điều 23).
    PerpetualChase,
    /// A repetition with no offender or offenders on both sides.
    RepetitionDraw,
    /// The no-capture limit was reached.
    NoCapture,
    /// Neither side has a chariot, horse, cannon or soldier.
    InsufficientMaterial,
}

impl RuleId {
    /// Stable identifier for `judge` output and PGN termination tags.
    pub fn id(self) -> &'static str {
        match self {
            RuleId::Checkmate => "checkmate",
            RuleId::Stalemate => "stalemate",
            RuleId::PerpetualCheck => "perpetual-check",
            RuleId::PerpetualChase => "perpetual-chase",
            RuleId::RepetitionDraw => "repetition-draw",
            RuleId::NoCapture => "no-capture",
            RuleId::InsufficientMaterial => "insufficient-material",
        }
    }
}

/// A decided game with a reason a person can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Who won, or a draw.
    pub result: GameResult,
    /// The deciding rule.
    pub rule: RuleId,
    /// E.g. "Black chased the chariot on b7 on every move of the 8-ply cycle (Điều 23 point 6)".
    pub explanation: String,
}

/// Judges the game that started at `start` and continued with the legal `moves`: `None` while it
/// goes on. INTERIM: only mate and stalemate are judged until issue 4 lands.
pub fn adjudicate(start: &Position, moves: &[Move], options: &RuleOptions) -> Option<Verdict> {
    let _ = options;
    let mut pos = start.clone();
    for &mv in moves {
        pos.make_move(mv);
    }
    if pos.has_legal_move() {
        return None;
    }
    let loser = pos.side_to_move();
    let rule = if pos.in_check() {
        RuleId::Checkmate
    } else {
        RuleId::Stalemate
    };
    Some(Verdict {
        result: GameResult::win_for(loser.opponent()),
        rule,
        explanation: format!("{} has no legal move ({})", loser.name(), rule.id()),
    })
}
