//! The clock fields of both dialects through the binary: UCI `go wtime btime winc binc
//! movestogo` and UCCI `go time increment movestogo opptime oppincrement` (seconds, or
//! milliseconds after `setoption usemillisec true`). The time a move takes follows the clock of
//! the side to move and `movestogo`, never running past the clock, and a ponder search under a
//! clock answers within its budget after `ponderhit` and at once after `stop`.
//!
//! Timing bounds are generous (a loaded CI machine); each one is a difference a user would
//! notice: a move in tens of milliseconds against one of a second or more. Being wall-clock
//! measurements, the tests must not share the CPU with each other (as in `clock`): each holds
//! the binary's lock ([`one_at_a_time`]) for its whole run, so the test harness's threads run
//! them one at a time.

use crate::common;

use crate::one_at_a_time;
use common::{best_move, legal_in, Engine};
use engine_core::RankBase;
use std::time::Duration;

/// Sends `go args` and returns the time until `bestmove` and the move.
fn timed_go(e: &mut Engine, args: &str) -> (Duration, String) {
    let sent = e.send_timed(&format!("go {args}"));
    let lines = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(60));
    (sent.elapsed(), best_move(&lines))
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

#[test]
fn uci_move_time_follows_the_clock_of_the_side_to_move() {
    let _serial = one_at_a_time();
    let mut e = Engine::uci();
    e.sync();
    // Black to move with 300 ms against Red's 60 s: a fast move.
    e.send("position startpos moves h2e2");
    let (black_fast, mv) = timed_go(&mut e, "wtime 60000 btime 300 winc 0 binc 0");
    assert!(legal_in(&["h2e2"], &mv, RankBase::Zero), "{mv}");
    // The same clocks with Red to move: Red's 60 s give a long think.
    e.send("position startpos");
    let (red_slow, mv) = timed_go(&mut e, "wtime 60000 btime 300 winc 0 binc 0");
    assert!(legal_in(&[], &mv, RankBase::Zero), "{mv}");
    // And the other way round.
    e.send("position startpos moves h2e2");
    let (black_slow, _) = timed_go(&mut e, "wtime 300 btime 60000 winc 0 binc 0");
    e.send("position startpos");
    let (red_fast, _) = timed_go(&mut e, "wtime 300 btime 60000 winc 0 binc 0");
    let report = format!(
        "black fast {} ms, red slow {} ms, black slow {} ms, red fast {} ms",
        ms(black_fast),
        ms(red_slow),
        ms(black_slow),
        ms(red_fast)
    );
    for fast in [black_fast, red_fast] {
        assert!(fast < Duration::from_millis(500), "{report}");
    }
    for slow in [red_slow, black_slow] {
        assert!(slow > Duration::from_millis(700), "{report}");
        assert!(slow < Duration::from_millis(20_000), "{report}");
    }
    // An increment is time to spend: with 3 s on the clock, 2 s a move think longer than none,
    // and still within the clock (the increment comes only after the move).
    e.send("position startpos moves h2e2");
    let (no_inc, _) = timed_go(&mut e, "wtime 60000 btime 3000 winc 0 binc 0");
    e.send("position startpos moves h2e2");
    let (with_inc, _) = timed_go(&mut e, "wtime 60000 btime 3000 winc 0 binc 2000");
    assert!(
        with_inc > no_inc + Duration::from_millis(200) && with_inc < Duration::from_millis(3000),
        "3 s on the clock: {} ms with a 2 s increment, {} ms without; {report}",
        ms(with_inc),
        ms(no_inc)
    );
    e.quit();
}

#[test]
fn uci_movestogo_one_spends_most_of_the_clock_without_flagging() {
    let _serial = one_at_a_time();
    let mut e = Engine::uci();
    e.sync();
    e.send("position startpos");
    let (last_move, _) = timed_go(&mut e, "wtime 2000 btime 2000 movestogo 1");
    e.send("position startpos");
    let (many_left, _) = timed_go(&mut e, "wtime 2000 btime 2000 movestogo 30");
    let report = format!(
        "movestogo 1: {} ms, movestogo 30: {} ms",
        ms(last_move),
        ms(many_left)
    );
    assert!(last_move >= Duration::from_millis(800), "{report}");
    assert!(last_move < Duration::from_millis(2000), "flagged: {report}");
    assert!(many_left < Duration::from_millis(500), "{report}");
    e.quit();
}

