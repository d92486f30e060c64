//! Game outcomes other than repetition cycles: checkmate, stalemate, the no-capture limit (50 or
//! 60 moves, checks counted per the option), insufficient material, the repetition threshold and
//! illegal input.

use engine_core::{
    adjudicate, try_adjudicate, CheckCounting, GameResult, RuleId, RuleOptions, Verdict,
};
use engine_core::{Move, Position, RankBase};

fn play(fen: &str, moves: &str) -> (Position, Vec<Move>) {
    let start = Position::from_fen(fen).expect("valid FEN");
    let mut pos = start.clone();
    let mut list = Vec::new();
    for text in moves.split_whitespace() {
        let mv = pos.parse_move(text, RankBase::Zero).expect("legal move");
        pos.make_move(mv);
        list.push(mv);
    }
    (start, list)
}

fn judge(fen: &str, moves: &str, options: &RuleOptions) -> Option<Verdict> {
    let (start, list) = play(fen, moves);
    adjudicate(&start, &list, options)
}

/// Red chariot a8 checks on rank 9 and back while the black general steps e9-e8: every red ply
/// here is a check (2 checks in 4 plies), and the start position occurs only twice.
const CHECKING_FEN_116: &str = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 116 1";
const TWO_CHECKS: &str = "a8a9 e9e8 a9a8 e8e9";

#[test]
fn no_capture_limit_60_by_default() {
    let options = RuleOptions::default();
    // 118 plies on the clock: two quiet plies reach 120 = 60 moves.
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 118 1";
    assert_eq!(judge(fen, "d0d1", &options), None);
    let v = judge(fen, "d0d1 e9f9", &options).expect("limit reached");
    assert_eq!(v.result, GameResult::Draw);
    assert_eq!(v.rule, RuleId::NoCapture);
    assert!(v.explanation.contains("60-move limit"), "{}", v.explanation);
}

#[test]
fn no_capture_limit_50_selectable() {
    let options = RuleOptions {
        no_capture_moves: 50,
        ..RuleOptions::default()
    };
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 98 1";
    assert_eq!(judge(fen, "d0d1", &options), None);
    let v = judge(fen, "d0d1 e9f9", &options).expect("limit reached");
    assert_eq!(v.rule, RuleId::NoCapture);
    // The same game is still going under the default 60.
    assert_eq!(judge(fen, "d0d1 e9f9", &RuleOptions::default()), None);
}

#[test]
fn a_capture_resets_the_count() {
    let options = RuleOptions::default();
    // 118 on the clock, then the red chariot takes the black cannon: the count restarts.
    let fen = "4k4/R8/c8/9/9/9/9/9/9/3K5 w - - 118 1";
    assert_eq!(judge(fen, "a8a7 e9f9", &options), None);
}

#[test]
fn checks_count_toward_the_limit_per_the_option() {
    // Every ply counts: 116 + 4 = 120 at ply 4.
    let all = RuleOptions {
        no_capture_checks: CheckCounting::All,
        ..RuleOptions::default()
    };
    let v = judge(CHECKING_FEN_116, TWO_CHECKS, &all).expect("limit");
    assert_eq!(v.rule, RuleId::NoCapture);
    // Default (5 checking plies per side count): Red's 2 checks all count.
    let v = judge(CHECKING_FEN_116, TWO_CHECKS, &RuleOptions::default()).expect("limit");
    assert_eq!(v.rule, RuleId::NoCapture);
    // Only 1 check per side counts: Red's second check does not, so 119 are counted after 4
    // plies and the limit comes one quiet ply later.
    let cap1 = RuleOptions {
        no_capture_checks: CheckCounting::CapPerSide(1),
        ..RuleOptions::default()
    };
    assert_eq!(judge(CHECKING_FEN_116, TWO_CHECKS, &cap1), None);
    let v = judge(CHECKING_FEN_116, "a8a9 e9e8 a9a8 e8e9 d0d1", &cap1).expect("limit");
    assert_eq!(v.rule, RuleId::NoCapture);
    // No check counts at all (a total cap of 0): two more quiet plies are needed.
    let total0 = RuleOptions {
        no_capture_checks: CheckCounting::CapTotal(0),
        ..RuleOptions::default()
    };
    assert_eq!(
        judge(CHECKING_FEN_116, "a8a9 e9e8 a9a8 e8e9 d0d1", &total0),
        None
    );
    let v = judge(CHECKING_FEN_116, "a8a9 e9e8 a9a8 e8e9 d0d1 e9f9", &total0).expect("limit");
    assert_eq!(v.rule, RuleId::NoCapture);
}

#[test]
fn mate_on_the_limit_move_still_wins() {
    // 119 plies on the clock; Red's 120th ply b0b9 mates (the chariot a8 covers rank 8).
    let fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 119 1";
    let v = judge(fen, "b0b9", &RuleOptions::default()).expect("decided");
    assert_eq!(v.result, GameResult::RedWins);
    assert_eq!(v.rule, RuleId::Checkmate);
    // A quiet 120th ply instead reaches the limit.
    let v = judge(fen, "b0b1", &RuleOptions::default()).expect("decided");
    assert_eq!(v.rule, RuleId::NoCapture);
}

