//! One recorded game ([`Game`]), how a generator builds it ([`GameRecord`]) and its bytes.

use super::board::PackedBoard;
use super::outcome::{check_outcome, result_code, OutcomeError, Termination};
use super::score::Score;
use engine_core::{Color, FenError, GameResult, Move, Position};
use nnue::format::fnv1a64;
use std::fmt;
use std::io::{self, Write};

/// The first three bytes of every game record.
pub const MAGIC: [u8; 3] = *b"XQG";
/// The record version this build reads and writes (byte 3 of every record).
pub const VERSION: u8 = 1;
/// Bytes before the plies.
pub const HEADER_BYTES: usize = 46;
/// Bytes per ply: the move (`u16`) and the score (`i16`).
pub const PLY_BYTES: usize = 4;
/// Bytes of the trailing checksum.
pub const CHECKSUM_BYTES: usize = 4;
/// The most plies one record holds (the ply count is a `u16`).
pub const MAX_PLIES: usize = u16::MAX as usize;

/// The record checksum: the low 32 bits of FNV-1a 64 over every byte of the record before it.
pub fn checksum(record_without_checksum: &[u8]) -> u32 {
    fnv1a64(record_without_checksum) as u32
}

/// One recorded move with the search score of the position it was played in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The search score before the move, side to move's point of view.
    pub score: Score,
}

/// A finished, verified game: every move legal, every score encodable, the result consistent
/// with the reason and the final position (see [`check_outcome`]). Built by
/// [`GameRecord::finish`] or read by [`crate::data::GameReader`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    plies: Vec<Ply>,
    result: GameResult,
    termination: Termination,
}

/// A position of a game with the ply played from it.
#[derive(Clone, Debug)]
pub struct PlyPosition {
    /// Plies played since the record's start position (0 for the start position).
    pub index: usize,
    /// The position before the move.
    pub position: Position,
    /// The move played and its score.
    pub ply: Ply,
}

impl Game {
    /// Builds a game after checking everything [`GameRecord`] checks.
    pub(crate) fn from_parts(
        start: Position,
        plies: Vec<Ply>,
        result: GameResult,
        termination: Termination,
    ) -> Game {
        Game {
            start,
            plies,
            result,
            termination,
        }
    }

    /// The position the record starts from (as its FEN holds it: the no-capture rule's per-side
    /// check counters start at zero).
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The recorded plies.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The result.
    pub fn result(&self) -> GameResult {
        self.result
    }

    /// Why the game ended.
    pub fn termination(&self) -> Termination {
        self.termination
    }

    /// Every position before a recorded move, with that move and its score, in order.
    pub fn positions(&self) -> impl Iterator<Item = PlyPosition> + '_ {
        let mut pos = self.start.clone();
        self.plies.iter().enumerate().map(move |(index, &ply)| {
            let position = pos.clone();
            pos.make_move(ply.mv);
            PlyPosition {
                index,
                position,
                ply,
            }
        })
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for ply in &self.plies {
            pos.make_move(ply.mv);
        }
        pos
    }

    /// The result from `side`'s point of view: 1 win, ½ draw, 0 loss.
    pub fn points_for(&self, side: Color) -> f32 {
        points_for(self.result, side)
    }

    /// Size of the record in bytes.
    pub fn encoded_len(&self) -> usize {
        HEADER_BYTES + PLY_BYTES * self.plies.len() + CHECKSUM_BYTES
    }

    /// Appends the record's bytes to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        let begin = out.len();
        out.reserve(self.encoded_len());
        out.extend_from_slice(&MAGIC);
        out.push(VERSION);
        let board = PackedBoard::from_position(&self.start);
        out.extend_from_slice(&board.occupancy.to_le_bytes());
        out.extend_from_slice(&board.codes);
        out.push(self.start.side_to_move().index() as u8);
        out.push(result_code(self.result));
        out.push(self.termination.code());
        out.push(0);
        out.extend_from_slice(&self.start.no_capture_plies().to_le_bytes());
        out.extend_from_slice(&self.start.fullmove_number().to_le_bytes());
        // At most MAX_PLIES plies (checked when the game was built).
        out.extend_from_slice(&(self.plies.len() as u16).to_le_bytes());
        for ply in &self.plies {
            out.extend_from_slice(&ply.mv.raw().to_le_bytes());
            // Encodable (checked when the game was built).
            let score = ply.score.encode().unwrap_or(super::score::NO_SCORE);
            out.extend_from_slice(&score.to_le_bytes());
        }
        let sum = checksum(&out[begin..]);
        out.extend_from_slice(&sum.to_le_bytes());
    }

    /// The record's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_into(&mut out);
        out
    }

    /// Appends the record to `w` with a single `write_all`, so an interrupted generator leaves at
    /// worst one truncated record at the end of a file.
    pub fn write_to<W: Write + ?Sized>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(&self.to_bytes())
    }
}

