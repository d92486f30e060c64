//! Plays one game between two running engines. The engine-core referee (`rules::adjudicate`) is
//! asked after every move and is the only source of rule verdicts; the runner adds only what a
//! referee cannot know: clocks, illegal or missing answers, crashes, resignations, and the
//! optional score-based adjudication both engines' evaluations agree on.

use super::super::engines::{BestMove, Score};
use super::super::engines::{MatchEngine, ThinkError};
use super::clock::Clock;
use super::openings::Opening;
use engine_core::{adjudicate, Color, GameResult, Move, Position, RuleOptions};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Resign adjudication: a side loses when, for `move_count` consecutive moves of each side, its
/// engine scored at most `-score` and the opponent's engine at least `score`.
#[derive(Clone, Debug, PartialEq)]
pub struct ResignRule {
    /// Consecutive moves per side.
    pub move_count: u32,
    /// Centipawn threshold.
    pub score: i32,
}

/// Draw adjudication: after full move `move_number`, a draw when both engines' scores stayed
/// within `±score` for `move_count` consecutive moves each.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawRule {
    /// First full move at which the rule may apply.
    pub move_number: u32,
    /// Consecutive moves per side.
    pub move_count: u32,
    /// Centipawn threshold.
    pub score: i32,
}

/// Everything about a game that is the same for every game of a run.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Tolerance added to every deadline (pipe and scheduling latency).
    pub time_margin: Duration,
    /// How long an untimed (nodes/depth) search may take before the engine counts as hung.
    pub hang_timeout: Duration,
    /// Options for the engine-core referee.
    pub rules: RuleOptions,
    /// Optional resign adjudication.
    pub resign: Option<ResignRule>,
    /// Optional draw adjudication.
    pub draw: Option<DrawRule>,
    /// Safety net: a draw after this many full moves by the engines (0: never).
    pub max_moves: u32,
}

/// Why a game ended, in a form the PGN `Termination` tag and statistics can use.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TerminationKind {
    /// The engine-core referee decided (`rule` is its stable id, e.g. `checkmate`).
    Rule(String),
    /// A clock ran out.
    TimeForfeit,
    /// An engine sent an illegal or malformed move.
    IllegalMove,
    /// An engine crashed, could not be started, or stopped answering.
    EngineFailure,
    /// An engine resigned in its `bestmove`.
    Resignation,
    /// Resign adjudication by scores.
    AdjudicatedWin,
    /// Draw adjudication by scores.
    AdjudicatedDraw,
    /// The `--maxmoves` limit.
    MoveLimit,
}

impl TerminationKind {
    /// Stable identifier for summaries: the referee's rule id, or the runner's own reason.
    pub fn id(&self) -> String {
        match self {
            TerminationKind::Rule(id) => id.clone(),
            TerminationKind::TimeForfeit => "time-forfeit".into(),
            TerminationKind::IllegalMove => "illegal-move".into(),
            TerminationKind::EngineFailure => "engine-failure".into(),
            TerminationKind::Resignation => "resignation".into(),
            TerminationKind::AdjudicatedWin => "score-resign".into(),
            TerminationKind::AdjudicatedDraw => "score-draw".into(),
            TerminationKind::MoveLimit => "max-moves".into(),
        }
    }

    /// The PGN `Termination` tag value (the PGN standard's words where one fits).
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            TerminationKind::Rule(_) => "normal",
            TerminationKind::TimeForfeit => "time forfeit",
            TerminationKind::IllegalMove => "illegal move",
            TerminationKind::EngineFailure => "abandoned",
            TerminationKind::Resignation => "normal",
            TerminationKind::AdjudicatedWin
            | TerminationKind::AdjudicatedDraw
            | TerminationKind::MoveLimit => "adjudication",
        }
    }
}

/// One move as played, with what the runner measured and the engine reported.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// True for opening-book moves (no engine thought about them).
    pub book: bool,
    /// Measured think time.
    pub time: Duration,
    /// Last reported score, from the mover's point of view.
    pub score: Option<Score>,
    /// Last reported depth.
    pub depth: Option<u32>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The position the game (and its FEN tag) starts from.
    pub start: Position,
    /// All moves, book moves first.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub result: GameResult,
    /// The kind of ending.
    pub termination: TerminationKind,
    /// A sentence saying why, naming the engine or rule.
    pub reason: String,
    /// The engines' names, Red first.
    pub red: String,
    /// Black's engine name.
    pub black: String,
    /// Which engine must be restarted before its next game (crashed or hung).
    pub restart_red: bool,
    /// Same for Black.
    pub restart_black: bool,
}

/// An engine seat in a game: its process and its clock.
pub struct Seat<'a> {
    /// The running engine.
    pub engine: &'a mut dyn MatchEngine,
    /// Its clock for this game.
    pub clock: Clock,
}

