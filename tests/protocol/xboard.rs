//! The XBoard/WinBoard (CECP v2) dialect driven through a pipe: the handshake and features, a
//! game in force mode and with `go`, `setboard` in both letter sets, `undo`/`remove`, clocks,
//! `ping`, analysis, claims and bad input.

use crate::common;

use common::{Engine, LINE_TIMEOUT};
use std::time::Duration;

/// Starts an XBoard session and reads the features up to `done=1`.
fn xboard() -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.expect_line("feature done=1");
    (e, features)
}

/// `ping n` and the lines before `pong n`.
fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let mut lines = e.expect_line(&format!("pong {n}"));
    lines.pop();
    lines
}

/// Reads up to the engine's `move`, returning it.
fn engine_move(e: &mut Engine) -> (String, Vec<String>) {
    let lines = e.read_until(|l| l.starts_with("move "), Duration::from_secs(60));
    let mv = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .expect("a move")
        .to_string();
    (mv, lines)
}

#[test]
fn handshake_announces_features_and_options() {
    let (mut e, features) = xboard();
    let all = features.join("\n");
    for f in [
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "analyze=1",
        "colors=0",
        "memory=1",
        "smp=1",
        "myname=\"Cotuong",
    ] {
        assert!(all.contains(f), "missing {f} in\n{all}");
    }
    assert!(all.contains("feature option=\"Skill Level -spin "), "{all}");
    assert!(all.contains("feature option=\"Result claims -combo *Safe /// All\""));
    // The GUI's answers are taken silently; memory, cores and options are applied.
    e.send("accepted setboard");
    e.send("rejected colors");
    e.send("memory 8");
    e.send("cores 1");
    e.send("option Skill Level=20");
    e.send("option Clear Hash");
    assert_eq!(ping(&mut e, 1), Vec::<String>::new());
    e.quit();
}

#[test]
fn a_game_in_force_mode_then_go() {
    let (mut e, _) = xboard();
    for c in [
        "new",
        "random",
        "variant xiangqi",
        "level 0 0:20 0.2",
        "post",
        "easy",
        "force",
    ] {
        e.send(c);
    }
    // cutechess's dummy first move when Black starts: legal, taken in force mode.
    e.send("b2b3");
    e.send("undo");
    e.send("usermove h2e2");
    e.send("h9g7");
    assert_eq!(ping(&mut e, 2), Vec::<String>::new(), "force mode: no move");
    e.send("time 2000");
    e.send("otim 2000");
    e.send("go");
    let (mv, lines) = engine_move(&mut e);
    assert_eq!(mv.len(), 4, "{mv}");
    // Thinking output in XBoard's format: depth score time nodes pv.
    let thinking: Vec<&String> = lines
        .iter()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    let fields: Vec<&str> = thinking[0].split_whitespace().collect();
    assert!(fields.len() >= 5, "{}", thinking[0]);
    for f in &fields[..4] {
        assert!(f.parse::<i64>().is_ok(), "{}", thinking[0]);
    }
    // The engine now plays Red: after Black's reply it moves again by itself.
    e.send("time 1900");
    e.send("otim 1950");
    e.send("usermove b9c7");
    let (second, _) = engine_move(&mut e);
    assert_ne!(second, mv);
    // An illegal move is refused, and the game goes on.
    e.send("usermove a0a5");
    e.expect_prefix("Illegal move");
    e.send("usermove e9e0");
    e.expect_prefix("Illegal move");
    e.send("force");
    e.send("result 1/2-1/2 {adjourned}");
    assert_eq!(ping(&mut e, 3), Vec::<String>::new());
    e.quit();
}

