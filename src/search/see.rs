//! Static exchange evaluation: does a capture sequence on one square win at least a threshold?
//!
//! Attackers are recomputed from the shrinking occupancy after every capture, which handles the
//! xiangqi specifics for free: a cannon gains or loses its screen as pieces leave the line, and
//! x-ray chariots behind a capturer join in. Pins are ignored (as usual for SEE). The general
//! only takes part as a neighbour inside its palace, and only when the square is not defended.

use engine_core::{general_moves, Bitboard, Color, Move, PieceKind, Position, Square};

/// Exchange values by kind (general effectively infinite).
pub const SEE_VALUE: [i32; 7] = [10_000, 200, 200, 400, 900, 450, 100];

/// Value of the piece on `sq`, 0 if empty.
#[inline(always)]
pub fn value_on(pos: &Position, sq: Square) -> i32 {
    pos.piece_at(sq).map_or(0, |p| SEE_VALUE[p.kind().index()])
}

/// Pieces of `color` in `occ` that can capture on `to`.
fn attackers(pos: &Position, to: Square, color: Color, occ: Bitboard) -> Bitboard {
    let gsq = pos.general_square(color);
    let generals = pos.pieces_of(color, PieceKind::General);
    let mut att = pos.attackers_to(to, color, occ).without(generals);
    if occ.contains(gsq) && general_moves(gsq).contains(to) {
        att.insert(gsq);
    }
    att
}

/// The least valuable of `set` (non-empty).
fn least_valuable(pos: &Position, set: Bitboard) -> (Square, i32) {
    const ORDER: [PieceKind; 7] = [
        PieceKind::Soldier,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Chariot,
        PieceKind::General,
    ];
    for kind in ORDER {
        if let Some(sq) = (set & pos.pieces_of_kind(kind)).first() {
            return (sq, SEE_VALUE[kind.index()]);
        }
    }
    unreachable!("least_valuable is only called with a non-empty attacker set")
}

/// Whether `mv` (captures and quiet moves alike) wins at least `threshold` in the exchange on its
/// destination square.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let Some(mover) = pos.piece_at(from) else {
        return false;
    };
    let mut swap = value_on(pos, to) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[mover.kind().index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(Bitboard::from_square(from)) | Bitboard::from_square(to);
    let mut stm = mover.color();
    let mut res = true;
    loop {
        stm = stm.opponent();
        let ours = attackers(pos, to, stm, occ);
        if ours.is_empty() {
            break;
        }
        res = !res;
        let (sq, val) = least_valuable(pos, ours);
        if pos.piece_at(sq).map(|p| p.kind()) == Some(PieceKind::General) {
            // The general may only capture when the other side has nothing left to recapture.
            let theirs = attackers(pos, to, stm.opponent(), occ);
            return if theirs.any() { !res } else { res };
        }
        swap = val - swap;
        if swap < res as i32 {
            break;
        }
        occ = occ.without(Bitboard::from_square(sq));
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, text: &str) -> Move {
        pos.parse_move(text, engine_core::RankBase::Zero).unwrap()
    }

    #[test]
    fn chariot_takes_defended_soldier_loses_material() {
        // Red chariot e2 takes the soldier on e6, which the black chariot on e8 defends.
        let pos = Position::from_fen("3k5/4r4/9/4p4/9/9/9/4R4/9/5K3 w - - 0 1").unwrap();
        let m = mv(&pos, "e2e6");
        assert!(!see_ge(&pos, m, 0));
        assert!(see_ge(&pos, m, -900));
    }

    #[test]
    fn undefended_capture_wins_the_piece() {
        let pos = Position::from_fen("3k5/9/9/4n4/9/9/9/4R4/9/5K3 w - - 0 1").unwrap();
        let m = mv(&pos, "e2e6");
        assert!(see_ge(&pos, m, 400));
        assert!(!see_ge(&pos, m, 401));
    }

    #[test]
    fn cannon_screen_appears_after_the_first_capture() {
        // Black cannon e9 has no screen towards e6 until Red's chariot lands there with a black
        // horse on e7 between: the horse on e7 is the screen, so the cannon recaptures.
        let pos = Position::from_fen("3kc4/9/4n4/4p4/9/9/9/4R4/9/5K3 w - - 0 1").unwrap();
        let m = mv(&pos, "e2e6");
        assert!(!see_ge(&pos, m, 0));
    }
}
