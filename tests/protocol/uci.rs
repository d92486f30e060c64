//! Complete UCI sessions through the binary.

use crate::common;

use common::{best_move, field, last_score_line, legal_in, Engine};
use engine_core::{Position, RankBase};
use std::time::Duration;

/// The limit of the `go nodes` checks.
const NODE_LIMIT: u64 = 5000;
/// How often (in its own nodes) the main thread reads the total of all threads against a node
/// limit: the search's `CLOCK_CHECK_INTERVAL` (src/search/params.rs).
const CLOCK_CHECK_INTERVAL: u64 = 1024;

#[test]
fn handshake_announces_options_and_variant() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect_line("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name Cotuong")));
    assert!(lines.iter().any(|l| l.starts_with("id author")));
    for opt in [
        "option name Hash type spin",
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name Ponder type check",
        "option name Move Overhead type spin",
        "option name Clear Hash type button",
        "option name UCI_ShowWDL type check",
        "option name UCI_Variant type combo default xiangqi var xiangqi",
        "option name RanksOneToTen type check",
        "option name NoCaptureMoves type spin",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(opt)),
            "missing '{opt}' in:\n{}",
            lines.join("\n")
        );
    }
    e.sync();
    e.quit();
}

#[test]
fn full_game_session_with_depth_nodes_and_clock() {
    let mut e = Engine::uci();
    e.send("setoption name Hash value 8");
    e.send("setoption name Threads value 2");
    e.send("setoption name Move Overhead value 50");
    e.send("setoption name Clear Hash");
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("ucinewgame");
    assert!(e.sync().is_empty(), "options are set silently");
    e.send("position startpos moves h2e2 h9g7");
    let lines = e.go("depth 6");
    let info = last_score_line(&lines);
    for key in [
        "depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ] {
        assert!(field(info, key).is_some(), "no '{key}' in '{info}'");
    }
    assert!(info.contains(" score cp "), "{info}");
    let mv = best_move(&lines);
    assert!(legal_in(&["h2e2", "h9g7"], &mv, RankBase::Zero), "{mv}");

    // `go nodes`: the main thread stops at its own count reaching the limit; every thread reads
    // all threads' total every `CLOCK_CHECK_INTERVAL` of its own nodes and stops them all once it
    // has reached the limit. One thread therefore stops exactly at the limit; with two, each
    // passes the moment the total reached it by at most one interval, whatever the scheduler does.
    for (threads, bound) in [(1, NODE_LIMIT), (2, NODE_LIMIT + 2 * CLOCK_CHECK_INTERVAL)] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("position startpos moves h2e2 h9g7");
        let lines = e.go(&format!("nodes {NODE_LIMIT}"));
        let nodes: u64 = field(last_score_line(&lines), "nodes")
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            nodes <= bound,
            "go nodes {NODE_LIMIT} with {threads} threads searched {nodes} nodes (at most {bound})"
        );
    }

    e.send("position startpos");
    let lines = e.go("wtime 2000 btime 2000 winc 10 binc 10");
    assert!(legal_in(&[], &best_move(&lines), RankBase::Zero));

    e.send("position startpos");
    let t = std::time::Instant::now();
    let lines = e.go("movetime 200");
    assert!(
        t.elapsed() < Duration::from_millis(2000),
        "movetime respected"
    );
    assert!(legal_in(&[], &best_move(&lines), RankBase::Zero));
    e.quit();
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut e = Engine::uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let lines = e.go("depth 5");
    let mut firsts = Vec::new();
    for k in 1..=3 {
        let line = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 5 ") && field(l, "multipv") == Some(&k.to_string()))
            .unwrap_or_else(|| panic!("no multipv {k} line:\n{}", lines.join("\n")));
        firsts.push(field(line, "pv").unwrap().to_string());
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different first moves");
    e.quit();
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::uci();
    e.send("position startpos");
    let lines = e.go("depth 4 searchmoves a3a4 i3i4");
    let mv = best_move(&lines);
    assert!(mv == "a3a4" || mv == "i3i4", "{mv}");
    e.quit();
}

#[test]
fn ranks_one_to_ten_option_switches_move_text() {
    let mut e = Engine::uci();
    e.send("setoption name RanksOneToTen value true");
    e.send("position startpos moves h3e3 h10g8");
    e.send("d");
    let lines = e.expect_prefix("Checkers");
    assert!(
        lines
            .iter()
            .any(|l| l
                == "Fen: rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"),
        "{}",
        lines.join("\n")
    );
    let lines = e.go("depth 3");
    let mv = best_move(&lines);
    assert!(legal_in(&["h3e3", "h10g8"], &mv, RankBase::One), "{mv}");
    e.quit();
}