#[test]
fn stalemate_loses_for_the_side_to_move() {
    // Black's general on d9 has no move (d8 and e9 covered) and is not in check.
    let v = judge(
        "3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1",
        "",
        &RuleOptions::default(),
    )
    .expect("decided");
    assert_eq!(v.result, GameResult::RedWins);
    assert_eq!(v.rule, RuleId::Stalemate);
}

#[test]
fn checkmate_after_a_move() {
    let v = judge(
        "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1",
        "b0b9",
        &RuleOptions::default(),
    )
    .expect("mate");
    assert_eq!((v.result, v.rule), (GameResult::RedWins, RuleId::Checkmate));
    assert!(
        v.explanation.contains("Black is checkmated"),
        "{}",
        v.explanation
    );
}

#[test]
fn insufficient_material() {
    // Only generals and advisors: drawn at once.
    let v = judge(
        "3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
        "",
        &RuleOptions::default(),
    )
    .expect("drawn");
    assert_eq!(
        (v.result, v.rule),
        (GameResult::Draw, RuleId::InsufficientMaterial)
    );
    // Capturing the last cannon leaves no attacking piece on either side.
    let fen = "3k5/9/9/9/9/9/9/3c5/4A4/4K4 w - - 0 1";
    assert_eq!(judge(fen, "", &RuleOptions::default()), None);
    let v = judge(fen, "e1d2", &RuleOptions::default()).expect("drawn");
    assert_eq!(v.rule, RuleId::InsufficientMaterial);
    // A single soldier is attacking material.
    assert_eq!(
        judge(
            "3k5/9/9/9/9/9/4P4/9/4A4/4K4 w - - 0 1",
            "",
            &RuleOptions::default()
        ),
        None
    );
    // The option can turn the automatic draw off.
    let off = RuleOptions {
        insufficient_material_draw: false,
        ..RuleOptions::default()
    };
    assert_eq!(
        judge("3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "", &off),
        None
    );
}

const CHASE_FEN: &str = "3k5/9/c8/9/9/9/9/1R7/9/4K4 w - - 0 1";

#[test]
fn repetition_threshold_is_an_option() {
    let two_cycles = "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7";
    // Default 3: decided at the third occurrence (ply 8), not at the second (ply 4).
    assert_eq!(
        judge(CHASE_FEN, "b2a2 a7b7 a2b2 b7a7", &RuleOptions::default()),
        None
    );
    let v = judge(CHASE_FEN, two_cycles, &RuleOptions::default()).expect("decided");
    assert_eq!(v.rule, RuleId::PerpetualChase);
    assert!(v.explanation.contains("plies 1-8"), "{}", v.explanation);
    // Threshold 2: already at the second occurrence.
    let two = RuleOptions {
        repetition_threshold: 2,
        ..RuleOptions::default()
    };
    let v = judge(CHASE_FEN, "b2a2 a7b7 a2b2 b7a7", &two).expect("decided");
    assert_eq!(v.result, GameResult::BlackWins);
    assert!(v.explanation.contains("plies 1-4"), "{}", v.explanation);
    // Threshold 4: not yet after two cycles.
    let four = RuleOptions {
        repetition_threshold: 4,
        ..RuleOptions::default()
    };
    assert_eq!(judge(CHASE_FEN, two_cycles, &four), None);
}

#[test]
fn explanation_names_side_rule_target_and_plies() {
    let v = judge(
        CHASE_FEN,
        "b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7",
        &RuleOptions::default(),
    )
    .expect("decided");
    for needle in [
        "Black wins",
        "Red chased the black cannon on a7",
        "unprotected",
        "8-ply",
        "Điều 23 point 3",
    ] {
        assert!(
            v.explanation.contains(needle),
            "{needle}: {}",
            v.explanation
        );
    }
}

#[test]
fn illegal_moves_are_reported_not_trusted() {
    let start = Position::startpos();
    let bogus = engine_core::parse_move("a5a6", RankBase::Zero).expect("well-formed");
    let err = try_adjudicate(&start, &[bogus], &RuleOptions::default()).expect_err("illegal");
    assert_eq!(err.ply, 1);
    assert_eq!(adjudicate(&start, &[bogus], &RuleOptions::default()), None);
}

#[test]
fn moves_after_the_decision_are_ignored() {
    // Mate at ply 1; the record goes on (Black cannot really move, but the record is ignored).
    let (start, mut moves) = play("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0b9");
    moves.push(moves[0]);
    let v = adjudicate(&start, &moves, &RuleOptions::default()).expect("mate");
    assert_eq!(v.rule, RuleId::Checkmate);
}

#[test]
fn no_capture_helper_for_the_search() {
    let options = RuleOptions::default();
    let (start, moves) = play("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 118 1", "d0d1 e9f9");
    assert!(!options.no_capture_limit_reached(&start));
    let mut pos = start.clone();
    for &mv in &moves {
        pos.make_move(mv);
    }
    assert!(options.no_capture_limit_reached(&pos));
}
