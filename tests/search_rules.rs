//! The rules inside the search, through the binary: repetition verdicts with game history, the
//! no-capture limit and its check cap, bare material, the root verdict at the repetition
//! threshold, and the rule options in both protocols. Fixed depths keep every test fast.

mod common;

use common::{best_move, field, last_score_line, Engine};
use engine_core::rules::{adjudicate, GameResult, RuleId, RuleOptions};
use engine_core::{Move, Position, RankBase};

/// Scores at or beyond this (internal units, printed as `cp`) are rule wins: the search's
/// `RULE_WIN` minus at most its maximum ply.
const RULE_WIN_BAND: i32 = 19_000;

/// Perpetual check, no history. Black (chariot up) is in check from the chariot on i8 and has two
/// general moves: d8d7 lets the chariot check on rank 7 and then take the chariot on a7 (about
/// equal material), d8d9 enters d8d9 i8i9 d9d8 i9i8, a cycle in which Red checks on every move,
/// so Red must break it and stays a chariot down (or loses by the rule).
const PERPETUAL_CHECK_FEN: &str = "9/3k4R/r8/1r7/9/9/9/9/9/4K4 b - - 0 1";
/// The cycle of [`PERPETUAL_CHECK_FEN`].
const PERPETUAL_CHECK_CYCLE: &str = "d8d9 i8i9 d9d8 i9i8";

/// Perpetual chase: the red chariot on c3 attacks the unprotected black horse on c7; the horse
/// shuttles c7-b9 and the chariot follows (c3-b3), attacking it with every move.
const CHASE_FEN: &str = "3akab2/9/2n1b4/9/9/9/2R6/9/9/3K5 b - - 0 1";
/// One lap of the chase in [`CHASE_FEN`].
const CHASE_CYCLE: &str = "c7b9 c3b3 b9c7 b3c3";

fn parse_moves(start: &Position, text: &str) -> Vec<Move> {
    let mut pos = start.clone();
    text.split_whitespace()
        .map(|t| {
            let mv = pos.parse_move(t, RankBase::Zero).expect("legal test move");
            pos.make_move(mv);
            mv
        })
        .collect()
}

/// The referee's verdict on `fen` followed by `moves`, under the default rules.
fn referee(fen: &str, moves: &str) -> Option<(GameResult, RuleId)> {
    let start = Position::from_fen(fen).expect("test FEN");
    let moves = parse_moves(&start, moves);
    adjudicate(&start, &moves, &RuleOptions::default()).map(|v| (v.result, v.rule))
}

/// The centipawn score of an `info` line; panics on a `mate` score.
fn cp(line: &str) -> i32 {
    assert!(
        field(line, "mate").is_none(),
        "unexpected mate score: {line}"
    );
    field(line, "cp")
        .unwrap_or_else(|| panic!("no cp score in '{line}'"))
        .parse()
        .expect("a number")
}

/// Every `info ... score` line of `lines`.
fn score_lines(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" score "))
        .collect()
}

#[test]
fn the_referee_judges_the_test_cycles_as_claimed() {
    // Two laps reach the third occurrence: Red checked (chased) on every move and loses.
    let two_laps = format!("{PERPETUAL_CHECK_CYCLE} {PERPETUAL_CHECK_CYCLE}");
    assert_eq!(
        referee(PERPETUAL_CHECK_FEN, &two_laps),
        Some((GameResult::BlackWins, RuleId::PerpetualCheck))
    );
    let two_laps = format!("{CHASE_CYCLE} {CHASE_CYCLE}");
    assert_eq!(
        referee(CHASE_FEN, &two_laps),
        Some((GameResult::BlackWins, RuleId::PerpetualChase))
    );
    // One lap is only the second occurrence: no verdict yet at the default threshold.
    assert_eq!(referee(CHASE_FEN, CHASE_CYCLE), None);
}

#[test]
fn enters_a_perpetual_check_the_opponent_must_break() {
    let mut e = Engine::uci();
    e.send(&format!("position fen {PERPETUAL_CHECK_FEN}"));
    let lines = e.go("depth 8");
    let score = cp(last_score_line(&lines));
    assert_eq!(best_move(&lines), "d8d9", "{lines:?}");
    // Judged as a draw, the cycle would score 0 and d8d7 (about +0) would do as well; judged
    // against Black, d8d9 would lose. Only the referee's verdict (Red offends) makes it winning.
    assert!(score > 500, "{lines:?}");
    e.quit();
}