#[test]
fn moves_with_ranks_one_to_ten_get_a_hint_about_the_option() {
    let mut e = Engine::uci();
    e.send("position startpos moves h3e3 h10g8");
    let lines = e.expect_prefix("info string error:");
    let error = lines.last().map_or("", String::as_str);
    assert!(
        error.contains("hint:") && error.contains("setoption name RanksOneToTen value true"),
        "{error}"
    );
    e.send("position startpos moves h2h8");
    let lines = e.expect_prefix("info string error:");
    assert!(!lines[lines.len() - 1].contains("hint:"), "{lines:?}");
    e.send("setoption name RanksOneToTen value true");
    e.send("position startpos moves h2e2");
    let lines = e.expect_prefix("info string error:");
    assert!(
        lines[lines.len() - 1].contains("RanksOneToTen value false"),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn wdl_is_shown_on_request() {
    let mut e = Engine::uci();
    // Off by default: no `wdl` field.
    e.send("position startpos");
    let lines = e.go("depth 3");
    assert!(!last_score_line(&lines).contains(" wdl "), "{lines:?}");
    e.send("setoption name UCI_ShowWDL value true");
    // The start position with Red's or Black's a0/a9 chariot removed: Red to move a chariot
    // down, balanced, a chariot up; then a chariot up with Black to move (the side to move's
    // view flips), and a mate in one. None of the first four has a mate within the depth, so
    // their wdl comes from the score.
    let positions = [
        "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1",
        "startpos",
        "fen 1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "fen 1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        "fen 3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1",
    ];
    let mut seen = Vec::new();
    for pos in positions {
        e.send(&format!("position {pos}"));
        let lines = e.go("depth 4");
        let info = last_score_line(&lines).to_string();
        let mut it = info.split_whitespace().skip_while(|&t| t != "wdl").skip(1);
        let mut next = || -> u32 {
            it.next()
                .and_then(|t| t.parse().ok())
                .unwrap_or_else(|| panic!("three numbers after wdl: {info}"))
        };
        let (w, d, l) = (next(), next(), next());
        assert_eq!(w + d + l, 1000, "{info}");
        // A mate score as a very large centipawn score: a certain win.
        let score = match (field(&info, "cp"), field(&info, "mate")) {
            (Some(cp), _) => cp.parse::<i64>().expect("cp"),
            (None, Some(m)) => m.parse::<i64>().expect("mate").signum() * 1_000_000,
            _ => panic!("no score: {info}"),
        };
        seen.push((score, w, d, l, info));
    }
    // Balanced: a draw is the likeliest outcome.
    let (_, w, d, l, info) = &seen[1];
    assert!(d > w && d > l, "the start position: {info}");
    // The better the score, the likelier the win and the unlikelier the loss.
    seen.sort_by_key(|s| s.0);
    for pair in seen.windows(2) {
        let (lo, hi) = (&pair[0], &pair[1]);
        assert!(hi.1 >= lo.1 && hi.3 <= lo.3, "{}\n{}", lo.4, hi.4);
    }
    let (worst, best) = (&seen[0], &seen[seen.len() - 1]);
    assert!(worst.3 > worst.1 + 500, "a chariot down: {}", worst.4);
    assert_eq!((best.1, best.2, best.3), (1000, 0, 0), "a mate: {}", best.4);
    e.quit();
}

#[test]
fn go_perft_prints_counts() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.expect_prefix("Nodes searched");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1920");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 44 + 1);
    e.quit();
}

#[test]
fn display_and_eval_commands() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("d");
    let lines = e.expect_prefix("Checkers");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Fen: rnbakabnr/9/1c5c1")));
    assert!(lines.iter().any(|l| l.starts_with("Key: ")));
    e.send("eval");
    e.expect_prefix("total");
    e.quit();
}

#[test]
fn no_legal_move_answers_none_with_a_lost_score() {
    let mut e = Engine::uci();
    // Black is checkmated: red chariots on the 8th and 9th ranks.
    e.send("position fen 3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1 moves a7a9");
    let lines = e.go("depth 5");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(
        lines.iter().any(|l| l == "info depth 0 score mate 0"),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut e = Engine::uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder wtime 3000 btime 3000");
    // A ponder search must hold its answer.
    e.expect_no_bestmove_for(Duration::from_millis(400));
    e.send("ponderhit");
    let lines = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(10));
    assert!(legal_in(
        &["h2e2", "h9g7"],
        &best_move(&lines),
        RankBase::Zero
    ));

    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder wtime 3000 btime 3000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(5));
    assert!(legal_in(
        &["h2e2", "h9g7"],
        &best_move(&lines),
        RankBase::Zero
    ));
    e.quit();
}

#[test]
fn isready_is_answered_while_searching() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.read_until(
        |l| l == "readyok" || l.starts_with("bestmove"),
        Duration::from_secs(5),
    );
    assert_eq!(lines.last().unwrap(), "readyok");
    e.send("stop");
    e.expect_prefix("bestmove");
    e.quit();
}

