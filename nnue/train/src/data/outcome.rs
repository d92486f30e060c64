//! How a recorded game ended: its result, the reason, and the consistency rules between them and
//! the final position that the writer and the reader both enforce.

use engine_core::{GameResult, Position, RuleId};
use std::fmt;

/// Why a game ended. The discriminant is the code stored in the record.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Termination {
    /// The side to move is in check with no legal move (it loses).
    Checkmate = 0,
    /// The side to move is not in check and has no legal move (it loses).
    Stalemate = 1,
    /// A repetition in which one side checked on every move (it loses).
    PerpetualCheck = 2,
    /// A repetition in which one side chased on every move (it loses).
    PerpetualChase = 3,
    /// A repetition with no offender, or offenders on both sides (draw).
    RepetitionDraw = 4,
    /// The no-capture limit (draw).
    NoCapture = 5,
    /// Neither side has a chariot, horse, cannon or soldier (draw).
    InsufficientMaterial = 6,
    /// The searches agreed that one side is winning.
    AdjudicatedWin = 7,
    /// The searches agreed that the game is drawn.
    AdjudicatedDraw = 8,
    /// The game reached the generator's ply cap (draw).
    PlyCap = 9,
}

impl Termination {
    /// Every termination, in code order.
    pub const ALL: [Termination; 10] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::PerpetualCheck,
        Termination::PerpetualChase,
        Termination::RepetitionDraw,
        Termination::NoCapture,
        Termination::InsufficientMaterial,
        Termination::AdjudicatedWin,
        Termination::AdjudicatedDraw,
        Termination::PlyCap,
    ];

    /// The stored code.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The termination with this code, if any.
    pub fn from_code(code: u8) -> Option<Termination> {
        Termination::ALL.get(usize::from(code)).copied()
    }

    /// A stable machine-readable name (the referee's rule ids where they exist).
    pub const fn id(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::PerpetualCheck => "perpetual-check",
            Termination::PerpetualChase => "perpetual-chase",
            Termination::RepetitionDraw => "repetition-draw",
            Termination::NoCapture => "no-capture",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::AdjudicatedWin => "adjudicated-win",
            Termination::AdjudicatedDraw => "adjudicated-draw",
            Termination::PlyCap => "ply-cap",
        }
    }

    /// Whether this reason always ends the game drawn (otherwise it always ends it won).
    const fn is_draw(self) -> bool {
        matches!(
            self,
            Termination::RepetitionDraw
                | Termination::NoCapture
                | Termination::InsufficientMaterial
                | Termination::AdjudicatedDraw
                | Termination::PlyCap
        )
    }
}

impl From<RuleId> for Termination {
    fn from(rule: RuleId) -> Termination {
        match rule {
            RuleId::Checkmate => Termination::Checkmate,
            RuleId::Stalemate => Termination::Stalemate,
            RuleId::PerpetualCheck => Termination::PerpetualCheck,
            RuleId::PerpetualChase => Termination::PerpetualChase,
            RuleId::RepetitionDraw => Termination::RepetitionDraw,
            RuleId::NoCapture => Termination::NoCapture,
            RuleId::InsufficientMaterial => Termination::InsufficientMaterial,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The stored result byte: Red's points times two (0 Black wins, 1 draw, 2 Red wins).
pub fn result_code(result: GameResult) -> u8 {
    match result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::RedWins => 2,
    }
}

/// The result with this stored code, if any.
pub fn result_from_code(code: u8) -> Option<GameResult> {
    match code {
        0 => Some(GameResult::BlackWins),
        1 => Some(GameResult::Draw),
        2 => Some(GameResult::RedWins),
        _ => None,
    }
}

/// A result, reason and final position that cannot belong together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutcomeError {
    /// The reason fixes a different result (e.g. a drawn checkmate, or a win by the mated side).
    ResultContradictsReason {
        /// The recorded result.
        result: GameResult,
        /// The recorded reason.
        termination: Termination,
    },
    /// Recorded as checkmate, but the final position is not mate.
    NotCheckmate,
    /// Recorded as stalemate, but the side to move is in check or has a legal move.
    NotStalemate,
    /// The final position has no legal move (the game ended by mate or stalemate) but another
    /// reason is recorded.
    NoLegalMoveLeft(Termination),
    /// Recorded as insufficient material, but attacking material remains.
    MaterialRemains,
}

impl fmt::Display for OutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutcomeError::ResultContradictsReason {
                result,
                termination,
            } => write!(
                f,
                "result {} contradicts termination {termination}",
                result.pgn()
            ),
            OutcomeError::NotCheckmate => {
                write!(
                    f,
                    "recorded as checkmate but the final position is not mate"
                )
            }
            OutcomeError::NotStalemate => {
                write!(
                    f,
                    "recorded as stalemate but the final position is not stalemate"
                )
            }
            OutcomeError::NoLegalMoveLeft(t) => write!(
                f,
                "recorded as {t} but the side to move has no legal move in the final position"
            ),
            OutcomeError::MaterialRemains => write!(
                f,
                "recorded as insufficient material but attacking material remains"
            ),
        }
    }
}

