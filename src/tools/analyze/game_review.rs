//! Games analyzed move by move. Every position of a game is searched, from the start to the
//! position after the last move, for the best lines. A move's score is its own line's score from
//! the search of the position it was played in: the MultiPV line if the search reported it,
//! otherwise a second search of that position with the move alone at the root, under the same
//! limits (so that both scores come from searches of the same depth: the position after the
//! move, searched to the same depth, would be one ply deeper and its score would swing with the
//! side to move). The loss against the best line is then judged by the thresholds (see
//! `judgement`).

use cotuong::game::Game;
use cotuong::search::Info;
use engine_core::pgn;
use engine_core::{Color, Move, Position};

use super::analyst::{Analysis, Analyst, Line};
use super::judgement::{loss, Judgement, Thresholds};
use super::progress::Progress;
use super::score::RedScore;

/// One move of a game and its judgement.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// Ply from the start of the record, from 1.
    pub ply: usize,
    /// The position it was played in.
    pub before: Position,
    /// The side that played it.
    pub side: Color,
    /// The move.
    pub mv: Move,
    /// Its score (Red's view).
    pub score: RedScore,
    /// The line it starts, as the search sees it.
    pub line: Vec<Move>,
    /// The engine's best line in the position it was played in.
    pub best: Line,
    /// The best line that does not start with the move played (the engine's best move when the
    /// player chose another; the runner-up when the player found the best one), if searched.
    pub alternative: Option<Line>,
    /// Score lost against the best line, from the mover's view (internal units).
    pub loss: i32,
    /// How bad the loss is, if it counts.
    pub judgement: Option<Judgement>,
    /// Depth of the search of the position before the move.
    pub depth: i32,
}

impl MoveReview {
    /// Whether the player chose the engine's best move.
    pub fn is_best(&self) -> bool {
        self.best.mv == self.mv
    }
}

/// The move number of the `ply`-th move (from 1) of a game whose first move is `first`'s.
pub fn move_number(first: Color, ply: usize) -> u32 {
    let black_first = usize::from(first == Color::Black);
    u32::try_from((ply.max(1) - 1 + black_first) / 2 + 1).unwrap_or(u32::MAX)
}

/// A game and its moves' judgements.
#[derive(Clone, Debug)]
pub struct GameReview {
    /// The game as read.
    pub game: pgn::Game,
    /// The score of every position from the start to the end (one more than the moves), Red's
    /// view.
    pub scores: Vec<RedScore>,
    /// The moves.
    pub moves: Vec<MoveReview>,
}

/// Per side: how many moves, their judgements and the average loss.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    /// Moves played.
    pub moves: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Total loss (internal units).
    pub total_loss: i64,
}

impl SideSummary {
    /// Average loss per move (internal units), 0 without moves.
    pub fn average_loss(&self) -> i64 {
        if self.moves == 0 {
            0
        } else {
            self.total_loss / self.moves as i64
        }
    }
}

impl GameReview {
    /// The summary of `side`'s moves.
    pub fn summary(&self, side: Color) -> SideSummary {
        let mut s = SideSummary::default();
        for m in self.moves.iter().filter(|m| m.side == side) {
            s.moves += 1;
            s.total_loss += i64::from(m.loss);
            match m.judgement {
                Some(Judgement::Inaccuracy) => s.inaccuracies += 1,
                Some(Judgement::Mistake) => s.mistakes += 1,
                Some(Judgement::Blunder) => s.blunders += 1,
                None => {}
            }
        }
        s
    }
}

/// Judges every move of every game; each game starts with a fresh table. `lines` (at least 2,
/// so that the best alternative to a best move is known) lines are searched per position.
pub fn review_games(
    analyst: &mut Analyst,
    games: &[pgn::Game],
    lines: usize,
    thresholds: &Thresholds,
    progress: &Progress,
) -> Vec<GameReview> {
    games
        .iter()
        .map(|g| review_game(analyst, g, lines, thresholds, progress))
        .collect()
}

fn review_game(
    analyst: &mut Analyst,
    record: &pgn::Game,
    lines: usize,
    thresholds: &Thresholds,
    progress: &Progress,
) -> GameReview {
    analyst.forget();
    let mut game = Game::new(record.start.clone());
    let mut analyses: Vec<Analysis> = Vec::with_capacity(record.moves.len() + 1);
    let mut played: Vec<Option<Line>> = Vec::with_capacity(record.moves.len());
    for ply in 0..=record.moves.len() {
        progress.working_on(format!("game {}, ply {ply}", record.number));
        let pos = game.position().clone();
        let mut on_info = |info: &Info| progress.info(&pos, info);
        let analysis = analyst.analyze(&game, lines, &mut on_info);
        if let Some(m) = record.moves.get(ply) {
            played.push(match analysis.line_of(m.mv) {
                Some(line) => Some(line.clone()),
                None => analyst.analyze_move(&game, m.mv, &mut on_info),
            });
        }
        analyses.push(analysis);
        progress.searched();
        if let Some(m) = record.moves.get(ply) {
            // The reader checked the moves: playing them cannot fail.
            if game.play(m.mv).is_err() {
                break;
            }
        }
    }
    let scores: Vec<RedScore> = analyses.iter().map(Analysis::score).collect();
    let mut before = record.start.clone();
    let moves = record
        .moves
        .iter()
        .zip(analyses.iter().zip(&played))
        .enumerate()
        .filter_map(|(i, (m, (here, line)))| {
            let review = judge_move(i + 1, &before, m.mv, here, line.as_ref(), thresholds);
            before.make_move(m.mv);
            review
        })
        .collect();
    GameReview {
        game: record.clone(),
        scores,
        moves,
    }
}

/// The review of `mv`, played in `pos` (searched: `here`; the move's own line: `played`).
/// `None` only if a search found no move, which a legal `mv` rules out.
fn judge_move(
    ply: usize,
    pos: &Position,
    mv: Move,
    here: &Analysis,
    played: Option<&Line>,
    thresholds: &Thresholds,
) -> Option<MoveReview> {
    let side = pos.side_to_move();
    let best = here.lines.first()?.clone();
    let played = played?;
    let lost = if best.mv == mv {
        0
    } else {
        loss(best.score.for_side(side), played.score.for_side(side))
    };
    Some(MoveReview {
        ply,
        before: pos.clone(),
        side,
        mv,
        score: played.score,
        line: played.pv.clone(),
        alternative: here.lines.iter().find(|l| l.mv != mv).cloned(),
        best,
        loss: lost,
        judgement: thresholds.judge(lost),
        depth: here.depth,
    })
}