#[test]
fn continues_a_shuttle_the_opponent_chases_perpetually() {
    // One lap already played: moving the horse back to b9 repeats the position after c7b9, and
    // the chariot chased the horse on every move of that cycle. Red must break, so for Black the
    // shuttle is a rule win; every other horse move keeps a merely level game.
    let mut e = Engine::uci();
    e.send(&format!("position fen {CHASE_FEN} moves {CHASE_CYCLE}"));
    let lines = e.go("depth 6");
    assert_eq!(best_move(&lines), "c7b9", "{lines:?}");
    assert!(cp(last_score_line(&lines)) >= RULE_WIN_BAND, "{lines:?}");
    for line in score_lines(&lines) {
        assert!(!line.contains(" mate "), "{line}");
    }
    e.quit();
}

#[test]
fn never_continues_its_own_perpetual_chase() {
    // Red to move after c7b9 c3b3 b9c7: b3c3 would complete a cycle in which Red chased the
    // horse with every move, so Red plays something else and keeps a normal score.
    let mut e = Engine::uci();
    e.send(&format!("position fen {CHASE_FEN} moves c7b9 c3b3 b9c7"));
    for depth in [1, 4, 7] {
        let lines = e.go(&format!("depth {depth}"));
        assert_ne!(best_move(&lines), "b3c3", "depth {depth}: {lines:?}");
        for line in score_lines(&lines) {
            assert!(cp(line).abs() < RULE_WIN_BAND, "depth {depth}: {line}");
        }
    }
    e.quit();
}

#[test]
fn repeated_histories_never_print_a_false_mate() {
    // Positions reached with repetitions in the game history (perpetual check by Red, Red's own
    // chase, shuffling in the opening): none has a forced mate within these depths, so no `info`
    // line at any depth may say `mate`. Rule wins print as large `cp` scores instead.
    let games = [
        format!("fen {PERPETUAL_CHECK_FEN} moves {PERPETUAL_CHECK_CYCLE}"),
        format!("fen {PERPETUAL_CHECK_FEN} moves {PERPETUAL_CHECK_CYCLE} d8d9"),
        format!("fen {CHASE_FEN} moves {CHASE_CYCLE} {CHASE_CYCLE}"),
        format!("fen {CHASE_FEN} moves {CHASE_CYCLE} c7b9 c3b3"),
        "startpos moves b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0".to_string(),
    ];
    let mut e = Engine::uci();
    for game in &games {
        e.send("ucinewgame");
        e.send(&format!("position {game}"));
        for depth in [3, 6, 8] {
            let lines = e.go(&format!("depth {depth}"));
            for line in score_lines(&lines) {
                assert!(!line.contains(" mate "), "{game}, depth {depth}: {line}");
            }
        }
    }
    e.quit();
}

#[test]
fn a_mate_on_the_limit_ply_still_wins() {
    // 119 plies without capture: a7a9 mates on the 120th, which wins rather than draws.
    let mut e = Engine::uci();
    e.send("position fen 3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 119 80");
    let lines = e.go("depth 3");
    assert_eq!(
        field(last_score_line(&lines), "mate"),
        Some("1"),
        "{lines:?}"
    );
    e.quit();
}

/// A chariot up with 99 plies played without capture (no mate in one).
const CLOCK_99_FEN: &str = "3k1a3/9/9/9/9/9/9/9/9/R4K3 w - - 99 60";

fn winning(line: &str) -> bool {
    match (field(line, "cp"), field(line, "mate")) {
        (Some(cp), _) => cp.parse::<i32>().is_ok_and(|cp| cp > 500),
        (None, Some(m)) => m.parse::<i32>().is_ok_and(|m| m > 0),
        _ => false,
    }
}

#[test]
fn no_capture_moves_50_draws_where_60_plays_on() {
    let mut e = Engine::uci();
    e.send(&format!("position fen {CLOCK_99_FEN}"));
    let lines = e.go("depth 5");
    assert!(winning(last_score_line(&lines)), "{lines:?}");
    e.send("setoption name NoCaptureMoves value 50");
    e.send(&format!("position fen {CLOCK_99_FEN}"));
    let lines = e.go("depth 5");
    assert_eq!(cp(last_score_line(&lines)), 0, "{lines:?}");
    // 0 switches the rule off.
    e.send("setoption name NoCaptureMoves value 0");
    e.send("position fen 3k1a3/9/9/9/9/9/9/9/9/R4K3 w - - 999 600");
    let lines = e.go("depth 5");
    assert!(winning(last_score_line(&lines)), "{lines:?}");
    e.quit();
}

