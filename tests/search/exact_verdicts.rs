//! The verdicts of `tests/data/false-decisive.tsv`, checked by an exact search of the repetition
//! space (`repetition_suite::exact`): every position judged as the referee judges the game, every
//! reply of the defender searched, no evaluation and no pruning. A row's `exact` column gives the
//! plies: a `win` row's side forces a win in exactly that many plies at best; in the other rows
//! the sides the verdict denies a win have none within that many plies.
//!
//! The full check takes minutes in a release build and is ignored by default (`cargo test
//! --profile test-release --test search -- --ignored exact_verdicts::`); the default run checks
//! the short wins in full and every other row to a short horizon, that the exact search's referee judges
//! each ply as a fresh replay does (and its one-ply wins as the referee finds them), and that every short mate or rule win the engine's search reports from
//! positions of repeating random games is a forced win by the exact search.

use cotuong::game::Game;
use cotuong::search::{SearchRequest, Searcher, MATE};
use engine_core::{
    move_text, try_adjudicate, Color, GameResult, Move, Position, RankBase, RuleId, SplitMix64,
};
use std::collections::BTreeMap;
use std::time::Instant;

use crate::repetition_suite;
use repetition_suite::exact::ExactSearch;
use repetition_suite::reported::{claim, iterations};
use repetition_suite::rows::{rows, Row, Verdict};

/// The horizon of the default run for rows that deny a win.
const FAST_PLIES: u32 = 5;

/// The default run checks `win` rows in full up to this length.
const FAST_WIN_PLIES: u32 = 7;

fn start_of(row: &Row) -> (Position, Vec<Move>) {
    let game = Game::from_text(Some(&row.fen), &row.moves, RankBase::Zero)
        .unwrap_or_else(|e| panic!("{}: {e}", row.id));
    (game.start().clone(), game.moves().to_vec())
}

/// Checks one row's verdict with the exact search to `plies`; the failure, if any.
fn check(row: &Row, plies: u32, full_win: bool) -> Option<String> {
    let (start, history) = start_of(row);
    let clock = Instant::now();
    let mut search = ExactSearch::new(&start, &history, &row.rules)
        .unwrap_or_else(|e| panic!("{}: {e}", row.id));
    let mut failure = None;
    if let Verdict::Win(c) = row.verdict {
        if full_win {
            let found = search.shortest_win(c, row.exact_plies);
            if found != Some(row.exact_plies) {
                failure = Some(format!(
                    "{}: {} forces a win in {found:?} plies, the row says {}",
                    row.id,
                    c.name(),
                    row.exact_plies
                ));
            }
        }
    }
    for side in row.verdict.sides_without_a_win() {
        // Deepening from one ply fills the move-ordering table first: the same answer, faster.
        if search.shortest_win(side, plies).is_some() {
            failure.get_or_insert(format!(
                "{}: {} forces a win within {plies} plies, which the verdict denies",
                row.id,
                side.name()
            ));
        }
    }
    eprintln!(
        "{}: {plies} plies, {} positions, {:.1} s{}",
        row.id,
        search.nodes,
        clock.elapsed().as_secs_f64(),
        if failure.is_some() { ", FAILED" } else { "" }
    );
    failure
}

#[test]
fn every_row_is_checked_to_a_horizon() {
    for row in rows() {
        assert!(row.exact_plies >= 1, "{}: no exact horizon", row.id);
    }
}

