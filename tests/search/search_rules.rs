//! The rules inside the search, through the binary: repetition verdicts with game history, the
//! no-capture limit and its check cap, bare material, the root verdict at the repetition
//! threshold, and the rule options in both protocols. Fixed depths keep every test fast.

use crate::common;

use common::{best_move, field, last_score_line, Engine};
use engine_core::{adjudicate, GameResult, Move, Position, RankBase, RuleId, RuleOptions};

/// Centipawn scores below this are ordinary evaluations: rule wins and losses score like mates
/// and print as `mate`.
const EVAL_BAND: i32 = 5_000;

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
/// [`CHASE_FEN`] after c7b9 (Red to move), the start of a history in which c7b9 can make a
/// position occur for the third time while the position before it occurs only for the second.
const CHASE_AFTER_C7B9_FEN: &str = "1n1akab2/9/4b4/9/9/9/2R6/9/9/3K5 w - - 1 2";
/// From [`CHASE_AFTER_C7B9_FEN`], nearly two laps: Black to move, c7b9 would be the third
/// occurrence of the start position, with Red chasing on every move of the cycle.
const CHASE_NEARLY_TWO_LAPS: &str = "c3b3 b9c7 b3c3 c7b9 c3b3 b9c7 b3c3";

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

/// Every `info ... score` line of `lines`; a search prints at least one, so none fails the test
/// (a check over no lines would pass whatever the engine printed).
fn score_lines(lines: &[String]) -> Vec<&String> {
    let found: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" score "))
        .collect();
    assert!(!found.is_empty(), "no score line in:\n{}", lines.join("\n"));
    found
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
    assert_eq!(best_move(&lines), "d8d9", "{lines:?}");
    // Judged as a draw, the cycle would score 0 and d8d7 (about +0) would do as well; judged
    // against Black, d8d9 would lose. Only the referee's verdict (Red offends) makes it winning:
    // Red must break the checks, and at depth 8 the search sees Black mate after that.
    assert!(winning(last_score_line(&lines)), "{lines:?}");
    e.quit();
}