#[test]
fn check_counting_and_check_cap_decide_when_checks_count() {
    // 115 plies, then four more with two red checks: 119 counted plies by default, so Red's
    // next move reaches the limit (a draw). With CheckCap 0 the two checks do not count, and
    // Red mates in time; with CheckCounting All every ply counts again.
    let game = "position fen 3k1a3/9/9/9/9/9/9/9/9/R4K3 w - - 115 80 moves a0a9 d9d8 a9a8 d8d9";
    let mut e = Engine::uci();
    e.send(game);
    let lines = e.go("depth 6");
    assert_eq!(cp(last_score_line(&lines)), 0, "{lines:?}");
    e.send("setoption name CheckCap value 0");
    let lines = e.go("depth 6");
    assert!(winning(last_score_line(&lines)), "{lines:?}");
    e.send("setoption name CheckCounting value All");
    let lines = e.go("depth 6");
    assert_eq!(cp(last_score_line(&lines)), 0, "{lines:?}");
    e.quit();
}

#[test]
fn bare_material_draw_is_an_option() {
    // Advisors and elephants against a bare general: a draw by rule, or an ordinary
    // evaluation with the rule off.
    let fen = "3k5/9/9/9/9/9/9/9/9/2BAKAB2 w - - 0 1";
    let mut e = Engine::uci();
    e.send(&format!("position fen {fen}"));
    let lines = e.go("depth 3");
    assert_eq!(cp(last_score_line(&lines)), 0, "{lines:?}");
    e.send("setoption name BareMaterialDraw value false");
    let lines = e.go("depth 3");
    let info = last_score_line(&lines);
    let ahead = match (field(info, "cp"), field(info, "mate")) {
        (Some(cp), _) => cp.parse::<i32>().is_ok_and(|cp| cp > 0),
        (None, Some(m)) => m.parse::<i32>().is_ok_and(|m| m > 0),
        _ => false,
    };
    assert!(ahead, "{lines:?}");
    e.quit();
}

#[test]
fn the_root_verdict_is_reported_at_the_repetition_threshold() {
    let two_laps = format!("position fen {CHASE_FEN} moves {CHASE_CYCLE} {CHASE_CYCLE}");
    let one_lap = format!("position fen {CHASE_FEN} moves {CHASE_CYCLE}");
    let verdict = |lines: &[String]| {
        lines
            .iter()
            .filter(|l| l.starts_with("info string rule: "))
            .cloned()
            .collect::<Vec<_>>()
    };
    let mut e = Engine::uci();
    // Third occurrence: the referee's verdict, once, and still a legal best move.
    e.send(&two_laps);
    let lines = e.go("depth 2");
    let found = verdict(&lines);
    assert_eq!(found.len(), 1, "{lines:?}");
    assert!(
        found[0].starts_with("info string rule: perpetual-chase 0-1: "),
        "{}",
        found[0]
    );
    assert!(best_move(&lines).len() == 4, "{lines:?}");
    // Second occurrence: nothing by default, the verdict with RepetitionThreshold 2.
    e.send(&one_lap);
    let lines = e.go("depth 2");
    assert!(verdict(&lines).is_empty(), "{lines:?}");
    e.send("setoption name RepetitionThreshold value 2");
    let lines = e.go("depth 2");
    assert_eq!(verdict(&lines).len(), 1, "{lines:?}");
    // Threshold 4: two laps are not enough.
    e.send("setoption name RepetitionThreshold value 4");
    e.send(&two_laps);
    let lines = e.go("depth 2");
    assert!(verdict(&lines).is_empty(), "{lines:?}");
    e.quit();
}

/// Every rule option with a good and a bad value, in the dialect's `setoption` form.
fn rule_option_values(uci: bool) -> Vec<(&'static str, &'static str, &'static str)> {
    let names = if uci {
        [
            "NoCaptureMoves",
            "CheckCounting",
            "CheckCap",
            "CheckVsChase",
            "ImmobileTargetRule",
            "RepetitionThreshold",
            "BareMaterialDraw",
        ]
    } else {
        [
            "nocapturemoves",
            "checkcounting",
            "checkcap",
            "checkvschase",
            "immobiletargetrule",
            "repetitionthreshold",
            "barematerialdraw",
        ]
    };
    let good = ["50", "Total", "3", "Draw", "false", "2", "false"];
    let bad = ["201", "Sometimes", "-1", "Nobody", "maybe", "6", "7"];
    names
        .into_iter()
        .zip(good)
        .zip(bad)
        .map(|((n, g), b)| (n, g, b))
        .collect()
}