#[test]
fn go_mate_finds_a_mate_in_one() {
    let mut e = Engine::uci();
    e.send("position fen 3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1");
    let lines = e.go("mate 1");
    // a7a9 mates; a7a0 stalemates, which also wins in xiangqi.
    let mut pos = Position::from_fen("3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    let mv = pos.parse_move(&best_move(&lines), RankBase::Zero).unwrap();
    pos.make_move(mv);
    assert!(!pos.has_legal_move(), "{mv} does not end the game");
    assert_eq!(field(last_score_line(&lines), "mate"), Some("1"));
    e.quit();
}

#[test]
fn no_capture_rule_is_an_option() {
    // A chariot up, but the 120th ply without capture comes after Red's move: a draw.
    let fen = "3k5/9/9/9/9/9/9/9/9/R4K3 w - - 119 80";
    let mut e = Engine::uci();
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 4");
    assert_eq!(field(last_score_line(&lines), "cp"), Some("0"), "{lines:?}");
    // With the 100-move rule the game goes on and the chariot counts.
    e.send("setoption name NoCaptureMoves value 100");
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 4");
    let info = last_score_line(&lines);
    let winning = match (field(info, "cp"), field(info, "mate")) {
        (Some(cp), _) => cp.parse::<i32>().unwrap() > 500,
        (None, Some(m)) => m.parse::<i32>().unwrap() > 0,
        _ => false,
    };
    assert!(winning, "{info}");
    e.quit();
}

#[test]
fn repeating_a_position_of_the_game_history_is_a_draw() {
    // Black is a chariot down. After a0a1 d9d8 a1a0, Black can return to d9 and repeat the
    // starting position of the game: the search must see that draw (judge_cycle says Draw) and
    // prefer it to any other move, which keeps losing.
    let mut e = Engine::uci();
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1 moves a0a1 d9d8 a1a0");
    let lines = e.go("depth 6");
    let info = last_score_line(&lines);
    assert_eq!(field(info, "cp"), Some("0"), "{info}");
    assert_eq!(best_move(&lines), "d8d9");
    e.quit();
}

/// With several threads, `go depth N` plays a move of a search at least N plies deep, and the
/// last line says so: the main thread completes the depth, threads that stopped shallower do
/// not vote, and a helper votes with its last completed iteration (never with an aspiration
/// bound of one cut short). In the mate-in-one position a helper used to finish depth 10 at
/// once and stop the main thread at depth 1 (`score cp -1372`, in about half of the searches).
#[test]
fn a_parallel_depth_limited_search_answers_at_the_depth_asked() {
    let mut e = Engine::uci();
    e.send("setoption name Threads value 2");
    let mated = "2bakan2/4n4/8b/p3p4/4c4/2R5R/2P3C1c/N7N/4rr3/2B1K1B2 w - - 0 34";
    for _ in 0..10 {
        e.send("ucinewgame");
        e.send(&format!("position fen {mated}"));
        let lines = e.go("depth 10");
        let info = last_score_line(&lines);
        assert_eq!(field(info, "depth"), Some("10"), "{info}");
        assert_eq!(field(info, "mate"), Some("-1"), "{info}");
    }
    e.send("setoption name Threads value 3");
    for fen in [
        "3akab2/3n1r3/b3c4/p1p3C1p/9/2Pn2P2/P3P3P/1Rc1N4/4A4/2B1KAB1R w - - 2 16",
        "3ak1b2/4a4/4b3n/p2R1C3/2p6/6p1P/P8/8B/2R1A1r2/1rBK3c1 w - - 4 34",
        "3akab1r/9/b1n1c1nc1/p1p1p1pCp/9/4P4/PrP3P1P/4B4/2CN5/R2AKABNR b - - 13 7",
        "3akab1r/9/b1n3nc1/pR2c1C1p/4p1r2/9/P3P1PCP/2N1B4/5N2R/2BAKA3 w - - 15 16",
    ] {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let lines = e.go("depth 9");
        let info = last_score_line(&lines);
        let depth: u32 = field(info, "depth")
            .and_then(|d| d.parse().ok())
            .unwrap_or(0);
        assert!(depth >= 9, "{fen}: {info}");
        assert!(!info.contains("bound"), "{fen}: {info}");
    }
    e.quit();
}

#[test]
fn commands_refused_while_searching_keep_their_uci_wording() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    for (command, answer) in [
        (
            "setoption name Hash value 32",
            "info string error: option 'Hash' cannot change while searching",
        ),
        (
            "ucinewgame",
            "info string error: 'ucinewgame' while searching is ignored",
        ),
        (
            "go depth 3",
            "info string error: 'go' while searching is ignored (send 'stop' first)",
        ),
        (
            "ponderhit",
            "info string error: 'ponderhit' without a ponder search is ignored",
        ),
    ] {
        e.send(command);
        let lines = e.expect_prefix("info string error:");
        assert_eq!(lines.last().map(String::as_str), Some(answer), "{command}");
    }
    e.send("stop");
    e.expect_prefix("bestmove");
    e.quit();
}
