//! The in-process search API (`cotuong::search::Searcher`), as data generation uses it: node
//! limits that do not depend on the clock, soft node limits, MultiPV lines, game histories,
//! clearing between games, and independent searchers on parallel threads.

use cotuong::game::Game;
use cotuong::search::{
    mate_in, Info, ScoreBound, SearchRequest, SearchResult, Searcher, MATE_BOUND,
    SOFT_NODES_HARD_CAP, THREAD_STACK_BYTES,
};
use engine_core::{move_text, Move, Position, RankBase};

/// The start position, middle-game and endgame positions (some from the bench set).
const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "2bakab2/9/2n1c1n2/p3p3p/2p6/6P2/P3P3P/2N1C1N2/9/2BAKAB2 w - - 0 1",
    "3k5/4a4/4ba3/9/2n6/9/9/9/4A4/2BAK1R2 w - - 0 1",
];

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).expect("test FEN"))
}

fn nodes(n: u64) -> SearchRequest {
    SearchRequest {
        nodes: Some(n),
        ..SearchRequest::default()
    }
}

/// One root line: move, score, principal variation.
type Line = (Move, i32, Vec<Move>);

/// Everything a search decided, in comparable form: best move, score, depth, nodes, lines.
fn summary(r: &SearchResult) -> (Move, i32, i32, u64, Vec<Line>) {
    let lines = r
        .lines
        .iter()
        .map(|l| (l.mv, l.reported_score().0, l.pv.clone()))
        .collect();
    (r.best, r.score, r.depth, r.nodes, lines)
}

fn search(s: &mut Searcher, fen: &str, limits: &SearchRequest, multipv: usize) -> SearchResult {
    let request = SearchRequest {
        multipv,
        ..limits.clone()
    };
    s.search(&game(fen), &request, &mut |_| {})
        .expect("a legal move")
}

/// One reported line: depth, nodes so far, principal variation.
type Reported = (i32, u64, Vec<Move>);

/// Searches `fen` with `s` under `limits` and returns the result with every line reported on the
/// way ([`Info::Iteration`]), in order.
fn search_reporting(
    s: &mut Searcher,
    fen: &str,
    limits: &SearchRequest,
) -> (SearchResult, Vec<Reported>) {
    let mut reported = Vec::new();
    let r = s
        .search(&game(fen), limits, &mut |info| {
            if let Info::Iteration {
                depth, nodes, pv, ..
            } = info
            {
                reported.push((*depth, *nodes, pv.clone()));
            }
        })
        .expect("a legal move");
    (r, reported)
}

#[test]
fn a_node_limit_stops_at_exactly_that_many_nodes_and_repeats_exactly() {
    for fen in FENS {
        let a = search(&mut Searcher::new(8, 1).unwrap(), fen, &nodes(20_000), 1);
        let b = search(&mut Searcher::new(8, 1).unwrap(), fen, &nodes(20_000), 1);
        assert_eq!(a.nodes, 20_000, "{fen}");
        assert_eq!(summary(&a), summary(&b), "{fen}");
    }
}

#[test]
fn a_soft_node_limit_finishes_the_iteration_within_its_cap() {
    let soft = 5_000;
    let limits = SearchRequest {
        soft_nodes: Some(soft),
        ..SearchRequest::default()
    };
    for fen in FENS {
        let (r, reported) = search_reporting(&mut Searcher::new(8, 1).unwrap(), fen, &limits);
        let depths: Vec<(i32, u64)> = reported.iter().map(|&(d, n, _)| (d, n)).collect();
        assert!(r.nodes >= soft, "{fen}: stopped early at {}", r.nodes);
        assert!(r.nodes <= soft * SOFT_NODES_HARD_CAP, "{fen}: {}", r.nodes);
        // Every iteration that was followed by another ended below the soft limit (the last
        // report repeats the chosen move's line).
        let (last, iterations) = depths.split_last().expect("a final report");
        assert_eq!(last.0, r.depth.max(1), "{fen}");
        let (_, continued) = iterations.split_last().expect("iterations");
        assert!(
            continued.iter().all(|&(_, n)| n < soft),
            "{fen}: {depths:?}"
        );
        let again = search(&mut Searcher::new(8, 1).unwrap(), fen, &limits, 1);
        assert_eq!(summary(&r), summary(&again), "{fen}");
    }
}

