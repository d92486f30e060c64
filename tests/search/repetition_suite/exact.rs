//! An exact search of the repetition space: can a side force a win within a number of plies,
//! when every position is judged as the referee judges the game (mate and stalemate, the
//! repetition verdict at the threshold occurrence on the cycle from its first occurrence, the
//! no-capture limit, bare material) and every reply of the defender is searched?
//!
//! It exists to check the verdicts of `tests/data/false-decisive.tsv` independently of the
//! engine's search: no evaluation, no pruning, no transposition table (a stored result would
//! depend on the path, which is the very thing being checked). Slow, so only short horizons.

use engine_core::{Color, GameResult, Move, Position, Referee, RuleOptions};

/// The game so far, played move by move and judged after each ply by the referee itself.
pub struct ExactSearch<'a> {
    referee: Referee<'a>,
    /// Per ply from the game's start: the last move that decided a node there (a win for the
    /// attacker, a refutation for the defender), tried first. Order only; results do not depend
    /// on it.
    killers: Vec<Option<Move>>,
    /// Positions judged so far.
    pub nodes: u64,
}

impl<'a> ExactSearch<'a> {
    /// Replays `history` from `start`. Fails on an illegal move, or when the referee has already
    /// ended the game.
    pub fn new(
        start: &Position,
        history: &[Move],
        options: &'a RuleOptions,
    ) -> Result<ExactSearch<'a>, String> {
        let mut referee = Referee::new(start, options);
        for (i, &mv) in history.iter().enumerate() {
            if let Some(v) = referee.verdict() {
                return Err(format!("the game is already over: {}", v.explanation));
            }
            if !referee.position().is_legal(mv) {
                return Err(format!("move {} of the history is not legal", i + 1));
            }
            referee.play(mv);
        }
        if let Some(v) = referee.verdict() {
            return Err(format!("the game is already over: {}", v.explanation));
        }
        Ok(ExactSearch {
            referee,
            killers: Vec::new(),
            nodes: 0,
        })
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.referee.position()
    }

    /// Plays a legal move.
    pub fn push(&mut self, mv: Move) {
        self.referee.play(mv);
    }

    /// Takes back the last move.
    pub fn pop(&mut self) {
        self.referee.take_back();
    }

    /// The referee's result after the ply just played, or `None` while the game goes on.
    pub fn outcome(&self) -> Option<GameResult> {
        self.referee.verdict().map(|v| v.result)
    }

    /// Whether `attacker` can force the referee to declare it the winner within `plies` plies
    /// from the current position (which must be undecided): some move of the attacker, and every
    /// move of the defender, leads to a win within the plies left.
    pub fn forced_win(&mut self, attacker: Color, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        let ply = self.referee.plies();
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, None);
        }
        let attacking = self.position().side_to_move() == attacker;
        let moves = self.ordered_moves(attacking, self.killers[ply]);
        for mv in moves {
            self.push(mv);
            self.nodes += 1;
            let won = match self.outcome() {
                Some(result) => result == GameResult::win_for(attacker),
                None => self.forced_win(attacker, plies - 1),
            };
            self.pop();
            // The attacker needs one winning move; the defender one move that does not lose.
            if won == attacking {
                self.killers[ply] = Some(mv);
                return attacking;
            }
        }
        !attacking
    }

    /// The fewest plies within which `attacker` forces a win, if at most `max_plies`.
    pub fn shortest_win(&mut self, attacker: Color, max_plies: u32) -> Option<u32> {
        (1..=max_plies).find(|&plies| self.forced_win(attacker, plies))
    }

    /// Legal moves, the killer first, then (for the attacker) checks, then the rest.
    fn ordered_moves(&self, attacking: bool, killer: Option<Move>) -> Vec<Move> {
        let pos = self.position();
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let rank = |mv: &Move| -> u8 {
            if Some(*mv) == killer {
                0
            } else if attacking && pos.gives_check(*mv) {
                1
            } else {
                2
            }
        };
        moves.sort_by_cached_key(rank);
        moves
    }
}