#[test]
fn rule_options_are_announced_and_validated_in_uci() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.expect_line("uciok");
    for (name, good, bad) in rule_option_values(true) {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name} not announced: {hello:?}"
        );
        e.send(&format!("setoption name {name} value {good}"));
        assert!(e.sync().is_empty(), "{name} {good} refused");
        e.send(&format!("setoption name {name} value {bad}"));
        let answer = e.sync();
        assert_eq!(answer.len(), 1, "{name} {bad}: {answer:?}");
        assert!(answer[0].starts_with("info string error: "), "{answer:?}");
    }
    e.quit();
}

#[test]
fn rule_options_are_announced_and_validated_in_ucci() {
    let mut e = Engine::start();
    e.send("ucci");
    let hello = e.expect_line("ucciok");
    for (name, good, bad) in rule_option_values(false) {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option {name} type "))),
            "{name} not announced: {hello:?}"
        );
        e.send(&format!("setoption {name} {}", good.to_lowercase()));
        assert!(e.sync().is_empty(), "{name} {good} refused");
        e.send(&format!("setoption {name} {bad}"));
        let answer = e.sync();
        assert_eq!(answer.len(), 1, "{name} {bad}: {answer:?}");
        assert!(answer[0].starts_with("info string error: "), "{answer:?}");
    }
    e.quit();
}

#[test]
fn ucci_rule_options_change_the_search() {
    // nocapturemoves 50 in UCCI form: the position with 99 plies without capture is a draw.
    let mut e = Engine::ucci();
    e.send("setoption nocapturemoves 50");
    e.send(&format!("position fen {CLOCK_99_FEN}"));
    let lines = e.go("depth 5");
    assert_eq!(
        field(last_score_line(&lines), "score"),
        Some("0"),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn ucci_banmoves_excludes_the_rule_winning_shuttle() {
    let mut e = Engine::ucci();
    e.send(&format!("position fen {CHASE_FEN} moves {CHASE_CYCLE}"));
    e.send("banmoves c7b9");
    let lines = e.go("depth 4");
    assert_ne!(best_move(&lines), "c7b9", "{lines:?}");
    let score: i32 = field(last_score_line(&lines), "score")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(
        score.abs() < 1_000,
        "without the shuttle no rule win: {lines:?}"
    );
    e.quit();
}

/// The bound values of a UCCI `pophash` line.
fn pophash_bounds(line: &str) -> Vec<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[0] == "lowerbound" || w[0] == "upperbound")
        .map(|w| w[1].parse().expect("a bound value"))
        .collect()
}

/// UCCI score units from which a score is a rule win (the internal band scaled to UCCI).
const UCCI_RULE_WIN_BAND: i32 = 4_000;

#[test]
fn a_root_score_that_depends_on_the_game_history_is_not_stored() {
    // After one lap of the chase, c7b9 wins by the rule only because of the game history: the
    // table may keep the move for the position, but never that rule win as its score (UCCI
    // `probe` shows the bounds stored for the position).
    let mut e = Engine::ucci();
    let with_history = format!("fen {CHASE_FEN} moves {CHASE_CYCLE}");
    e.send(&format!("position {with_history}"));
    let lines = e.go("depth 6");
    assert_eq!(best_move(&lines), "c7b9", "{lines:?}");
    let reported: i32 = field(last_score_line(&lines), "score")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(reported >= UCCI_RULE_WIN_BAND, "{lines:?}");
    e.send(&format!("probe {with_history}"));
    let answer = e.expect_prefix("pophash");
    let pophash = answer.last().expect("a pophash line");
    for bound in pophash_bounds(pophash) {
        assert!(
            bound.abs() < UCCI_RULE_WIN_BAND,
            "history-dependent score stored: {pophash}"
        );
    }
    // Searched again without the history, the position is level: no stale rule win.
    e.send(&format!("position fen {CHASE_FEN}"));
    let lines = e.go("depth 6");
    let score: i32 = field(last_score_line(&lines), "score")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(score.abs() < UCCI_RULE_WIN_BAND, "{lines:?}");
    e.quit();
}