/// Plays a game from `opening` between `red` and `black` (already started, after `new_game`).
pub fn play_game<'a>(
    opening: &Opening,
    mut red: Seat<'a>,
    mut black: Seat<'a>,
    settings: &GameSettings,
) -> GameRecord {
    let red_name = red.engine.config().name.clone();
    let black_name = black.engine.config().name.clone();
    let start = opening.start.clone();
    let mut pos = start.clone();
    let mut history: Vec<Move> = Vec::new();
    let mut played: Vec<PlayedMove> = Vec::new();
    for &mv in &opening.moves {
        pos.make_move(mv);
        history.push(mv);
        played.push(PlayedMove {
            mv,
            book: true,
            time: Duration::ZERO,
            score: None,
            depth: None,
        });
    }
    let mut restart = [false, false];
    let finish = |result: GameResult,
                  termination: TerminationKind,
                  reason: String,
                  played: Vec<PlayedMove>,
                  restart: [bool; 2]| GameRecord {
        start: start.clone(),
        moves: played,
        result,
        termination,
        reason,
        red: red_name.clone(),
        black: black_name.clone(),
        restart_red: restart[0],
        restart_black: restart[1],
    };
    if let Some(v) = adjudicate(&start, &history, &settings.rules) {
        return finish(
            v.result,
            TerminationKind::Rule(v.rule.id().to_string()),
            v.explanation,
            played,
            restart,
        );
    }
    let mut engine_plies: u32 = 0;
    loop {
        let side = pos.side_to_move();
        let (mover, other) = match side {
            Color::Red => (&mut red, &mut black),
            Color::Black => (&mut black, &mut red),
        };
        let seat_index = if side == Color::Red { 0 } else { 1 };
        let name = mover.engine.config().name.clone();
        let lose = GameResult::win_for(side.opponent());
        let wire = mover.engine.config().wire;
        let limits = mover.clock.go_limits(&other.clock, side == Color::Red);
        let deadline = mover.clock.deadline(settings.time_margin);
        let thought =
            match mover
                .engine
                .think(&start, &history, &limits, deadline, settings.hang_timeout)
            {
                Ok(t) => t,
                Err(ThinkError::OutOfTime { elapsed, answered }) => {
                    restart[seat_index] = !answered;
                    let reason = format!(
                        "{} ({name}) lost on time: no move after {:.3} s, {:.3} s allowed",
                        side.name(),
                        elapsed.as_secs_f64(),
                        mover.clock.remaining().as_secs_f64()
                    );
                    return finish(lose, TerminationKind::TimeForfeit, reason, played, restart);
                }
                Err(ThinkError::Engine(e)) => {
                    restart[seat_index] = true;
                    let reason = format!("{} ({name}) lost: {e}", side.name());
                    return finish(
                        lose,
                        TerminationKind::EngineFailure,
                        reason,
                        played,
                        restart,
                    );
                }
            };
        if let Err(f) = mover.clock.charge(thought.elapsed, settings.time_margin) {
            let reason = format!(
                "{} ({name}) lost on time: used {:.3} s of {:.3} s",
                side.name(),
                f.used.as_secs_f64(),
                f.allowed.as_secs_f64()
            );
            return finish(lose, TerminationKind::TimeForfeit, reason, played, restart);
        }
        let (text, resign) = match thought.best {
            BestMove::NoMove => {
                let reason = format!(
                    "{} ({name}) lost: answered with no move although it has legal moves",
                    side.name()
                );
                return finish(lose, TerminationKind::IllegalMove, reason, played, restart);
            }
            BestMove::Move { text, resign, .. } => (text, resign),
        };
        if resign {
            let reason = format!("{} ({name}) resigned", side.name());
            return finish(lose, TerminationKind::Resignation, reason, played, restart);
        }
        let mv = match wire.parse_move(&pos, &text) {
            Ok(mv) => mv,
            Err(e) => {
                let reason = format!(
                    "{} ({name}) lost by an illegal move: {e} in {}",
                    side.name(),
                    pos.to_fen()
                );
                return finish(lose, TerminationKind::IllegalMove, reason, played, restart);
            }
        };
        pos.make_move(mv);
        history.push(mv);
        played.push(PlayedMove {
            mv,
            book: false,
            time: thought.elapsed,
            score: thought.score,
            depth: thought.depth,
        });
        engine_plies += 1;

        if let Some(v) = adjudicate(&start, &history, &settings.rules) {
            return finish(
                v.result,
                TerminationKind::Rule(v.rule.id().to_string()),
                v.explanation,
                played,
                restart,
            );
        }
        if let Some((result, kind, reason)) = score_adjudication(&played, &pos, settings) {
            return finish(result, kind, reason, played, restart);
        }
        if settings.max_moves > 0 && engine_plies >= 2 * settings.max_moves {
            let reason = format!("draw by the runner's limit of {} moves", settings.max_moves);
            return finish(
                GameResult::Draw,
                TerminationKind::MoveLimit,
                reason,
                played,
                restart,
            );
        }
    }
}