#[test]
fn prefers_a_later_mate_to_an_earlier_rule_loss() {
    // Nearly two laps of Red's perpetual check: i9i8 would make the start position occur for
    // the third time, a rule loss on Red's own move. Breaking the checks loses too (Black,
    // a chariot up, mates), but later: longest resistance plays on, and the rule loss scores
    // like being mated at its distance, not better than a mate.
    assert_eq!(
        referee(
            PERPETUAL_CHECK_FEN,
            &format!("{PERPETUAL_CHECK_CYCLE} d8d9 i8i9 d9d8 i9i8")
        ),
        Some((GameResult::BlackWins, RuleId::PerpetualCheck))
    );
    let mut e = Engine::uci();
    e.send(&format!(
        "position fen {PERPETUAL_CHECK_FEN} moves {PERPETUAL_CHECK_CYCLE} d8d9 i8i9 d9d8"
    ));
    let lines = e.go("depth 8");
    assert_ne!(best_move(&lines), "i9i8", "{lines:?}");
    let mate: i32 = field(last_score_line(&lines), "mate")
        .unwrap_or_else(|| panic!("a mate score: {lines:?}"))
        .parse()
        .expect("a number");
    assert!(mate < -1, "{lines:?}");
    // Only the rule loss left (searchmoves): it is a loss in one move, not a large cp score.
    let lines = e.go("depth 8 searchmoves i9i8");
    assert_eq!(
        field(last_score_line(&lines), "mate"),
        Some("-1"),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn continues_a_shuttle_the_opponent_chases_perpetually() {
    // c7b9 makes the position occur for the third time, and the chariot chased the horse on
    // every move of that cycle: the referee ends the game there, Red losing. For Black that is
    // a rule win one ply away, scored like a mate in one; every other horse move keeps a merely
    // level game.
    assert_eq!(
        referee(
            CHASE_AFTER_C7B9_FEN,
            &format!("{CHASE_NEARLY_TWO_LAPS} c7b9")
        ),
        Some((GameResult::BlackWins, RuleId::PerpetualChase))
    );
    let mut e = Engine::uci();
    e.send(&format!(
        "position fen {CHASE_AFTER_C7B9_FEN} moves {CHASE_NEARLY_TWO_LAPS}"
    ));
    let lines = e.go("depth 6");
    assert_eq!(best_move(&lines), "c7b9", "{lines:?}");
    assert_eq!(
        field(last_score_line(&lines), "mate"),
        Some("1"),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn a_chase_in_the_game_history_is_not_a_win_at_its_second_occurrence() {
    // After one lap, c7b9 repeats a position of the game for the second time only: the
    // referee lets the game go on, and Red, the chaser, can still vary. The search must not
    // score c7b9 as a rule win (it used to, at every depth).
    assert_eq!(referee(CHASE_FEN, &format!("{CHASE_CYCLE} c7b9")), None);
    let mut e = Engine::uci();
    e.send(&format!("position fen {CHASE_FEN} moves {CHASE_CYCLE}"));
    for depth in [1, 3, 6] {
        let lines = e.go(&format!("depth {depth}"));
        for line in score_lines(&lines) {
            assert!(cp(line).abs() < EVAL_BAND, "depth {depth}: {line}");
        }
    }
    e.quit();
}

#[test]
fn repeated_histories_never_print_a_false_mate() {
    // Positions reached with repetitions in the game history (Red's own chase, shuffling in
    // the opening): the referee does not end the game within these depths (the offender can
    // still vary and does) and nobody can be mated, so no `info` line at any depth may say
    // `mate` (rule wins and losses print as mates). (After one lap of the perpetual check the
    // search does print a mate, a real one: Red must break the checks and is then mated.)
    let games = [
        format!("fen {CHASE_FEN} moves {CHASE_CYCLE}"),
        format!("fen {CHASE_FEN} moves {CHASE_CYCLE} c7b9"),
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

/// Pikafish's "false mate 1" report (its issue 113): after these moves Red's h4g6 repeats a
/// position of the game for the second time, a cycle in which the referee finds an offender,
/// but the game goes on: Black can vary (after h6h8 g6h4 h8h6 h4g6 the game is a draw).
const FALSE_MATE_FEN: &str =
    "1rbaka3/3r5/n1c1b4/p1p1R3p/9/2c3P2/P3P3P/2NC2N2/4A4/R1BAK1B2 b - - 0 12";
/// The moves of [`FALSE_MATE_FEN`]'s game.
const FALSE_MATE_MOVES: &str = "d8d5 d2f2 d5f5 c0e2 c4c3 a3a4 b9b8 e6e4 f5f3 g2h4 b8h8 g4g5 \
     f3g3 g5f5 g3h3 h4g6 h8h6 f5f6 h3f3 g6h4 f3h3";

#[test]
fn no_false_win_from_a_cycle_played_before_the_root() {
    // The referee's view of the position and of its variations.
    assert_eq!(referee(FALSE_MATE_FEN, FALSE_MATE_MOVES), None);
    assert_eq!(
        referee(FALSE_MATE_FEN, &format!("{FALSE_MATE_MOVES} h4g6")),
        None
    );
    assert_eq!(
        referee(
            FALSE_MATE_FEN,
            &format!("{FALSE_MATE_MOVES} h4g6 h6h8 g6h4 h8h6 h4g6")
        ),
        Some((GameResult::Draw, RuleId::RepetitionDraw))
    );
    // The position itself and the variations on the way to that draw: the game is open at every
    // root, so no line may claim a mate or a rule win (it used to print `score cp 19999` with
    // `pv h4g6`, a rule win in one ply).
    let roots = [
        FALSE_MATE_MOVES.to_string(),
        format!("{FALSE_MATE_MOVES} h4g6"),
        format!("{FALSE_MATE_MOVES} h4g6 h6h8"),
        format!("{FALSE_MATE_MOVES} h4g6 h6h8 g6h4 h8h6"),
    ];
    let mut e = Engine::uci();
    for moves in &roots {
        e.send("ucinewgame");
        e.send(&format!("position fen {FALSE_MATE_FEN} moves {moves}"));
        for depth in [1, 2, 5, 9] {
            let lines = e.go(&format!("depth {depth}"));
            for line in score_lines(&lines) {
                assert!(cp(line).abs() < EVAL_BAND, "{moves}, depth {depth}: {line}");
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
            "RuleSet",
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
            "ruleset",
            "nocapturemoves",
            "checkcounting",
            "checkcap",
            "checkvschase",
            "immobiletargetrule",
            "repetitionthreshold",
            "barematerialdraw",
        ]
    };
    let good = ["Asian", "50", "Total", "3", "Draw", "false", "2", "false"];
    let bad = [
        "Chinese",
        "201",
        "Sometimes",
        "-1",
        "Nobody",
        "maybe",
        "6",
        "7",
    ];
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
    e.send(&format!(
        "position fen {CHASE_AFTER_C7B9_FEN} moves {CHASE_NEARLY_TWO_LAPS}"
    ));
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

/// UCCI score units from which a score is a mate or a rule win (UCCI mates are 10000 minus the
/// plies).
const UCCI_RULE_WIN_BAND: i32 = 9_000;

#[test]
fn a_root_score_that_depends_on_the_game_history_is_not_stored() {
    // After nearly two laps of the chase, c7b9 wins by the rule only because of the game
    // history: the table may keep the move for the position, but never that rule win as its
    // score (UCCI `probe` shows the bounds stored for the position).
    let mut e = Engine::ucci();
    let with_history = format!("fen {CHASE_AFTER_C7B9_FEN} moves {CHASE_NEARLY_TWO_LAPS}");
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
