//! Mate threats ("dọa hết", Điều 22 term 3: a move that threatens to checkmate the enemy general
//! next move). Under the Law a move that threatens mate is a mate threat, which may be repeated
//! (Điều 23 point 2, Điều 24.5-24.7), even when it also attacks a piece.
//!
//! Depth: **mate in one** after the move, i.e. if the opponent passed, the mover could checkmate
//! at once. That is the term's own wording ("nước sau", the next move). Deeper threats (a forced
//! run of checks, as in Điều 24.5 Hình 9) are not detected: the test runs inside the search's
//! repetition judge, and a checks-only mate-in-two search costs tens of microseconds per move.
//! The cycle judge asks only about moves that would otherwise continue a chase, so the test
//! costs nothing on the cycles that cannot be decided by it.
//!
//! Only a mate by a **quiet** move makes a mate threat. A mate that has to capture first is a
//! threat to capture (dọa bắt), judged as such: the Law's own examples rule the chase lost where
//! the chasing piece would mate by taking its target (Hình 53, 56) or another piece (Hình 74),
//! as the WXF manual does for the same diagrams.

use crate::piece::Color;
use crate::position::Position;

/// Whether `attacker`, having just moved in `board` (the opponent is to move and not in check),
/// threatens to checkmate next move: after a pass by the opponent, some legal, non-capturing
/// checking move of `attacker` leaves the opponent without a legal move. When the opponent is in
/// check the move is a check, not a mate threat, and the answer is `false`; so is the answer for
/// the side to move (it has not just moved). The board is lent by the caller (the cycle judge, which needs
/// no copy) and restored before returning.
pub(crate) fn threatens_mate_in_one_on(board: &mut Position, attacker: Color) -> bool {
    if board.side_to_move() == attacker || board.in_check() {
        return false;
    }
    let pass = board.make_null();
    // The attacker cannot be in check: it has just made a legal move.
    let mut found = false;
    for mv in board.legal_moves() {
        if board.piece_at(mv.to()).is_some() || !board.gives_check(mv) {
            continue;
        }
        let undo = board.make_move(mv);
        found = !board.has_legal_move();
        board.unmake_move(mv, undo);
        if found {
            break;
        }
    }
    board.unmake_null(pass);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("fen")
    }

    /// The question asked of a copy of `pos`.
    fn threatens_mate_in_one(pos: &Position, attacker: Color) -> bool {
        threatens_mate_in_one_on(&mut pos.clone(), attacker)
    }

    #[test]
    fn back_rank_mate_threat() {
        // Black general e9 alone; the red horse d6 covers e8. Red has just moved (Black to move):
        // a0a9 would be mate (d9 and f9 lie on the chariot's rank), so Red threatens mate.
        let p = pos("4k4/9/9/3N5/9/9/9/9/9/R2K5 b - - 0 1");
        assert!(threatens_mate_in_one(&p, Color::Red));
        // Without the horse the general escapes to e8: no mate in one.
        let p = pos("4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1");
        assert!(!threatens_mate_in_one(&p, Color::Red));
    }

    #[test]
    fn a_mate_that_captures_is_no_mate_threat() {
        // The red chariot a0 mates by a0a9 only if it takes the black horse there first: that is
        // a threat to capture, not a mate threat.
        let p = pos("n3k4/9/9/3N5/9/9/9/9/9/R2K5 b - - 0 1");
        assert!(!threatens_mate_in_one(&p, Color::Red));
        // Without the horse, the same a0a9 is a quiet mate: a mate threat.
        let p = pos("4k4/9/9/3N5/9/9/9/9/9/R2K5 b - - 0 1");
        assert!(threatens_mate_in_one(&p, Color::Red));
    }

    #[test]
    fn wrong_side_or_check_is_no_threat() {
        // Red to move: Red has not just moved, the question does not apply.
        let p = pos("4k4/9/9/3N5/9/9/9/9/9/R2K5 w - - 0 1");
        assert!(!threatens_mate_in_one(&p, Color::Red));
        // Black in check: that is a check, not a mate threat.
        let p = pos("R3k4/9/9/3N5/9/9/9/9/9/3K5 b - - 0 1");
        assert!(!threatens_mate_in_one(&p, Color::Red));
    }
}
