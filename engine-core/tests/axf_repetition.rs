//! The 33 repetition cases of `shared/testdata/axf-repetition.tsv` (Asian rules, ranks 0-9,
//! expected results from an independent referee, from the side to move's view), judged by
//! `rules::adjudicate` with the default (Vietnamese Law) options.
//!
//! Where the Vietnamese Law requires a different verdict than the file, [`LAW_OVERRIDES`] holds
//! the Law's verdict and the article; the test asserts the Law's verdict for those cases.

use engine_core::rules::{adjudicate, GameResult, RuleId, RuleOptions};
use engine_core::{Color, Position, RankBase};

/// The shared test data lives beside the repository (`../shared`), as in CI.
const DATA_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/testdata/axf-repetition.tsv"
);

/// Cases where the file's expectation is replaced by the Law's verdict: (id, expected from the
/// side to move's view, article). None of the 32 asserted cases needs one: the Law agrees with
/// the file on all of them. F31 is "unasserted" in the file; the Law decides it.
const LAW_OVERRIDES: &[(&str, &str, &str)] = &[(
    "F31",
    "win",
    // After e9f9 the black horse e5 is no longer pinned and attacks the unprotected red cannon
    // f3; after f9e9 the red horse e1 can no longer recapture on f3 (the generals would face):
    // each black general move creates a threat by the horse on the same cannon, protected only
    // falsely. Điều 22 term 16, Điều 24.30 (false protection), discovered threats counted as the
    // move's own (our reading of Điều 24.26, digest §8 item 4). Black loses.
    "Điều 24.30",
)];

struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    side_to_move: Color,
    expected: String,
    comment: String,
}

fn cases() -> Vec<Case> {
    let data = std::fs::read_to_string(DATA_PATH).unwrap_or_else(|e| {
        panic!("cannot read {DATA_PATH}: {e} (check out the repository with shared/ beside it)")
    });
    let mut out = Vec::new();
    for line in data.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 6, "malformed line: {line}");
        let side_to_move = match f[3] {
            "w" => Color::Red,
            "b" => Color::Black,
            other => panic!("bad side {other} in {line}"),
        };
        out.push(Case {
            id: f[0].to_string(),
            fen: f[1].to_string(),
            moves: f[2].split_whitespace().map(str::to_string).collect(),
            side_to_move,
            expected: f[4].to_string(),
            comment: f[5].to_string(),
        });
    }
    out
}

/// The file's word for `result` seen by `side`.
fn view(result: GameResult, side: Color) -> &'static str {
    match (result, side) {
        (GameResult::Draw, _) => "draw",
        (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => "win",
        _ => "loss",
    }
}

#[test]
fn all_33_axf_cases() {
    let cases = cases();
    assert_eq!(cases.len(), 33, "the file holds 33 cases");
    let options = RuleOptions::default();
    let mut failures = Vec::new();
    for case in &cases {
        let start = Position::from_fen(&case.fen).expect("valid FEN");
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for text in &case.moves {
            let mv = pos
                .parse_move(text, RankBase::Zero)
                .unwrap_or_else(|e| panic!("{}: {e}", case.id));
            pos.make_move(mv);
            moves.push(mv);
        }
        assert_eq!(pos.side_to_move(), case.side_to_move, "{}", case.id);
        let verdict = adjudicate(&start, &moves, &options)
            .unwrap_or_else(|| panic!("{}: no verdict after the repetition", case.id));
        assert!(
            matches!(
                verdict.rule,
                RuleId::PerpetualCheck | RuleId::PerpetualChase | RuleId::RepetitionDraw
            ),
            "{}: decided by {:?}",
            case.id,
            verdict.rule
        );
        let got = view(verdict.result, case.side_to_move);
        let expected = LAW_OVERRIDES
            .iter()
            .find(|(id, _, _)| *id == case.id)
            .map_or(case.expected.as_str(), |(_, e, _)| e);
        println!(
            "{} {} got {} ({}): {}",
            case.id,
            case.comment,
            got,
            verdict.rule.id(),
            verdict.explanation
        );
        if expected != "unasserted" && got != expected {
            failures.push(format!(
                "{} ({}): expected {expected}, got {got}: {}",
                case.id, case.comment, verdict.explanation
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
