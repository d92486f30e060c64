//! Bad input: one `info string error` line, the last good state kept, the engine still running.

use crate::common;

use common::{best_move, Engine};
use std::time::Duration;

fn fen_of(e: &mut Engine) -> String {
    e.send("d");
    let lines = e.expect_prefix("Checkers");
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .expect("a Fen line")
        .to_string()
}

fn one_error(e: &mut Engine, cmd: &str) {
    e.send(cmd);
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "'{cmd}' gave {lines:?}");
    assert!(
        lines[0].starts_with("info string error: "),
        "'{cmd}' gave {lines:?}"
    );
}

#[test]
fn bad_positions_keep_the_last_good_one() {
    for mut e in [Engine::uci(), Engine::ucci()] {
        e.send("position startpos moves h2e2");
        let good = fen_of(&mut e);
        for cmd in [
            "position fen rnbakabnr/9/1c5c1 w - - 0 1",
            "position fen xyz",
            "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "position startpos moves h2e2 h9g7 a0a5",
            "position startpos moves h2e2 zz99",
            "position startpos moves e0e2",
            "position",
            "position banana",
            "position startpos trailing",
        ] {
            one_error(&mut e, cmd);
            assert_eq!(fen_of(&mut e), good, "after '{cmd}'");
        }
        // The last `position` was refused: nothing to search until a good one arrives.
        e.send("position startpos moves h2e2");
        let lines = e.go("depth 2");
        assert!(lines.last().unwrap().starts_with("bestmove"));
        e.quit();
    }
}

/// After a refused `position` the GUI shows a board the engine was not given: `go` answers the
/// dialect's "no move" with one `info string` saying why (`go perft` only the line), until a
/// `position` is accepted.
#[test]
fn go_after_a_refused_position_answers_no_move() {
    for (mut e, no_move) in [
        (Engine::uci(), "bestmove 0000"),
        (Engine::ucci(), "nobestmove"),
    ] {
        let refused: [&[u8]; 6] = [
            b"position fen xyz",
            b"position startpos moves h2e2 zz99",
            b"position startpos moves h2e2 h2e2",
            b"position banana",
            b"position",
            b"position fen \xd6\xd0\xb9\xfa.fen",
        ];
        for bad in refused {
            let what = String::from_utf8_lossy(bad);
            e.send("position startpos moves h2e2");
            assert!(e.sync().is_empty());
            e.send_bytes(bad);
            let lines = e.sync();
            assert_eq!(lines.len(), 1, "'{what}' gave {lines:?}");
            for go in [
                "go depth 3",
                "go infinite",
                "go movetime 50",
                "go perft 1",
                "go",
            ] {
                // `ucinewgame` does not bring the last good position back.
                e.send("ucinewgame");
                e.send(go);
                let lines = e.sync();
                let expected = if go.contains("perft") { 1 } else { 2 };
                assert_eq!(lines.len(), expected, "'{what}', '{go}' gave {lines:?}");
                assert!(
                    lines[0].starts_with("info string error: no position to search")
                        && lines[0].contains("refused"),
                    "'{what}', '{go}' gave {lines:?}"
                );
                if expected == 2 {
                    assert_eq!(lines[1], no_move, "'{what}', '{go}'");
                }
            }
        }
        e.send("position startpos moves h2e2");
        let lines = e.go("depth 2");
        let last = lines.last().unwrap();
        assert!(
            last.starts_with("bestmove ") && last != no_move,
            "{lines:?}"
        );
        assert!(common::legal_in(
            &["h2e2"],
            &best_move(&lines),
            engine_core::RankBase::Zero
        ));
        e.quit();
    }
}

#[test]
fn composed_positions_are_accepted_after_one_warning() {
    // A red soldier behind its starting rank (a1) and a black elephant across the river (e4):
    // playable, though no game could bring them there. Two generals of one side or the side not
    // to move in check stay errors.
    let composed = "4k4/9/9/9/9/4b4/9/9/P8/3K5 w - - 0 1";
    for mut e in [Engine::uci(), Engine::ucci()] {
        e.send(&format!("position fen {composed}"));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with(
                "info string warning: composed position: black elephant on e4, red soldier on a1"
            ),
            "{lines:?}"
        );
        assert_eq!(fen_of(&mut e), composed);
        // The same start position with moves (as a GUI sends it every move): no new warning.
        e.send(&format!("position fen {composed} moves a1a2"));
        assert!(e.sync().is_empty());
        let lines = e.go("depth 3");
        assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:?}");
        e.send("position startpos");
        let good = fen_of(&mut e);
        for cmd in [
            "position fen 3kk4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "position fen 4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1",
        ] {
            one_error(&mut e, cmd);
            assert_eq!(fen_of(&mut e), good, "after '{cmd}'");
        }
        e.quit();
    }
}

#[test]
fn garbage_commands_and_tokens() {
    let mut e = Engine::uci();
    for cmd in [
        "frobnicate",
        "go depth banana",
        "go depth",
        "go sideways 3",
        "setoption name Hash value -5",
        "setoption name Hash value 99999999",
        "setoption name MultiPV value 0",
        "setoption name Threads value many",
        "setoption name UCI_Variant value chess",
        "setoption name Ponder value perhaps",
        "banmoves z0z0",
        "bench nine",
        "\u{1F600} \u{0}\u{7f}",
    ] {
        one_error(&mut e, cmd);
    }
    e.send("setoption name NoSuchOption value 3");
    let lines = e.sync();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("info string ") && lines[0].contains("NoSuchOption"));
    e.send("position startpos");
    let lines = e.go("depth 3");
    assert!(lines.last().unwrap().starts_with("bestmove"));
    e.quit();
}

