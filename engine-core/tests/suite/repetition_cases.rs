//! The repetition-case files of `tests/data/` (`axf-repetition.tsv`, `wxf-manual.tsv`): one
//! case per line (id, FEN, ICCS moves with ranks 0-9, side to move after them, expected
//! verdict from that side's view, comment), read and judged by `rules::adjudicate` alike.

use engine_core::{
    adjudicate, Color, GameResult, Position, RankBase, RuleOptions, RuleSet, Verdict,
};

/// One line of a case file.
pub struct Case {
    pub id: String,
    pub fen: String,
    pub moves: Vec<String>,
    pub side_to_move: Color,
    pub expected: String,
    pub comment: String,
}

/// Every case of the file at `path` (comment and blank lines skipped).
pub fn read_cases(path: &str) -> Vec<Case> {
    let data = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
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

/// The files' word for `result` seen by `side`.
fn view(result: GameResult, side: Color) -> &'static str {
    match (result, side) {
        (GameResult::Draw, _) => "draw",
        (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => "win",
        _ => "loss",
    }
}

/// The referee's verdict on `case` under `rule_set`, and its word from the side to move's view
/// ("win", "loss" or "draw"); printed, so that `--nocapture` shows every ruling.
pub fn judge(case: &Case, rule_set: RuleSet) -> (Verdict, &'static str) {
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
    let verdict = adjudicate(&start, &moves, &RuleOptions::for_rule_set(rule_set))
        .unwrap_or_else(|| panic!("{}: no verdict after the repetition", case.id));
    let got = view(verdict.result, case.side_to_move);
    println!(
        "{} [{}] {} got {} ({}): {}",
        case.id,
        rule_set.name(),
        case.comment,
        got,
        verdict.rule.id(),
        verdict.explanation
    );
    (verdict, got)
}