#[test]
fn multipv_lines_are_distinct_and_exact() {
    let depth = SearchRequest {
        depth: Some(6),
        ..SearchRequest::default()
    };
    for fen in FENS {
        let r = search(&mut Searcher::new(8, 1).unwrap(), fen, &depth, 4);
        assert_eq!(r.lines.len(), 4, "{fen}");
        assert_eq!(r.lines[0].mv, r.best);
        assert_eq!(r.lines[0].reported_score().0, r.score);
        for (i, a) in r.lines.iter().enumerate() {
            assert!(r.lines[i + 1..].iter().all(|b| b.mv != a.mv), "{fen}");
        }
        for line in &r.lines {
            assert_eq!(line.pv[0], line.mv);
            assert_eq!(line.reported_score().1, ScoreBound::Exact);
        }
        let scores: Vec<i32> = r.lines.iter().map(|l| l.reported_score().0).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{fen}: {scores:?}");
        assert_eq!(r.depth, 6);
    }
}

#[test]
fn the_game_history_decides_repetitions() {
    // A chariot chases an unprotected horse that shuttles c7-b9. The game starts after the
    // horse's first c7b9 and runs nearly two laps: c7b9 now makes that position occur for the
    // third time, and the chaser loses by rule (scored like a mate in one ply).
    let start = Position::from_fen("1n1akab2/9/4b4/9/9/9/2R6/9/9/3K5 w - - 1 2").unwrap();
    let mut g = Game::new(start.clone());
    for text in ["c3b3", "b9c7", "b3c3", "c7b9", "c3b3", "b9c7", "b3c3"] {
        let mv = g.position().parse_move(text, RankBase::Zero).unwrap();
        g.play(mv).unwrap();
    }
    let limits = SearchRequest {
        depth: Some(3),
        ..SearchRequest::default()
    };
    let mut s = Searcher::new(8, 1).unwrap();
    let r = s.search(&g, &limits, &mut |_| {}).unwrap();
    assert_eq!(move_text(r.best, RankBase::Zero), "c7b9");
    assert_eq!(r.score, mate_in(1));
    // The same position without the history: no rule win in sight.
    s.clear();
    let fresh = s
        .search(&Game::new(g.position().clone()), &limits, &mut |_| {})
        .unwrap();
    assert!(fresh.score.abs() < MATE_BOUND);
}

#[test]
fn clear_makes_a_searcher_behave_like_a_fresh_one() {
    let limits = nodes(30_000);
    let mut s = Searcher::new(8, 1).unwrap();
    let fresh: Vec<_> = FENS
        .iter()
        .map(|f| summary(&search(&mut Searcher::new(8, 1).unwrap(), f, &limits, 1)))
        .collect();
    for (fen, expected) in FENS.iter().zip(&fresh) {
        s.clear();
        assert_eq!(
            &summary(&search(&mut s, fen, &limits, 1)),
            expected,
            "{fen}"
        );
    }
    // Without clearing, the table carries over (and so may the result).
    let warm = search(&mut s, FENS[0], &limits, 1);
    assert_eq!(warm.nodes, 30_000);
}

