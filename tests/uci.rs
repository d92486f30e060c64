//! Complete UCI sessions through the binary.

mod common;

use common::{best_move, field, last_score_line, Engine};
use engine_core::{Position, RankBase};
use std::time::Duration;

fn legal_in(fen_moves: &[&str], mv: &str, base: RankBase) -> bool {
    let mut pos = Position::startpos();
    for m in fen_moves {
        let m = pos.parse_move(m, base).unwrap();
        pos.make_move(m);
    }
    pos.parse_move(mv, base).is_ok()
}

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

    e.send("position startpos moves h2e2 h9g7");
    let lines = e.go("nodes 5000");
    let nodes: u64 = field(last_score_line(&lines), "nodes")
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        nodes <= 5000 + 20_000,
        "node limit roughly respected with 2 threads: {nodes}"
    );

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
fn wdl_is_shown_on_request() {
    let mut e = Engine::uci();
    e.send("setoption name UCI_ShowWDL value true");
    e.send("position startpos");
    let lines = e.go("depth 3");
    let info = last_score_line(&lines);
    let w: u32 = field(info, "wdl").unwrap().parse().unwrap();
    assert!(w <= 1000, "{info}");
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
fn stop_during_infinite_is_answered_quickly() {
    let mut e = Engine::uci();
    e.send("setoption name Threads value 2");
    e.send("position startpos moves h2e2 h9g7 h0g2");
    e.send("go infinite");
    // Wait until the search is well under way, then check it holds its answer.
    e.read_until(
        |l| field(l, "depth").is_some_and(|d| d.parse::<i32>().unwrap_or(0) >= 5),
        Duration::from_secs(30),
    );
    std::thread::sleep(Duration::from_millis(300));
    while e.next_line(Duration::from_millis(50)).is_some() {}
    let sent = e.send_timed("stop");
    let (at, line) = loop {
        let (at, l) = e
            .next_line(Duration::from_secs(5))
            .expect("bestmove after stop");
        if l.starts_with("bestmove") {
            break (at, l);
        }
    };
    let waited = at.duration_since(sent);
    eprintln!("stop -> bestmove took {:?}", waited);
    // The engine answers within a millisecond or two; allow for a loaded CI machine.
    assert!(waited < Duration::from_millis(200), "stop took {waited:?}");
    assert!(legal_in(
        &["h2e2", "h9g7", "h0g2"],
        line.split_whitespace().nth(1).unwrap(),
        RankBase::Zero
    ));
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

#[test]
fn a_finished_ponder_search_holds_its_move_until_ponderhit() {
    let mut e = Engine::uci();
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder depth 2");
    e.expect_no_bestmove_for(Duration::from_millis(300));
    let sent = e.send_timed("ponderhit");
    let (at, line) = loop {
        let (at, l) = e
            .next_line(Duration::from_secs(5))
            .expect("bestmove after ponderhit");
        if l.starts_with("bestmove") {
            break (at, l);
        }
    };
    assert!(at.duration_since(sent) < Duration::from_millis(200));
    let mv = line.split_whitespace().nth(1).unwrap();
    assert!(legal_in(&["h2e2", "h9g7"], mv, RankBase::Zero), "{mv}");
    e.quit();
}