impl std::error::Error for OutcomeError {}

/// Checks that `result` and `termination` can end a game in `last` (the position after the last
/// recorded move). Mate and stalemate are verified on the board (the side to move lost); bare
/// material is verified; a position without legal moves must be recorded as mate or stalemate;
/// draws by rule, adjudication or cap must be draws and perpetual offences and adjudicated wins
/// must be wins. Repetition verdicts are not re-judged (that needs the rule options used).
pub fn check_outcome(
    last: &Position,
    result: GameResult,
    termination: Termination,
) -> Result<(), OutcomeError> {
    let contradiction = Err(OutcomeError::ResultContradictsReason {
        result,
        termination,
    });
    let has_move = last.has_legal_move();
    match termination {
        Termination::Checkmate | Termination::Stalemate => {
            if result != GameResult::win_for(last.side_to_move().opponent()) {
                return contradiction;
            }
            let in_check = last.in_check();
            if termination == Termination::Checkmate && (has_move || !in_check) {
                return Err(OutcomeError::NotCheckmate);
            }
            if termination == Termination::Stalemate && (has_move || in_check) {
                return Err(OutcomeError::NotStalemate);
            }
            Ok(())
        }
        _ => {
            if termination.is_draw() != (result == GameResult::Draw) {
                return contradiction;
            }
            if !has_move {
                return Err(OutcomeError::NoLegalMoveLeft(termination));
            }
            if termination == Termination::InsufficientMaterial && !last.has_no_attacking_material()
            {
                return Err(OutcomeError::MaterialRemains);
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for (i, t) in Termination::ALL.into_iter().enumerate() {
            assert_eq!(t.code() as usize, i);
            assert_eq!(Termination::from_code(t.code()), Some(t));
        }
        assert_eq!(Termination::from_code(10), None);
        for r in [GameResult::RedWins, GameResult::Draw, GameResult::BlackWins] {
            assert_eq!(result_from_code(result_code(r)), Some(r));
        }
        assert_eq!(result_from_code(3), None);
    }

    #[test]
    fn outcomes_are_checked_against_the_board() {
        // Black to move is mated: one red chariot checks along rank 9, the other covers rank 8.
        let mate = Position::from_fen("R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert!(!mate.has_legal_move());
        assert_eq!(
            check_outcome(&mate, GameResult::RedWins, Termination::Checkmate),
            Ok(())
        );
        assert!(check_outcome(&mate, GameResult::BlackWins, Termination::Checkmate).is_err());
        assert_eq!(
            check_outcome(&mate, GameResult::RedWins, Termination::Stalemate),
            Err(OutcomeError::NotStalemate)
        );
        assert_eq!(
            check_outcome(&mate, GameResult::RedWins, Termination::AdjudicatedWin),
            Err(OutcomeError::NoLegalMoveLeft(Termination::AdjudicatedWin))
        );
        let start = Position::startpos();
        assert_eq!(
            check_outcome(&start, GameResult::BlackWins, Termination::Checkmate),
            Err(OutcomeError::NotCheckmate)
        );
        assert_eq!(
            check_outcome(&start, GameResult::Draw, Termination::InsufficientMaterial),
            Err(OutcomeError::MaterialRemains)
        );
        assert!(check_outcome(&start, GameResult::RedWins, Termination::PlyCap).is_err());
        assert!(check_outcome(&start, GameResult::Draw, Termination::PerpetualChase).is_err());
        assert_eq!(
            check_outcome(&start, GameResult::BlackWins, Termination::PerpetualCheck),
            Ok(())
        );
    }
}