#[test]
fn independent_searchers_on_parallel_threads_match_a_sequential_run() {
    let limits = nodes(15_000);
    let sequential: Vec<_> = FENS
        .iter()
        .map(|f| {
            let mut s = Searcher::new(4, 1).unwrap();
            summary(&search(&mut s, f, &limits, 2))
        })
        .collect();
    let parallel: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = FENS
            .iter()
            .map(|f| {
                let limits = &limits;
                std::thread::Builder::new()
                    .stack_size(THREAD_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut s = Searcher::new(4, 1).unwrap();
                        // Several searches in a row on each thread, as in a game.
                        let mut last = None;
                        for _ in 0..3 {
                            s.clear();
                            last = Some(summary(&search(&mut s, f, limits, 2)));
                        }
                        last.unwrap()
                    })
                    .unwrap()
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(sequential, parallel);
}

#[test]
fn restricted_root_moves_and_positions_without_a_legal_move() {
    let start = Position::startpos();
    let only = vec![start.parse_move("b0c2", RankBase::Zero).unwrap()];
    let request = SearchRequest {
        root_moves: Some(only.clone()),
        ..nodes(5_000)
    };
    let mut s = Searcher::new(4, 1).unwrap();
    let r = s.search(&Game::new(start), &request, &mut |_| {}).unwrap();
    assert_eq!(r.best, only[0]);
    // Mated: nothing to search.
    let mated = game("R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1");
    let none = s.search(&mated, &nodes(100), &mut |_| {});
    assert!(none.is_none());
}

#[test]
fn iterations_are_reported_in_order_with_growing_node_counts() {
    let limits = SearchRequest {
        depth: Some(7),
        ..SearchRequest::default()
    };
    let (r, seen) = search_reporting(&mut Searcher::new(8, 1).unwrap(), FENS[1], &limits);
    let depths: Vec<i32> = seen.iter().map(|s| s.0).collect();
    // One line per iteration, plus the final report of the chosen move.
    assert_eq!(depths, vec![1, 2, 3, 4, 5, 6, 7, 7]);
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1));
    assert_eq!(seen.last().unwrap().2[0], r.best);
}

#[test]
fn a_parallel_search_plays_the_line_it_reported_last() {
    let depth = 9;
    let limits = SearchRequest {
        depth: Some(depth),
        ..SearchRequest::default()
    };
    for fen in FENS {
        let (r, reported) = search_reporting(&mut Searcher::new(16, 4).unwrap(), fen, &limits);
        assert!(Position::from_fen(fen)
            .unwrap()
            .legal_moves()
            .contains(&r.best));
        // The main thread completes the depth and ends the search; the vote may play the move
        // of a helper that went deeper, never of one that stopped shallower: the last reported
        // line is always the move played, at the depth the result gives.
        assert!(r.depth >= depth, "{fen}: depth {}", r.depth);
        let (reported_depth, _, pv) = reported.last().expect("a reported line");
        assert_eq!(pv.first(), Some(&r.best), "{fen}");
        assert_eq!(*reported_depth, r.depth, "{fen}");
    }
}

/// An endgame where almost every evasion checks back (the cannons use the generals and each
/// other as screens): quiescence must stay small here, or depth 1 never ends.
const CHECK_CHAIN_FEN: &str = "2cNc4/C8/3a1k3/9/9/9/9/9/4K4/5A3 w - - 47 89";

/// How long a search that must take milliseconds may run before the test calls it hung.
const HANG_GUARD: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs `search` on its own thread; fails the test if it has not returned within [`HANG_GUARD`].
fn search_or_fail_if_hung(fen: &'static str, limits: SearchRequest) -> SearchResult {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .stack_size(THREAD_STACK_BYTES)
        .spawn(move || {
            let r = search(&mut Searcher::new(8, 1).unwrap(), fen, &limits, 1);
            let _ = tx.send(r);
        })
        .expect("spawn");
    rx.recv_timeout(HANG_GUARD)
        .unwrap_or_else(|_| panic!("{fen}: the search did not return"))
}

#[test]
fn chains_of_checks_keep_quiescence_small() {
    let depth_one = SearchRequest {
        depth: Some(1),
        ..SearchRequest::default()
    };
    let r = search_or_fail_if_hung(CHECK_CHAIN_FEN, depth_one);
    assert_eq!(r.depth, 1);
    assert!(r.nodes < 5_000, "depth 1 took {} nodes", r.nodes);
    let r = search_or_fail_if_hung(CHECK_CHAIN_FEN, nodes(20_000));
    assert_eq!(r.nodes, 20_000);
    assert!(r.depth >= 6, "only depth {} in 20,000 nodes", r.depth);
}