/// Scores of the last `2 * count` engine moves, each from Red's point of view; `None` when any is
/// missing or a book move intervenes. `pos` is the position after the last move (whose side to
/// move tells who played last).
fn recent_red_scores(played: &[PlayedMove], pos: &Position, count: usize) -> Option<Vec<i32>> {
    let n = 2 * count;
    if count == 0 || played.len() < n {
        return None;
    }
    // The last move was played by the side not to move now.
    let mut mover = pos.side_to_move().opponent();
    let mut out = Vec::with_capacity(n);
    for m in played.iter().rev().take(n) {
        if m.book {
            return None;
        }
        let cp = m.score?.as_cp();
        out.push(if mover == Color::Red { cp } else { -cp });
        mover = mover.opponent();
    }
    Some(out)
}

fn score_adjudication(
    played: &[PlayedMove],
    pos: &Position,
    settings: &GameSettings,
) -> Option<(GameResult, TerminationKind, String)> {
    if let Some(r) = &settings.resign {
        if let Some(scores) = recent_red_scores(played, pos, r.move_count as usize) {
            let winner = if scores.iter().all(|&s| s >= r.score) {
                Some(Color::Red)
            } else if scores.iter().all(|&s| s <= -r.score) {
                Some(Color::Black)
            } else {
                None
            };
            if let Some(w) = winner {
                return Some((
                    GameResult::win_for(w),
                    TerminationKind::AdjudicatedWin,
                    format!(
                        "{} wins by adjudication: both engines scored it at least {} cp for {} moves",
                        w.name(),
                        r.score,
                        r.move_count
                    ),
                ));
            }
        }
    }
    if let Some(d) = &settings.draw {
        let full_moves = played.len() as u32 / 2;
        if full_moves >= d.move_number {
            if let Some(scores) = recent_red_scores(played, pos, d.move_count as usize) {
                if scores.iter().all(|s| s.abs() <= d.score) {
                    return Some((
                        GameResult::Draw,
                        TerminationKind::AdjudicatedDraw,
                        format!(
                            "draw by adjudication: both engines scored within ±{} cp for {} moves",
                            d.score, d.move_count
                        ),
                    ));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(resign: Option<ResignRule>, draw: Option<DrawRule>) -> GameSettings {
        GameSettings {
            time_margin: Duration::ZERO,
            hang_timeout: Duration::from_secs(1),
            rules: RuleOptions::default(),
            resign,
            draw,
            max_moves: 0,
        }
    }

    /// Plays `n` legal moves from the start with the given mover-relative scores.
    fn moves_with_scores(scores: &[i32]) -> (Vec<PlayedMove>, Position) {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        for &s in scores {
            let mv = pos.legal_moves()[0];
            pos.make_move(mv);
            out.push(PlayedMove {
                mv,
                book: false,
                time: Duration::ZERO,
                score: Some(Score::Cp(s)),
                depth: None,
            });
        }
        (out, pos)
    }

    #[test]
    fn resign_needs_both_engines_to_agree() {
        let rule = Some(ResignRule {
            move_count: 2,
            score: 500,
        });
        // Red (moves 1, 3) says +600, Black says -700: Red wins.
        let (played, pos) = moves_with_scores(&[600, -700, 650, -800]);
        let got = score_adjudication(&played, &pos, &settings(rule.clone(), None)).unwrap();
        assert_eq!(got.0, GameResult::RedWins);
        // Black disagrees on one move: no adjudication.
        let (played, pos) = moves_with_scores(&[600, -100, 650, -800]);
        assert!(score_adjudication(&played, &pos, &settings(rule, None)).is_none());
    }

    #[test]
    fn draw_waits_for_the_move_number() {
        let rule = Some(DrawRule {
            move_number: 3,
            move_count: 2,
            score: 10,
        });
        let (played, pos) = moves_with_scores(&[5, -3, 0, 2]);
        assert!(score_adjudication(&played, &pos, &settings(None, rule.clone())).is_none());
        let (played, pos) = moves_with_scores(&[5, -3, 0, 2, 1, 0]);
        let got = score_adjudication(&played, &pos, &settings(None, rule)).unwrap();
        assert_eq!(got.0, GameResult::Draw);
        assert_eq!(got.1, TerminationKind::AdjudicatedDraw);
    }
}
