//! The WXF rule manual's example diagrams (`tests/data/wxf-manual.tsv`: the manual's positions
//! as transcribed by the authors of arXiv 2412.17334, each cycle played to its third
//! occurrence), judged by `rules::adjudicate` under [`RuleSet::Asian`].
//!
//! Every case must get the manual's verdict except those in [`KNOWN_DIFFERENCES`], which must
//! still get another one: the list can only shrink as the referee learns the manual's rulings.

use engine_core::{adjudicate, Color, GameResult, Position, RankBase, RuleOptions, RuleSet};

/// The cases, committed with the crate's test data (`tests/data/README.md` gives the source).
const DATA_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wxf-manual.tsv");

/// How many cases the file holds: every repetition case of the source with moves.
const CASE_COUNT: usize = 171;

/// Cases the Asian rule set rules otherwise than the manual today: (id, why).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    (
        "W37",
        "the chariot that blocks a check stands pinned, and a pinned piece's capture of its \
         pinner is not counted as a threat",
    ),
    (
        "W61a",
        "protection of the red cannon b2 is read after the capture, so the standing black \
         chariot seems to chase it: both sides chase, draw",
    ),
    ("W61b", "as W61a, one ply shorter"),
    (
        "W71-75e",
        "the chariot stepping off the rank is read as chasing an unprotected cannon (its \
         protector's screen leaves with the capture); the manual calls it mutual: draw",
    ),
    (
        "W97-98a",
        "the advisor the cannon and chariot attack is taken as falsely protected in both \
         phases, so Red chases perpetually; the manual allows the threat to check and capture",
    ),
    (
        "W-L643",
        "a chariot pinned by a horse does not chase it, even when its side keeps removing the \
         horse's protector",
    ),
    ("W-L650", "as W71-75e (the same position)"),
];

struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    side_to_move: Color,
    expected: String,
    comment: String,
}

fn cases() -> Vec<Case> {
    let data = std::fs::read_to_string(DATA_PATH)
        .unwrap_or_else(|e| panic!("cannot read {DATA_PATH}: {e}"));
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

/// The verdict of `rule_set` on `case`, from the side to move's view.
fn verdict(case: &Case, rule_set: RuleSet) -> String {
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
    let options = RuleOptions::for_rule_set(rule_set);
    let ruling = adjudicate(&start, &moves, &options)
        .unwrap_or_else(|| panic!("{}: no verdict after the repetition", case.id));
    let got = view(ruling.result, case.side_to_move);
    println!(
        "{} [{}] {} got {} ({}): {}",
        case.id,
        rule_set.name(),
        case.comment,
        got,
        ruling.rule.id(),
        ruling.explanation
    );
    got.to_string()
}

#[test]
fn wxf_manual_cases_under_the_asian_rules() {
    let cases = cases();
    assert_eq!(cases.len(), CASE_COUNT, "the file holds {CASE_COUNT} cases");
    let mut failures = Vec::new();
    for case in &cases {
        let got = verdict(case, RuleSet::Asian);
        let known = KNOWN_DIFFERENCES.iter().any(|(id, _)| *id == case.id);
        if known && got == case.expected {
            failures.push(format!(
                "{} ({}): now ruled as the manual rules it; remove it from KNOWN_DIFFERENCES",
                case.id, case.comment
            ));
        } else if !known && got != case.expected {
            failures.push(format!(
                "{} ({}): expected {}, got {got}",
                case.id, case.comment, case.expected
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn wxf_manual_ids_are_unique_and_known_differences_exist() {
    let cases = cases();
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), before, "duplicate ids");
    for (id, _) in KNOWN_DIFFERENCES {
        assert!(ids.binary_search(id).is_ok(), "{id}: no such case");
    }
}
