//! Score constants and mate-distance arithmetic shared by the search, the TT and the protocols.

/// Deepest ply the search can reach (arrays are sized by it).
pub const MAX_PLY: usize = 128;
/// Score of delivering mate right now; `MATE - n` = mate in `n` plies. A win decided by a rule
/// (perpetual check or chase) scores like a mate at the same distance, so that the search prefers
/// whichever loss comes later (longest resistance).
pub const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score: the initial window bound.
pub const INFINITE: i32 = MATE + 1;
/// Score of a drawn position (repetition, no-capture rule, insufficient material).
pub const DRAW: i32 = 0;
/// A rule win expected but not proven: the loser has repeated a position by a cycle in which it
/// offends, near the search's horizon, where the search does not follow the repetition to the
/// occurrence the referee judges (the loser might still come back by a cycle of another kind).
/// Beyond any evaluation, so the search avoids the offence as it avoids a loss, and outside the
/// mate band, so it is never reported as a mate.
pub const EXPECTED_RULE_WIN: i32 = 25_000;
/// Scores at or beyond this magnitude claim a decided game: a mate, or a rule win expected (less
/// the plies to it). A node whose best move so far scores a loss this large prunes no other move,
/// since only a move searched may refute the claim.
pub const DECIDED_BOUND: i32 = EXPECTED_RULE_WIN - MAX_PLY as i32;

/// The score of being mated `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The score of mating `ply` plies from the root.
#[inline(always)]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The score of an expected (unproven) rule loss `ply` plies from the root: a later one is less
/// bad, as with mates.
#[inline(always)]
pub const fn expected_rule_loss(ply: usize) -> i32 {
    -EXPECTED_RULE_WIN + ply as i32
}

/// Whether `score` says a forced mate was found (for either side).
#[inline(always)]
pub const fn is_mate(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// Whether `score` claims a decided game (for either side): a mate, or an expected rule win.
/// Pruning that stands in for a search (null move, multi-cut, futility) never makes such a claim.
#[inline(always)]
pub const fn is_decided(score: i32) -> bool {
    score >= DECIDED_BOUND || score <= -DECIDED_BOUND
}

/// Moves (not plies) to mate, positive when we mate: the number UCI prints as `mate N`. Counted
/// in whole moves rounded up, so that a rule loss completed by our own next move (one ply away)
/// is `mate -1`, like being mated after one move.
pub fn mate_moves(score: i32) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -((MATE + score + 1) / 2)
    }
}

/// Converts a root-relative mate score (or rule win) to a node-relative one for storing in the TT.
#[inline(always)]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if !is_mate(score) {
        score
    } else if score > 0 {
        score + ply as i32
    } else {
        score - ply as i32
    }
}

/// Inverse of [`to_tt`].
#[inline(always)]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if !is_mate(score) {
        score
    } else if score > 0 {
        score - ply as i32
    } else {
        score + ply as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_moves_counts_moves_not_plies() {
        assert_eq!(mate_moves(mate_in(1)), 1);
        assert_eq!(mate_moves(mate_in(3)), 2);
        assert_eq!(mate_moves(mate_in(5)), 3);
        assert_eq!(mate_moves(mated_in(0)), 0);
        assert_eq!(mate_moves(mated_in(2)), -1);
        assert_eq!(mate_moves(mated_in(4)), -2);
        // Rule outcomes can fall on the other parity: a rule loss by our own move, a rule win
        // by the opponent's.
        assert_eq!(mate_moves(mated_in(1)), -1);
        assert_eq!(mate_moves(mated_in(3)), -2);
        assert_eq!(mate_moves(mate_in(2)), 1);
    }

    #[test]
    fn tt_conversion_round_trips() {
        for s in [mate_in(7), mated_in(6), 123, -123] {
            assert_eq!(from_tt(to_tt(s, 9), 9), s);
        }
        // A mate in 3 plies from a node at ply 9 is a mate in 5 from a node at ply 7.
        assert_eq!(from_tt(to_tt(mate_in(12), 9), 7), mate_in(10));
        assert_eq!(from_tt(to_tt(mated_in(12), 9), 7), mated_in(10));
    }
}
