//! Game adjudication: replays a game and finds the first ply at which a rule decides it, with an
//! explanation a person can check (which side, which rule and article, which plies).
//!
//! Order of tests after each ply: no legal move (mate or stalemate, Điều 7 win a-c: both lose
//! for the side to move), then repetition (the position's `repetition_threshold`-th occurrence
//! since the last capture; the cycle judged runs from its first occurrence), then the no-capture
//! limit, then bare material. Mate therefore wins even on the ply that reaches the limit.
//! "Repetition" means the same placement with the same side to move; the counters are ignored.

use std::fmt;

use crate::moves::Move;
use crate::notation::{move_text, RankBase};
use crate::piece::{Color, PieceKind};
use crate::position::{Position, Undo};

use super::chase::ChaseReason;
use super::cycle::{analyze_cycle, CycleReport};
use super::no_capture::{counted_plies_of, limit_reached};
use super::{GameResult, RuleId, RuleOptions, RuleSet, Verdict};

/// A move in the game record that is not legal where it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// 1-based ply number of the move.
    pub ply: usize,
    /// The move, in ICCS text with ranks 0-9.
    pub text: String,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} (ply {}) is not legal", self.text, self.ply)
    }
}

impl std::error::Error for IllegalMoveError {}

/// Like [`super::adjudicate`], but reports the first illegal move instead of hiding it.
pub fn try_adjudicate(
    start: &Position,
    moves: &[Move],
    options: &RuleOptions,
) -> Result<Option<Verdict>, IllegalMoveError> {
    let mut referee = Referee::new(start, options);
    if let Some(v) = referee.verdict() {
        return Ok(Some(v));
    }
    for (i, &mv) in moves.iter().enumerate() {
        if !referee.position().is_legal(mv) {
            return Err(IllegalMoveError {
                ply: i + 1,
                text: move_text(mv, RankBase::Zero),
            });
        }
        referee.play(mv);
        if let Some(v) = referee.verdict() {
            return Ok(Some(v));
        }
    }
    Ok(None)
}

/// A game judged ply by ply: the position and the keys since the last capture, kept as moves are
/// played and taken back, so that a search over the game tree (an exact solver in the tests) asks
/// the very judge [`try_adjudicate`] asks.
pub struct Referee<'a> {
    options: &'a RuleOptions,
    pos: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    /// `keys[k]`: the key of the position after `k` plies.
    keys: Vec<u64>,
    /// `last_capture[k]`: the ply of the last capture within the first `k` plies (0 if none); no
    /// position before it can repeat a later one.
    last_capture: Vec<usize>,
}