#[test]
fn go_while_searching_is_refused_and_the_search_continues() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(50));
    e.send("go depth 1");
    let lines = e.read_until(|l| l.starts_with("info string"), common::LINE_TIMEOUT);
    assert!(lines.last().unwrap().starts_with("info string error: "));
    e.expect_no_bestmove_for(std::time::Duration::from_millis(200));
    e.send("stop");
    let lines = e.expect_prefix("bestmove");
    assert!(!best_move(&lines).is_empty());
    // And the engine is idle again.
    let lines = e.go("depth 2");
    assert!(lines.last().unwrap().starts_with("bestmove"));
    e.quit();
}

#[test]
fn lines_that_are_not_utf8_get_one_error_and_the_session_goes_on() {
    // "setoption name Hash value 8" with a GBK-encoded word (你好) at the end, a GBK path, and
    // bytes that are never UTF-8.
    let lines: [&[u8]; 3] = [
        b"setoption name Hash value 8 \xc4\xe3\xba\xc3",
        b"position fen \xd6\xd0\xb9\xfa.fen",
        b"\xff\xfe\x00go",
    ];
    for mut e in [Engine::uci(), Engine::ucci()] {
        e.send("position startpos moves h2e2");
        let good = fen_of(&mut e);
        for line in lines {
            e.send_bytes(line);
            let answer = e.sync();
            assert_eq!(answer.len(), 1, "{line:?} gave {answer:?}");
            assert!(
                answer[0].starts_with("info string error: ") && answer[0].contains("UTF-8"),
                "{answer:?}"
            );
            assert_eq!(fen_of(&mut e), good);
        }
        // The unreadable `position` left no position to search.
        e.send("position startpos moves h2e2");
        let lines = e.go("depth 2");
        assert!(lines.last().unwrap().starts_with("bestmove"));
        e.quit();
    }
}

#[test]
fn a_first_line_that_is_not_utf8_does_not_decide_the_dialect() {
    let mut e = Engine::start();
    e.send_bytes(b"\xc4\xe3\xba\xc3");
    e.send("ucci");
    let lines = e.expect_line("ucciok");
    assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    let rest = e.quit();
    assert_eq!(rest, vec!["bye".to_string()]);
}

/// End of input (the GUI closed the pipe or died) without `quit`: the engine must exit by itself,
/// with status 0, in bounded time, whether idle or searching, in either dialect or before any.
#[test]
fn end_of_input_exits_cleanly() {
    type Start = fn() -> Engine;
    let dialects: [(&str, Start); 3] = [
        ("no dialect yet", Engine::start),
        ("uci", Engine::uci),
        ("ucci", Engine::ucci),
    ];
    for (dialect, start) in dialects {
        for searching in [false, true] {
            let what = format!(
                "{dialect}, {}",
                if searching { "searching" } else { "idle" }
            );
            let mut e = start();
            e.send("position startpos");
            if searching {
                // An infinite search never ends by itself: only the end of input can end it.
                e.send("go infinite");
                e.read_until(|l| l.starts_with("info depth"), common::LINE_TIMEOUT);
            } else if dialect != "no dialect yet" {
                e.sync();
            }
            let (status, rest) = e
                .close_input(Duration::from_secs(10))
                .unwrap_or_else(|| panic!("{what}: still running 10 s after end of input"));
            assert!(status.success(), "{what}: exited with {status}");
            assert!(
                rest.iter().all(|l| !l.contains("error")),
                "{what}: {rest:?}"
            );
            // UCCI answers `quit` with `bye`, and end of input is a `quit`.
            if dialect == "ucci" {
                assert_eq!(rest.last().map(String::as_str), Some("bye"), "{what}");
            }
        }
    }
}

/// Commands that would disturb a running search are refused, each with one error line, and the
/// search goes on to answer `stop` with a move.
#[test]
fn commands_refused_while_searching_leave_the_search_running() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go infinite");
    e.read_until(|l| l.starts_with("info depth"), common::LINE_TIMEOUT);
    for cmd in [
        "setoption name Hash value 32",
        "setoption name Threads value 2",
        "setoption name Clear Hash",
        "ucinewgame",
        "bench 3",
        "ponderhit",
    ] {
        e.send(cmd);
        // Lines up to `readyok`: `info` progress lines of the search, and exactly one error.
        let lines = e.sync();
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| !l.starts_with("info depth") && !l.starts_with("info nodes"))
            .collect();
        assert_eq!(errors.len(), 1, "'{cmd}' gave {errors:?}");
        assert!(
            errors[0].starts_with("info string error: "),
            "'{cmd}' gave {errors:?}"
        );
        assert!(
            lines.iter().all(|l| !l.starts_with("bestmove")),
            "'{cmd}' ended the search: {lines:?}"
        );
    }
    e.send("stop");
    let lines = e.expect_prefix("bestmove");
    assert!(!best_move(&lines).is_empty());
    // The refused Hash size did not take effect: the engine still searches normally.
    let lines = e.go("depth 3");
    assert!(lines.last().unwrap().starts_with("bestmove"));
    e.quit();
}
