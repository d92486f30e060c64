//! A game as the engine sees it: the position it started from, the moves played since and the
//! resulting position, with the key of every position on the way. The search judges repetitions
//! against this history, and the referee gives its verdict on it.

use engine_core::{
    adjudicate, move_text, FenError, FenWarnings, Move, MoveTextError, Position, RankBase,
    RuleOptions, Verdict,
};
use std::fmt;

/// A move that is not legal where the game has got to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 1-based number of the move in the list that was being played.
    pub number: usize,
    /// The move.
    pub mv: Move,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} of the list: '{}' is not a legal move here",
            self.number,
            move_text(self.mv, RankBase::Zero)
        )
    }
}

impl std::error::Error for IllegalMove {}

/// Why the text of a game (a FEN and a move list) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameTextError {
    /// The FEN does not describe a position.
    Fen(FenError),
    /// A move of the list does not parse, or is not legal where it is played.
    Move {
        /// 1-based number of the move in the list.
        number: usize,
        /// The move as written.
        text: String,
        /// What is wrong with it.
        error: MoveTextError,
    },
}

impl fmt::Display for GameTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameTextError::Fen(e) => write!(f, "invalid FEN: {e}"),
            GameTextError::Move { number, error, .. } => {
                write!(f, "move {number} of the list: {error}")
            }
        }
    }
}

impl std::error::Error for GameTextError {}

/// A start position, the legal moves played from it and where they led.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    /// Keys of every position from the start to the current one (one more than `moves`).
    keys: Vec<u64>,
    moves: Vec<Move>,
}

impl Game {
    /// A game starting (and standing) at `start`.
    pub fn new(start: Position) -> Game {
        Game {
            keys: vec![start.key()],
            pos: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// A game from the initial position.
    pub fn startpos() -> Game {
        Game::new(Position::startpos())
    }

    /// The game of `moves` played from `start`; an illegal move is an error.
    pub fn from_moves(start: Position, moves: &[Move]) -> Result<Game, IllegalMove> {
        let mut game = Game::new(start);
        game.moves.reserve(moves.len());
        game.keys.reserve(moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv)
                .map_err(|e| IllegalMove { number: i + 1, ..e })?;
        }
        Ok(game)
    }

    /// The game described by a protocol `position` command: a FEN (`None` for the initial
    /// position) and move text in the given rank numbering. The error says what was wrong.
    pub fn from_text(
        fen: Option<&str>,
        moves: &[String],
        base: RankBase,
    ) -> Result<Game, GameTextError> {
        Game::from_text_with_warnings(fen, moves, base).map(|(game, _)| game)
    }

    /// [`Game::from_text`], also returning what is unusual about the FEN: a composed position
    /// (a piece where no game could bring it) is accepted, and the caller shows the warnings.
    pub fn from_text_with_warnings(
        fen: Option<&str>,
        moves: &[String],
        base: RankBase,
    ) -> Result<(Game, FenWarnings), GameTextError> {
        let (start, warnings) = match fen {
            None => (Position::startpos(), FenWarnings::default()),
            Some(f) => Position::from_fen_with_warnings(f).map_err(GameTextError::Fen)?,
        };
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            let mv = game
                .pos
                .parse_move(text, base)
                .map_err(|error| GameTextError::Move {
                    number: i + 1,
                    text: text.clone(),
                    error,
                })?;
            game.push_legal(mv);
        }
        Ok((game, warnings))
    }

    /// Plays `mv` if it is legal in the current position (`number` 1 in the error otherwise).
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if !self.pos.is_legal(mv) {
            return Err(IllegalMove { number: 1, mv });
        }
        self.push_legal(mv);
        Ok(())
    }

    fn push_legal(&mut self, mv: Move) {
        self.pos.make_move(mv);
        self.keys.push(self.pos.key());
        self.moves.push(mv);
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played from the start.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The keys of every position from the start to the current one: `moves()[i]` led from
    /// `keys()[i]` to `keys()[i + 1]`.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// How many times the current position has occurred since the last capture, counting this
    /// occurrence (same placement and side to move).
    pub fn occurrences(&self) -> usize {
        let n = self.keys.len() - 1;
        let span = usize::from(self.pos.no_capture_plies()).min(n);
        1 + (2..=span)
            .step_by(2)
            .filter(|&back| self.keys[n - back] == self.keys[n])
            .count()
    }

    /// The referee's verdict on the game so far under `rules`, or `None` while it goes on.
    pub fn verdict(&self, rules: &RuleOptions) -> Option<Verdict> {
        adjudicate(&self.start, &self.moves, rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, text: &str) -> Move {
        pos.parse_move(text, RankBase::Zero).unwrap()
    }

    #[test]
    fn shuffling_counts_occurrences_and_keeps_keys_in_step() {
        let text: Vec<String> = [
            "b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "c2b0", "c7b9",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let game = Game::from_text(None, &text, RankBase::Zero).unwrap();
        assert_eq!(game.occurrences(), 3);
        assert_eq!(game.keys().len(), game.moves().len() + 1);
        assert_eq!(game.keys()[8], game.position().key());
        assert_eq!(game.keys()[0], Position::startpos().key());
        let replayed = Game::from_moves(Position::startpos(), game.moves()).unwrap();
        assert_eq!(replayed.keys(), game.keys());
        assert!(game
            .verdict(&RuleOptions::default())
            .is_some_and(|v| v.result.pgn() == "1/2-1/2"));
    }

    #[test]
    fn illegal_moves_are_refused_with_their_number() {
        let start = Position::startpos();
        let h2e2 = mv(&start, "h2e2");
        let err = Game::from_moves(start.clone(), &[h2e2, h2e2]).unwrap_err();
        assert_eq!(err.number, 2);
        assert!(err.to_string().starts_with("move 2 of the list"));
        let mut game = Game::new(start);
        assert!(game.play(h2e2).is_ok());
        assert!(game.play(h2e2).is_err());
        assert_eq!(game.moves().len(), 1, "a refused move changes nothing");
        let err = Game::from_text(None, &["h2e2".into(), "zz99".into()], RankBase::Zero);
        let err = err.unwrap_err();
        assert!(matches!(&err, GameTextError::Move { number: 2, text, .. } if text == "zz99"));
        assert!(err.to_string().starts_with("move 2 of the list: "));
        let err = Game::from_text(Some("xyz"), &[], RankBase::Zero).unwrap_err();
        assert!(matches!(err, GameTextError::Fen(_)));
        assert!(err.to_string().starts_with("invalid FEN"));
    }
}
