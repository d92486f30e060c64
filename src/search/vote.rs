//! Which thread's decision a Lazy SMP search plays. The threads search the same root and end
//! at different depths with different best moves; the one played is chosen by a vote in which
//! each thread backs its best move with a weight that grows with its completed depth and with
//! how much better its score is than the worst thread's. A thread that sees a mate the others
//! missed wins outright; one that only sees itself mated never does.

use super::score::MATE_BOUND;
use super::SearchResult;
use engine_core::Move;

/// Added to every thread's score above the lowest one, so that the thread with the lowest score
/// still has a vote (internal evaluation units).
const VOTE_SCORE_OFFSET: i64 = 14;

/// The index (into `results`, the main thread's first) of the thread whose move is played.
///
/// Only threads that completed `min_depth` iterations (and at least one) take part: a
/// depth-limited search passes the main thread's depth, so that the move played comes from a
/// search as deep as the one asked for. The main thread always completes one iteration (unless
/// depth 1 alone outgrew its node allowance), so index 0 is the fallback.
pub(super) fn best_thread(results: &[SearchResult], min_depth: i32) -> usize {
    let min_depth = min_depth.max(1);
    let voters = || results.iter().filter(|r| r.depth >= min_depth);
    let Some(min_score) = voters().map(|r| r.score).min() else {
        return 0;
    };
    let mut votes: Vec<(Move, i64)> = Vec::with_capacity(results.len());
    for r in voters() {
        let weight =
            (i64::from(r.score) - i64::from(min_score) + VOTE_SCORE_OFFSET) * i64::from(r.depth);
        match votes.iter_mut().find(|(mv, _)| *mv == r.best) {
            Some((_, v)) => *v += weight,
            None => votes.push((r.best, weight)),
        }
    }
    let votes_for = |mv: Move| votes.iter().find(|(m, _)| *m == mv).map_or(0, |&(_, v)| v);

    let mut best = results
        .iter()
        .position(|r| r.depth >= min_depth)
        .unwrap_or(0);
    for (i, r) in results.iter().enumerate().skip(best + 1) {
        if r.depth < min_depth {
            continue;
        }
        let b = &results[best];
        let better = if b.score >= MATE_BOUND {
            // The best so far mates: only a shorter mate replaces it.
            r.score > b.score
        } else if r.score >= MATE_BOUND {
            true
        } else if r.score <= -MATE_BOUND {
            false
        } else {
            let (rv, bv) = (votes_for(r.best), votes_for(b.best));
            rv > bv || (rv == bv && r.depth > b.depth)
        };
        if better {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::mate_in;
    use engine_core::Position;

    fn result(mv: Move, score: i32, depth: i32) -> SearchResult {
        SearchResult {
            best: mv,
            ponder: None,
            score,
            depth,
            nodes: 0,
            lines: Vec::new(),
        }
    }

    /// The vote of a search without a depth limit.
    fn best_thread_of(results: &[SearchResult]) -> usize {
        best_thread(results, 1)
    }

    fn two_moves() -> (Move, Move) {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        (moves[0], moves[1])
    }

    #[test]
    fn a_single_thread_is_its_own_choice() {
        let (a, _) = two_moves();
        assert_eq!(best_thread_of(&[result(a, 10, 8)]), 0);
    }

    #[test]
    fn the_move_backed_by_more_depth_wins() {
        let (a, b) = two_moves();
        // Same scores: the helper two plies deeper outvotes the main thread.
        assert_eq!(best_thread_of(&[result(a, 20, 10), result(b, 20, 12)]), 1);
        // Same depth and score: the main thread keeps its move.
        assert_eq!(best_thread_of(&[result(a, 20, 10), result(b, 20, 10)]), 0);
        // Two threads agreeing outvote a deeper third one.
        let votes = [result(a, 20, 10), result(b, 20, 12), result(a, 20, 10)];
        assert_eq!(best_thread_of(&votes), 0);
    }

    #[test]
    fn a_better_score_carries_weight() {
        let (a, b) = two_moves();
        // The helper is one ply shallower but sees its move 100 units better.
        assert_eq!(best_thread_of(&[result(a, 0, 10), result(b, 100, 9)]), 1);
    }

    #[test]
    fn mates_decide_and_threads_without_an_iteration_do_not_vote() {
        let (a, b) = two_moves();
        let mate = mate_in(7);
        assert_eq!(best_thread_of(&[result(a, 50, 14), result(b, mate, 9)]), 1);
        assert_eq!(best_thread_of(&[result(a, mate, 9), result(b, 50, 14)]), 0);
        assert_eq!(
            best_thread_of(&[result(a, mate_in(9), 9), result(b, mate_in(5), 9)]),
            1
        );
        assert_eq!(
            best_thread_of(&[result(a, -mate, 9), result(b, -mate, 12)]),
            0
        );
        assert_eq!(best_thread_of(&[result(a, 0, 3), result(b, 900, 0)]), 0);
    }

    #[test]
    fn a_depth_limited_search_plays_a_move_searched_as_deep_as_asked() {
        let (a, b) = two_moves();
        // Without a limit the shallower helper's far better score wins; with the main thread's
        // depth as the minimum it does not vote, nor does its mate.
        let votes = [result(a, 0, 10), result(b, 300, 9)];
        assert_eq!(best_thread(&votes, 1), 1);
        assert_eq!(best_thread(&votes, 10), 0);
        assert_eq!(
            best_thread(&[result(a, 0, 10), result(b, mate_in(3), 9)], 10),
            0
        );
        // A helper that went deeper than the main thread still votes.
        assert_eq!(best_thread(&[result(a, 0, 10), result(b, 300, 11)], 10), 1);
    }
}