#[test]
fn ucci_clock_fields_in_seconds_and_in_milliseconds() {
    let _serial = one_at_a_time();
    let mut e = Engine::ucci();
    e.send("setoption usebook false");
    e.sync();
    // Seconds: 2 s for the last move before the control.
    e.send("position startpos");
    let (seconds, mv) = timed_go(
        &mut e,
        "time 2 increment 0 movestogo 1 opptime 60 oppincrement 0",
    );
    assert!(legal_in(&[], &mv, RankBase::Zero), "{mv}");
    // The side to move's own clock counts, not the opponent's: 1 s against 60 s is fast.
    e.send("position startpos moves h2e2");
    let (own_small, _) = timed_go(&mut e, "time 1 increment 0 opptime 60 oppincrement 0");
    e.send("position startpos moves h2e2");
    let (own_large, _) = timed_go(&mut e, "time 60 increment 0 opptime 1 oppincrement 0");

    e.send("setoption usemillisec true");
    e.sync();
    // The same numbers are now milliseconds: 2 ms leaves no time to think.
    e.send("position startpos");
    let (millis_small, _) = timed_go(
        &mut e,
        "time 2 increment 0 movestogo 1 opptime 60 oppincrement 0",
    );
    // And 2000 ms is the 2 s of the first search.
    e.send("position startpos");
    let (millis_large, _) = timed_go(
        &mut e,
        "time 2000 increment 0 movestogo 1 opptime 60000 oppincrement 0",
    );
    let report = format!(
        "time 2 s, movestogo 1: {} ms; own 1 s vs 60 s: {} ms; own 60 s vs 1 s: {} ms; \
         time 2 ms: {} ms; time 2000 ms: {} ms",
        ms(seconds),
        ms(own_small),
        ms(own_large),
        ms(millis_small),
        ms(millis_large)
    );
    for whole_clock in [seconds, millis_large] {
        assert!(whole_clock >= Duration::from_millis(800), "{report}");
        assert!(
            whole_clock < Duration::from_millis(2000),
            "flagged: {report}"
        );
    }
    assert!(own_small < Duration::from_millis(500), "{report}");
    assert!(own_large > Duration::from_millis(700), "{report}");
    assert!(millis_small < Duration::from_millis(500), "{report}");
    e.quit();
}

#[test]
fn ponderhit_moves_within_the_clock_and_stop_answers_at_once() {
    let _serial = one_at_a_time();
    for dialect in ["uci", "ucci"] {
        let mut e = if dialect == "uci" {
            let mut e = Engine::uci();
            e.send("setoption name Ponder value true");
            e
        } else {
            let mut e = Engine::ucci();
            e.send("setoption usemillisec true");
            e.send("setoption usebook false");
            e
        };
        e.sync();
        let clock = if dialect == "uci" {
            "wtime 1500 btime 1500 movestogo 1"
        } else {
            "time 1500 movestogo 1 opptime 1500"
        };
        e.send("position startpos moves h2e2 h9g7");
        e.send(&format!("go ponder {clock}"));
        // Pondering holds the answer, longer than the clock would allow a move.
        e.expect_no_bestmove_for(Duration::from_millis(1700));
        let hit = e.send_timed("ponderhit");
        let lines = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(10));
        let after_hit = hit.elapsed();
        assert!(
            after_hit < Duration::from_millis(1500),
            "{dialect}: {} ms after ponderhit on a 1.5 s clock",
            ms(after_hit)
        );
        assert!(
            legal_in(&["h2e2", "h9g7"], &best_move(&lines), RankBase::Zero),
            "{dialect}: {lines:?}"
        );

        // `stop` ends a ponder search at once, with a move.
        e.send("position startpos moves h2e2 h9g7");
        e.send(&format!("go ponder {clock}"));
        std::thread::sleep(Duration::from_millis(300));
        let stop = e.send_timed("stop");
        let lines = e.read_until(|l| l.starts_with("bestmove"), Duration::from_secs(10));
        let after_stop = stop.elapsed();
        assert!(
            after_stop < Duration::from_millis(500),
            "{dialect}: {} ms after stop",
            ms(after_stop)
        );
        assert!(
            legal_in(&["h2e2", "h9g7"], &best_move(&lines), RankBase::Zero),
            "{dialect}: {lines:?}"
        );
        e.quit();
    }
}