impl<'a> Referee<'a> {
    /// A game at `start`, no move played.
    pub fn new(start: &Position, options: &'a RuleOptions) -> Referee<'a> {
        Referee {
            options,
            pos: start.clone(),
            moves: Vec::new(),
            undos: Vec::new(),
            keys: vec![start.key()],
            last_capture: vec![0],
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Moves played since the start.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Plays `mv`, which must be legal in the current position.
    pub fn play(&mut self, mv: Move) {
        let capture = self.pos.piece_at(mv.to()).is_some();
        self.undos.push(self.pos.make_move(mv));
        self.moves.push(mv);
        self.keys.push(self.pos.key());
        let ply = self.moves.len();
        let last = if capture {
            ply
        } else {
            self.last_capture[ply - 1]
        };
        self.last_capture.push(last);
    }

    /// Takes back the last move played, if any.
    pub fn take_back(&mut self) {
        let (Some(mv), Some(undo)) = (self.moves.pop(), self.undos.pop()) else {
            return;
        };
        self.pos.unmake_move(mv, undo);
        self.keys.pop();
        self.last_capture.pop();
    }

    /// The verdict on the current ply (the start position before any move), or `None` while the
    /// game goes on: no legal move, then repetition (the position's `repetition_threshold`-th
    /// occurrence since the last capture, judging the cycle from its first occurrence), then the
    /// no-capture limit and bare material.
    pub fn verdict(&self) -> Option<Verdict> {
        let (pos, options) = (&self.pos, self.options);
        let ply = self.moves.len();
        if !pos.has_legal_move() {
            return Some(no_move_verdict(pos, ply));
        }
        let key = self.keys[ply];
        let threshold = options.repetition_threshold.max(2) as usize;
        let mut occurrences = (self.last_capture[ply]..ply)
            .filter(|&k| (ply - k).is_multiple_of(2) && self.keys[k] == key)
            .peekable();
        if let Some(&first) = occurrences.peek() {
            if occurrences.count() + 1 >= threshold {
                // A key collision (not a real cycle) is simply not judged.
                if let Ok(report) = analyze_cycle(pos, &self.moves[first..], options) {
                    return Some(cycle_verdict(&report, first, ply, options.rule_set));
                }
            }
        }
        judge_limits(pos, ply, options)
    }
}

/// Draws that look only at the position and its counters, tested after mate and repetition:
/// the no-capture limit, then bare material.
fn judge_limits(pos: &Position, ply: usize, options: &RuleOptions) -> Option<Verdict> {
    if limit_reached(pos, options.no_capture_moves, options.no_capture_checks) {
        let red = pos.checks_since_capture(Color::Red);
        let black = pos.checks_since_capture(Color::Black);
        return Some(Verdict {
            result: GameResult::Draw,
            rule: RuleId::NoCapture,
            explanation: format!(
                "Draw after ply {ply}: {} plies without a capture ({} counted; checking plies \
                 Red {red}, Black {black}; {}) reach the {}-move limit (Điều 7 draw e, Điều 12)",
                pos.no_capture_plies(),
                counted_plies_of(pos, options.no_capture_checks),
                options.no_capture_checks.describe(),
                options.no_capture_moves,
            ),
        });
    }
    if options.insufficient_material_draw && pos.has_no_attacking_material() {
        return Some(Verdict {
            result: GameResult::Draw,
            rule: RuleId::InsufficientMaterial,
            explanation: format!(
                "Draw after ply {ply}: neither side has a chariot, horse, cannon or soldier left \
                 (Điều 20.4 b.6)"
            ),
        });
    }
    None
}

/// The side to move has no legal move: it loses, mated or stalemated (Điều 7 win a-c).
fn no_move_verdict(pos: &Position, ply: usize) -> Verdict {
    let loser = pos.side_to_move();
    let winner = loser.opponent();
    if pos.in_check() {
        Verdict {
            result: GameResult::win_for(winner),
            rule: RuleId::Checkmate,
            explanation: format!(
                "{} wins: {} is checkmated after ply {ply} (Điều 7 win a)",
                winner.name(),
                loser.name()
            ),
        }
    } else {
        Verdict {
            result: GameResult::win_for(winner),
            rule: RuleId::Stalemate,
            explanation: format!(
                "{} wins: {} is not in check but has no legal move after ply {ply}; a stalemated \
                 side loses (Điều 7 win b)",
                winner.name(),
                loser.name()
            ),
        }
    }
}

/// Lower-case colour name for "the black chariot".
fn color_word(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn kind_word(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "general",
        PieceKind::Advisor => "advisor",
        PieceKind::Elephant => "elephant",
        PieceKind::Horse => "horse",
        PieceKind::Chariot => "chariot",
        PieceKind::Cannon => "cannon",
        PieceKind::Soldier => "soldier",
    }
}

/// Why a side that attacked is not a perpetual chaser, when the reason is the classification of
/// its checks or mate threats (the points where the rule sets part), for draw explanations.
fn excuse(report: &CycleReport, side: Color, rule_set: RuleSet) -> Option<String> {
    let s = side.index();
    let moves = report.plies / 2;
    if report.mate_threat[s] {
        return Some(format!(
            "{}'s attacks came with a mate threat, which may be repeated (Điều 22 term 3, Điều 23 \
             point 2, Điều 24.5)",
            side.name()
        ));
    }
    let checks = report.checks[s] as usize;
    if !rule_set.checks_can_chase() && checks > 0 && checks < moves {
        return Some(format!(
            "{} checked on {checks} of its {moves} moves, and a check is not a chase (one check, \
             one chase or one idle move: Điều 23 point 2, Điều 24.8-24.9)",
            side.name()
        ));
    }
    None
}

/// The explained verdict of a repetition whose cycle spans plies `first + 1 ..= last`.
fn cycle_verdict(report: &CycleReport, first: usize, last: usize, rule_set: RuleSet) -> Verdict {
    let mut verdict = cycle_verdict_law(report, first, last, rule_set);
    if rule_set != RuleSet::default() {
        verdict.explanation.push_str(&format!(
            " [{}; the articles cited are the Vietnamese Law's, whose Điều 24 examples are that \
             book's diagrams]",
            rule_set.book()
        ));
    }
    verdict
}

/// [`cycle_verdict`] before the rule-set note.
fn cycle_verdict_law(
    report: &CycleReport,
    first: usize,
    last: usize,
    rule_set: RuleSet,
) -> Verdict {
    let span = format!(
        "the {}-ply repetition cycle of plies {}-{}",
        report.plies,
        first + 1,
        last
    );
    // Each side made half of the cycle's plies (a cycle returns to the same side to move).
    let moves_per_side = report.plies / 2;
    let chase_text = |c: Color| -> Option<String> {
        let chased = report.perpetual_chase[c.index()]?;
        Some(format!(
            "{} chased the {} {} on {} ({}) with every one of its {} moves in {}",
            c.name(),
            color_word(c.opponent()),
            kind_word(chased.kind),
            chased.square,
            chased.reason.describe(),
            moves_per_side,
            span
        ))
    };
    match report.loser {
        Some(loser) => {
            let winner = loser.opponent();
            let result = GameResult::win_for(winner);
            if report.perpetual_check[loser.index()] {
                let mut text = format!(
                    "{} wins: {} checked on every one of its {} moves in {} (perpetual check, \
                     Điều 7 win g, Điều 23 point 1)",
                    winner.name(),
                    loser.name(),
                    moves_per_side,
                    span
                );
                if let Some(other) = chase_text(winner) {
                    text.push_str(&format!(
                        "; {other}, but perpetual check is forbidden in any situation (Điều 7 \
                         win g)"
                    ));
                }
                Verdict {
                    result,
                    rule: RuleId::PerpetualCheck,
                    explanation: text,
                }
            } else {
                let reason = report.perpetual_chase[loser.index()]
                    .map_or(ChaseReason::Unprotected, |c| c.reason);
                let chase = chase_text(loser).unwrap_or_default();
                Verdict {
                    result,
                    rule: RuleId::PerpetualChase,
                    explanation: format!(
                        "{} wins: {chase} (perpetual chase, {})",
                        winner.name(),
                        reason.article()
                    ),
                }
            }
        }
        None => {
            let why = match (
                report.perpetual_check,
                report.perpetual_chase.map(|c| c.is_some()),
            ) {
                ([true, true], _) => {
                    "both sides checked on every move (mutual perpetual check, Điều 24.3, Điều 7 \
                     draw c)"
                        .to_string()
                }
                ([true, false], _) | ([false, true], _) => {
                    "one side checked perpetually while the other chased perpetually, which these \
                     options rule a draw"
                        .to_string()
                }
                (_, [true, true]) => "both sides chased perpetually (Điều 7 draw c)".to_string(),
                _ => {
                    let mut text =
                        "neither side checked or chased perpetually (Điều 7 draw b, Điều 24.2)"
                            .to_string();
                    for side in Color::BOTH {
                        if let Some(why) = excuse(report, side, rule_set) {
                            text.push_str("; ");
                            text.push_str(&why);
                        }
                    }
                    text
                }
            };
            Verdict {
                result: GameResult::Draw,
                rule: RuleId::RepetitionDraw,
                explanation: format!("Draw: repetition with {span}; {why}"),
            }
        }
    }
}