/// The result from `side`'s point of view: 1 win, ½ draw, 0 loss.
pub fn points_for(result: GameResult, side: Color) -> f32 {
    match (result, side) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => 1.0,
        _ => 0.0,
    }
}

/// Why a game could not be recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The start position does not survive a FEN round trip (a counter out of range).
    BadStart(FenError),
    /// The move is not legal in the current position.
    IllegalMove {
        /// 0-based ply index.
        ply: usize,
        /// The move.
        mv: Move,
        /// The position it was played in.
        fen: String,
    },
    /// The score is outside the range a record can store (see [`Score::encode`]).
    ScoreOutOfRange {
        /// 0-based ply index.
        ply: usize,
        /// The score.
        score: Score,
    },
    /// The game has more than [`MAX_PLIES`] plies.
    TooManyPlies,
    /// The result and reason do not fit the final position.
    Outcome(OutcomeError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadStart(e) => write!(f, "start position cannot be recorded: {e}"),
            RecordError::IllegalMove { ply, mv, fen } => {
                write!(f, "ply {ply}: move {mv} is not legal in {fen}")
            }
            RecordError::ScoreOutOfRange { ply, score } => {
                write!(f, "ply {ply}: score {score:?} cannot be stored")
            }
            RecordError::TooManyPlies => write!(f, "more than {MAX_PLIES} plies"),
            RecordError::Outcome(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A game being recorded by a generator: start it from a position, [`push`](Self::push) every
/// move with its score as it is played, then [`finish`](Self::finish) it with the result.
///
/// ```
/// use engine_core::GameResult;
/// use engine_core::{Move, Position, Square};
/// use nnue_train::data::{GameRecord, Score, Termination};
///
/// let start = Position::startpos();
/// let mut record = GameRecord::new(&start).unwrap();
/// let cannon_to_centre = Move::new(Square::new(7, 2).unwrap(), Square::new(4, 2).unwrap());
/// record.push(cannon_to_centre, Score::eval(35)).unwrap();
/// let game = record.finish(GameResult::Draw, Termination::AdjudicatedDraw).unwrap();
/// let mut file = Vec::new();
/// game.write_to(&mut file).unwrap();
/// assert_eq!(file.len(), 46 + 4 + 4);
/// ```
#[derive(Clone, Debug)]
pub struct GameRecord {
    start: Position,
    current: Position,
    plies: Vec<Ply>,
}

impl GameRecord {
    /// Starts a record at `start` (kept as its FEN holds it).
    pub fn new(start: &Position) -> Result<GameRecord, RecordError> {
        let start = Position::from_fen(&start.to_fen()).map_err(RecordError::BadStart)?;
        Ok(GameRecord {
            current: start.clone(),
            start,
            plies: Vec::new(),
        })
    }

    /// The position after the moves pushed so far.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// Plies pushed so far.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// Whether no ply was pushed yet.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// Records `mv`, played in the current position, with the search score of that position.
    /// An illegal move or an unstorable score is refused and leaves the record unchanged.
    pub fn push(&mut self, mv: Move, score: Score) -> Result<(), RecordError> {
        let ply = self.plies.len();
        if ply >= MAX_PLIES {
            return Err(RecordError::TooManyPlies);
        }
        if score.encode().is_none() {
            return Err(RecordError::ScoreOutOfRange { ply, score });
        }
        if !self.current.is_legal(mv) {
            return Err(RecordError::IllegalMove {
                ply,
                mv,
                fen: self.current.to_fen(),
            });
        }
        self.current.make_move(mv);
        self.plies.push(Ply { mv, score });
        Ok(())
    }

    /// Ends the game. The result and reason are checked against the final position
    /// ([`check_outcome`]).
    pub fn finish(self, result: GameResult, termination: Termination) -> Result<Game, RecordError> {
        check_outcome(&self.current, result, termination).map_err(RecordError::Outcome)?;
        Ok(Game::from_parts(
            self.start,
            self.plies,
            result,
            termination,
        ))
    }
}
