//! An exact search of the repetition space: can a side force a win within a number of plies,
//! when every position is judged as the referee judges the game (mate and stalemate, the
//! repetition verdict at the threshold occurrence on the cycle from its first occurrence, the
//! no-capture limit, bare material) and every reply of the defender is searched?
//!
//! It exists to check the verdicts of `tests/data/false-decisive.tsv` independently of the
//! engine's search: no evaluation, no pruning, no transposition table (a stored result would
//! depend on the path, which is the very thing being checked). Slow, so only short horizons.

use engine_core::rules::{analyze_cycle, GameResult, RuleOptions};
use engine_core::{Color, Move, Position, Undo};

/// The game so far, played move by move, with what the referee needs to judge each ply.
pub struct ExactSearch<'a> {
    pos: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    /// `keys[k]` is the key of the position after `k` plies.
    keys: Vec<u64>,
    /// `last_capture[k]`: the ply of the last capture within the first `k` plies (0 if none):
    /// no position before it can repeat a later one.
    last_capture: Vec<usize>,
    options: &'a RuleOptions,
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
        if let Some(v) = engine_core::rules::try_adjudicate(start, history, options)
            .map_err(|e| e.to_string())?
        {
            return Err(format!("the game is already over: {}", v.explanation));
        }
        let mut search = ExactSearch {
            pos: start.clone(),
            moves: Vec::new(),
            undos: Vec::new(),
            keys: vec![start.key()],
            last_capture: vec![0],
            options,
            killers: Vec::new(),
            nodes: 0,
        };
        for &mv in history {
            search.push(mv);
        }
        Ok(search)
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plays a legal move.
    pub fn push(&mut self, mv: Move) {
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

    /// Takes back the last move.
    pub fn pop(&mut self) {
        let (Some(mv), Some(undo)) = (self.moves.pop(), self.undos.pop()) else {
            return;
        };
        self.pos.unmake_move(mv, undo);
        self.keys.pop();
        self.last_capture.pop();
    }

    /// The referee's verdict on the ply just played, or `None` while the game goes on. The same
    /// tests in the same order as `engine_core::rules::try_adjudicate` after each ply.
    pub fn outcome(&self) -> Option<GameResult> {
        let pos = &self.pos;
        if !pos.has_legal_move() {
            return Some(GameResult::win_for(pos.side_to_move().opponent()));
        }
        let ply = self.moves.len();
        let key = self.keys[ply];
        let threshold = self.options.repetition_threshold.max(2) as usize;
        let earlier = (self.last_capture[ply]..ply)
            .filter(|&k| (ply - k).is_multiple_of(2) && self.keys[k] == key);
        let (mut first, mut count) = (None, 0);
        for k in earlier {
            first.get_or_insert(k);
            count += 1;
        }
        if let Some(first) = first {
            if count + 1 >= threshold {
                // A key collision (not a real cycle) is not judged, as by the referee.
                if let Ok(report) = analyze_cycle(pos, &self.moves[first..], self.options) {
                    return Some(match report.loser {
                        Some(loser) => GameResult::win_for(loser.opponent()),
                        None => GameResult::Draw,
                    });
                }
            }
        }
        if self.options.no_capture_limit_reached(pos)
            || (self.options.insufficient_material_draw && pos.has_no_attacking_material())
        {
            return Some(GameResult::Draw);
        }
        None
    }

    /// Whether `attacker` can force the referee to declare it the winner within `plies` plies
    /// from the current position (which must be undecided): some move of the attacker, and every
    /// move of the defender, leads to a win within the plies left.
    pub fn forced_win(&mut self, attacker: Color, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        let ply = self.moves.len();
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, None);
        }
        let attacking = self.pos.side_to_move() == attacker;
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
        let mut moves: Vec<Move> = self.pos.legal_moves().iter().copied().collect();
        let rank = |mv: &Move| -> u8 {
            if Some(*mv) == killer {
                0
            } else if attacking && self.pos.gives_check(*mv) {
                1
            } else {
                2
            }
        };
        moves.sort_by_cached_key(rank);
        moves
    }
}
