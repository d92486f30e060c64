//! What a user sees of the clock, on a real clock: `stop` and `ponderhit` answered at once, the
//! UCCI time units, and (item by item below) the move coming before the time runs out.
//!
//! These tests measure wall-clock time, so they must not share the CPU with other tests: a
//! single `#[test]` runs the cases one after the other, holding the binary's lock
//! ([`one_at_a_time`]) against the other timing tests (Cargo runs test binaries one at a time).
//! Bounds are generous and only where a user would notice a delay or a loss on time; speed
//! itself belongs in the benchmarks.

use crate::common;

use crate::one_at_a_time;
use common::{field, legal_in, Engine};
use engine_core::RankBase;
use std::time::{Duration, Instant};

/// Every case, in sequence (see the module documentation).
#[test]
fn clock_cases_one_at_a_time() {
    let _serial = one_at_a_time();
    type Case = (&'static str, fn());
    let cases: &[Case] = &[
        (
            "stop_during_infinite_is_answered_quickly",
            stop_during_infinite_is_answered_quickly,
        ),
        (
            "a_finished_ponder_search_holds_its_move_until_ponderhit",
            a_finished_ponder_search_holds_its_move_until_ponderhit,
        ),
        ("seconds_unless_usemillisec", seconds_unless_usemillisec),
        ("twenty_games_at_1s_plus_10ms", || {
            games_without_forfeit("1+0.01", 20)
        }),
        ("two_games_at_40_moves_in_10s", || {
            games_without_forfeit("40/10", 2)
        }),
    ];
    for (name, case) in cases {
        let t = Instant::now();
        case();
        eprintln!("{name}: ok in {:.1} s", t.elapsed().as_secs_f64());
    }
}

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

fn seconds_unless_usemillisec() {
    // `time` and `increment` are seconds until the GUI sets `usemillisec`, then milliseconds.
    // Each unit is tested both ways: a clock that is short in that unit must give a move well
    // within it (it would be far longer in the other unit: 2 s read as ms is 2000 s), and a
    // clock that is long in that unit must give a long think (60 s read as ms is 60 ms).
    let mut e = Engine::ucci();
    e.send("position startpos");
    for (millisec, short, long) in [
        (
            false,
            "time 2 increment 0",
            "time 60 movestogo 1 increment 0",
        ),
        (
            true,
            "time 2000 increment 0",
            "time 60000 movestogo 1 increment 0",
        ),
    ] {
        e.send(&format!("setoption usemillisec {millisec}"));
        assert!(e.sync().is_empty());
        // Short: the whole clock is 2 s, so the move must come before it runs out.
        let t = e.send_timed(&format!("go {short}"));
        let lines = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(20));
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "usemillisec {millisec}, 'go {short}': {:?}: {lines:?}",
            t.elapsed()
        );
        // Long: 60 s for one move, so after 1 s the engine is still thinking.
        e.send(&format!("go {long}"));
        e.expect_no_bestmove_for(Duration::from_secs(1));
        e.send("stop");
        e.expect_prefix("bestmove");
    }
    e.quit();
}

/// Plays `games` games of the engine against itself through `cotuong match` at the time control
/// `tc`, one at a time, and checks that every game ended by the rules, none on time: the match
/// runner forfeits an engine that overruns its clock by more than its margin (100 ms).
fn games_without_forfeit(tc: &str, games: usize) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let pgn = dir.path().join("games.pgn");
    let bin = env!("CARGO_BIN_EXE_cotuong");
    let openings = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/bench/openings/xiangqi-openings.epd"
    );
    let out = std::process::Command::new(bin)
        .arg("match")
        .args(["--engine", &format!("cmd={bin}"), "name=a"])
        .args(["--engine", &format!("cmd={bin}"), "name=b"])
        .args(["--each", "proto=uci", "option.Hash=8", "option.Threads=1"])
        // A two-engine match of 2R games is `--rounds R` (each opening with both colours).
        .args(["--tc", tc, "--rounds", &(games / 2).to_string()])
        .args(["--concurrency", "1"])
        .args(["--openings", openings, "--pgnout"])
        .arg(&pgn)
        .output()
        .expect("the match runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{tc}: {err}");
    let text = std::fs::read_to_string(&pgn).expect("the PGN");
    let terminations: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Termination \""))
        .collect();
    assert_eq!(terminations.len(), games, "{tc}: {text}");
    let forfeits: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("time forfeit") || l.contains("lost on time"))
        .collect();
    assert!(forfeits.is_empty(), "{tc}: {forfeits:?}");
}

/// The whole 40-moves-in-10-s series of the issue (10 games, about 6 minutes: 2 games took 70 s on the 2-core VM): too
/// long for every CI run, so only two of its games run above.
#[test]
#[ignore = "about 6 minutes (2 games took 70 s); two games of it run in clock_cases_one_at_a_time"]
fn ten_games_at_40_moves_in_10s() {
    let _serial = one_at_a_time();
    games_without_forfeit("40/10", 10);
}