#[test]
fn setboard_takes_both_letter_sets_and_undo_remove() {
    let (mut e, _) = xboard();
    e.send("new");
    e.send("variant xiangqi");
    e.send("force");
    // XBoard's letters (H/E) without castling and e.p. fields ...
    e.send("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b 0 1");
    e.send("usermove h7e7");
    assert_eq!(ping(&mut e, 1), Vec::<String>::new());
    // ... and cutechess's (N/B) with them.
    e.send("setboard rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    e.send("usermove h2e2");
    e.send("usermove h7e7");
    e.send("remove");
    e.send("usermove c3c4");
    e.send("usermove g6g5");
    e.send("undo");
    e.send("undo");
    assert_eq!(ping(&mut e, 2), Vec::<String>::new());
    e.send("undo");
    let l = ping(&mut e, 3);
    assert_eq!(l.len(), 1, "{l:?}");
    assert!(l[0].starts_with("Error (no move to take back)"), "{l:?}");
    e.send("setboard rnbakabnr/9/9 w");
    let l = ping(&mut e, 4);
    assert!(
        l.len() == 1 && l[0].starts_with("tellusererror Illegal position"),
        "{l:?}"
    );
    // A mate in one for Red, set up with H/E letters: the engine finds it and claims it.
    e.send("setboard 3k5/9/9/9/9/9/9/9/4R4/4K4 w 0 1");
    e.send("st 1");
    e.send("go");
    let (mv, _) = engine_move(&mut e);
    assert!(mv == "e1d1", "{mv}");
    let lines = e.read_until(|l| l.starts_with("1-0"), LINE_TIMEOUT);
    assert_eq!(lines.last().map(String::as_str), Some("1-0 {Red mates}"));
    e.quit();
}

#[test]
fn clocks_levels_and_limits() {
    let (mut e, _) = xboard();
    e.send("new");
    e.send("variant xiangqi");
    e.send("level 40 5 0");
    e.send("force");
    e.send("time 300");
    e.send("otim 300");
    e.send("go");
    let (_, lines) = engine_move(&mut e);
    assert!(lines.iter().all(|l| !l.starts_with("Error")), "{lines:?}");
    // Fixed depth with st: the thinking stops at depth 2.
    e.send("force");
    e.send("new");
    e.send("post");
    e.send("sd 2");
    e.send("st 30");
    e.send("go");
    let (_, lines) = engine_move(&mut e);
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(
        !depths.is_empty() && depths.iter().all(|&d| d <= 2),
        "{lines:?}"
    );
    // Node budget through nps + st.
    e.send("force");
    e.send("new");
    e.send("st 1");
    e.send("nps 2000");
    e.send("go");
    engine_move(&mut e);
    e.quit();
}

#[test]
fn analysis_move_now_hint_and_bad_input() {
    let (mut e, _) = xboard();
    e.send("new");
    e.send("variant xiangqi");
    e.send("force");
    e.send("analyze");
    e.read_until(
        |l| l.chars().next().is_some_and(|c| c.is_ascii_digit()),
        LINE_TIMEOUT,
    );
    e.send("usermove h2e2");
    e.send("exit");
    let l = ping(&mut e, 1);
    assert!(l.iter().all(|l| !l.starts_with("move")), "{l:?}");
    // `?` ends the search at once with a move.
    e.send("st 100");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    e.send("?");
    let (mv, _) = engine_move(&mut e);
    e.send("hint");
    let l = ping(&mut e, 2);
    assert!(l.iter().all(|l| l.starts_with("Hint: ")), "{mv}: {l:?}");
    for (line, answer) in [
        ("foo", "Error (unknown command): foo"),
        (
            "level 40 x 0",
            "Error (level needs MPS BASE INC): level 40 x 0",
        ),
        (
            "variant shogi",
            "Error (unsupported variant): variant shogi",
        ),
        (
            "option NoSuchThing=3",
            "Error (unknown option): option NoSuchThing=3",
        ),
        ("memory lots", "Error (memory needs megabytes): memory lots"),
    ] {
        e.send(line);
        let l = ping(&mut e, 3);
        assert_eq!(l, vec![answer.to_string()]);
    }
    e.send("option Skill Level=99");
    let l = ping(&mut e, 4);
    assert!(l.len() == 1 && l[0].starts_with("Error ("), "{l:?}");
    e.send_bytes(b"usermove \xff\xfe");
    let l = ping(&mut e, 5);
    assert!(
        l.len() == 1 && l[0].starts_with("Error (bad input)"),
        "{l:?}"
    );
    e.quit();
}

/// After a refused `setboard` the GUI shows a board the engine was not given: searches, moves
/// and take-backs get an error line until `new` or a `setboard` is accepted.
#[test]
fn a_refused_setboard_leaves_no_board_to_play_on() {
    let (mut e, _) = xboard();
    for (n, restore) in [(10, "new"), (20, "setboard")] {
        e.send("new");
        e.send("force");
        e.send("usermove h2e2");
        e.send("setboard 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        let l = ping(&mut e, n);
        assert!(
            l.len() == 1 && l[0].starts_with("tellusererror Illegal position"),
            "{l:?}"
        );
        for (i, (line, answer)) in [
            ("go", "Error (no valid position): go"),
            ("usermove h9g7", "Illegal move (no valid position): h9g7"),
            ("h9g7", "Illegal move (no valid position): h9g7"),
            ("undo", "Error (no valid position): undo"),
            ("remove", "Error (no valid position): remove"),
            ("analyze", "Error (no valid position): analyze"),
            ("exit", ""),
            ("playother", ""),
            ("go", "Error (no valid position): go"),
        ]
        .into_iter()
        .enumerate()
        {
            e.send(line);
            let l = ping(&mut e, n + 1 + i as u32);
            let expected: Vec<String> = [answer]
                .iter()
                .filter(|a| !a.is_empty())
                .map(|a| a.to_string())
                .collect();
            assert_eq!(l, expected, "after '{line}'");
        }
        e.expect_silence(Duration::from_millis(300));
        match restore {
            "new" => e.send("new"),
            _ => e.send(
                "setboard rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
            ),
        }
        e.send("sd 2");
        e.send("go");
        let (mv, _) = engine_move(&mut e);
        assert!(!mv.is_empty());
    }
    e.quit();
}

/// Words of UCI that an XBoard GUI would not understand.
const UCI_WORDS: &[&str] = &["send 'stop'", "ucinewgame", "info string", "setoption"];

#[test]
fn a_change_refused_while_analysing_is_an_xboard_error() {
    let (mut e, _) = xboard();
    e.send("new");
    e.send("force");
    e.send("analyze");
    e.read_until(
        |l| l.chars().next().is_some_and(|c| c.is_ascii_digit()),
        LINE_TIMEOUT,
    );
    // The table cannot be replaced under a running search: refused, in XBoard's form.
    e.send("memory 32");
    e.send("option Hash=32");
    let lines = e.read_until(
        |l| l.starts_with("Error (") && l.ends_with("Hash=32"),
        LINE_TIMEOUT,
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("Error")).collect();
    assert_eq!(
        errors,
        [
            "Error (engine is busy searching): memory 32",
            "Error (engine is busy searching): option Hash=32"
        ],
        "{lines:?}"
    );
    for line in &lines {
        for word in UCI_WORDS {
            assert!(!line.contains(word), "UCI words in '{line}'");
        }
    }
    e.send("exit");
    ping(&mut e, 1);
    // Once the analysis has ended the same change is accepted.
    e.send("memory 32");
    assert_eq!(ping(&mut e, 2), Vec::<String>::new());
    e.quit();
}