#[test]
fn short_wins_in_full_and_every_denied_win_to_a_short_horizon() {
    let failures: Vec<String> = rows()
        .iter()
        .filter_map(|row| {
            let full_win =
                matches!(row.verdict, Verdict::Win(_)) && row.exact_plies <= FAST_WIN_PLIES;
            check(row, row.exact_plies.min(FAST_PLIES), full_win)
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "minutes in a release build: cargo test --profile test-release --test search -- --ignored exact_verdicts::"]
fn every_verdict_holds_under_an_exact_search() {
    let failures: Vec<String> = rows()
        .iter()
        .filter_map(|row| check(row, row.exact_plies, true))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Random games from the suite's positions, with many moves taken back by the same piece so that
/// positions repeat, and before every ply a side line of up to three plies played and taken back
/// (as the exact search does): after every ply the verdict of the exact search's referee, which
/// has played and taken back those side lines, equals the referee's on a fresh replay of the
/// game. The exact search's own conclusion is compared too: the side to move forces a win
/// within one ply exactly when one of its moves ends the game in its favour on a fresh replay.
#[test]
fn the_referee_after_side_lines_taken_back_judges_as_on_a_fresh_replay() {
    let mut rng = SplitMix64::new(46);
    let (mut plies, mut decided) = (0, BTreeMap::<&str, usize>::new());
    let mut one_ply_wins = 0;
    for row in rows() {
        for _ in 0..8 {
            let (start, history) = start_of(&row);
            let mut search = ExactSearch::new(&start, &history, &row.rules)
                .unwrap_or_else(|e| panic!("{}: {e}", row.id));
            let mut moves = history.clone();
            for _ in 0..60 {
                let side_line = rng.below(4);
                let mut played = 0;
                while played < side_line && search.position().has_legal_move() {
                    let legal = search.position().legal_moves();
                    search.push(legal[rng.below(legal.len() as u64) as usize]);
                    played += 1;
                }
                for _ in 0..played {
                    search.pop();
                }
                let mv = walk_move(search.position(), &moves, &mut rng);
                search.push(mv);
                moves.push(mv);
                plies += 1;
                let ours = search.outcome();
                let referee = try_adjudicate(&start, &moves, &row.rules).expect("legal moves");
                assert_eq!(
                    ours,
                    referee.as_ref().map(|v| v.result),
                    "{}: after {}",
                    row.id,
                    moves
                        .iter()
                        .map(|&m| move_text(m, RankBase::Zero))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                if let Some(verdict) = referee {
                    *decided.entry(verdict.rule.id()).or_default() += 1;
                    break;
                }
                let us = search.position().side_to_move();
                let wins = search.position().legal_moves().iter().any(|&mv| {
                    let line = [moves.as_slice(), &[mv]].concat();
                    try_adjudicate(&start, &line, &row.rules)
                        .expect("legal moves")
                        .is_some_and(|v| v.result == GameResult::win_for(us))
                });
                assert_eq!(
                    search.forced_win(us, 1),
                    wins,
                    "{}: a win in one ply for {} after {}",
                    row.id,
                    us.name(),
                    moves
                        .iter()
                        .map(|&m| move_text(m, RankBase::Zero))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                one_ply_wins += usize::from(wins);
            }
        }
    }
    eprintln!("{plies} plies; decided by {decided:?}; {one_ply_wins} wins in one ply");
    assert!(one_ply_wins > 0, "no win in one ply to compare");
    // The walks must reach the verdicts that depend on the path, or they test little.
    for rule in [
        RuleId::Checkmate,
        RuleId::PerpetualCheck,
        RuleId::PerpetualChase,
        RuleId::RepetitionDraw,
    ] {
        assert!(
            decided.contains_key(rule.id()),
            "no {} in {decided:?}",
            rule.id()
        );
    }
}

/// A move of a random game that repeats positions: half the time the piece that moved two plies
/// ago goes back, if it can; otherwise any legal move.
fn walk_move(pos: &Position, moves: &[Move], rng: &mut SplitMix64) -> Move {
    let legal = pos.legal_moves();
    let back = moves.len().checked_sub(2).map(|i| moves[i]).and_then(|m| {
        legal
            .iter()
            .copied()
            .find(|l| l.from() == m.to() && l.to() == m.from())
    });
    match back {
        Some(b) if rng.next_u64().is_multiple_of(2) => b,
        _ => legal[rng.below(legal.len() as u64) as usize],
    }
}

/// The depth of the engine's searches in the property test below (less in a debug build).
const ENGINE_DEPTH: i32 = if cfg!(debug_assertions) { 5 } else { 8 };

/// The longest decisive score (in plies) that the property test below proves exactly.
const PROOF_PLIES: u32 = 7;

/// A decisive score is a proof: from positions of repeating random games started at the suite's
/// rows, the engine searches; every mate or rule win it reports within [`PROOF_PLIES`] plies
/// (exact, or a bound on the winning side) must be a forced win of that side within those plies
/// by the exact search.
#[test]
fn the_engines_short_decisive_scores_are_forced_wins() {
    let mut rng = SplitMix64::new(4646);
    let mut searcher = Searcher::new(16, 1).expect("a searcher");
    let (mut proved, mut searches) = (0, 0);
    let mut failures = Vec::new();
    for row in rows() {
        for _ in 0..4 {
            let (start, mut moves) = start_of(&row);
            let mut exact = ExactSearch::new(&start, &moves, &row.rules)
                .unwrap_or_else(|e| panic!("{}: {e}", row.id));
            for _ in 0..rng.below(24) {
                let mv = walk_move(exact.position(), &moves, &mut rng);
                exact.push(mv);
                if exact.outcome().is_some() {
                    exact.pop();
                    break;
                }
                moves.push(mv);
            }
            let game = Game::from_moves(start.clone(), &moves).expect("legal moves");
            let us = game.position().side_to_move();
            let request = SearchRequest {
                depth: Some(ENGINE_DEPTH),
                rules: row.rules.clone(),
                ..SearchRequest::default()
            };
            searcher.clear();
            searches += 1;
            // Decisive claims within the proof horizon: depth, winner, plies to the end.
            let claims: Vec<(i32, Color, u32)> = iterations(&mut searcher, &game, &request)
                .into_iter()
                .filter_map(|(depth, score, bound, _)| {
                    let we_win = claim(score, bound)?;
                    let plies = (MATE - score.abs()) as u32;
                    let winner = if we_win { us } else { us.opponent() };
                    (plies <= PROOF_PLIES).then_some((depth, winner, plies))
                })
                .collect();
            for (depth, winner, plies) in claims {
                proved += 1;
                if !exact.forced_win(winner, plies) {
                    failures.push(format!(
                        "{} after {}: depth {depth} claims a win for {} within {plies} plies; the \
                         exact search finds none",
                        row.id,
                        moves
                            .iter()
                            .map(|&m| move_text(m, RankBase::Zero))
                            .collect::<Vec<_>>()
                            .join(" "),
                        winner.name()
                    ));
                }
            }
        }
    }
    eprintln!("{searches} searches, {proved} decisive scores checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Enough claims to make the test mean something.
    assert!(proved >= 20, "only {proved} decisive scores to check");
}
