//! A test suite: positions whose EPD operations name the best move (`bm`) or a move to avoid
//! (`am`). A position is solved when the engine's first move is one of its `bm` moves and none
//! of its `am` moves; positions with neither are analyzed but not scored.

use engine_core::{Move, Notation, Position};
use serde::Serialize;
use std::fmt::Write;

use super::super::epd::Operation;
use super::position_review::PositionReview;

/// What a position of the suite expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// The `id` operation, if any.
    pub id: Option<String>,
    /// `bm` moves: the engine must play one of them (empty: any move but an `am` one).
    pub best: Vec<Move>,
    /// `am` moves: the engine must play none of them.
    pub avoid: Vec<Move>,
}

impl Expectation {
    /// The expectation of a position's operations, `None` without `bm` or `am`. Moves are read
    /// in the first of `notations` that reads them as a legal move of `pos`.
    pub fn from_operations(
        pos: &Position,
        operations: &[Operation],
        notations: &[Notation],
    ) -> Result<Option<Expectation>, String> {
        let mut expectation = Expectation {
            id: None,
            best: Vec::new(),
            avoid: Vec::new(),
        };
        let mut scored = false;
        for op in operations {
            let moves = match op.opcode.as_str() {
                "bm" => &mut expectation.best,
                "am" => &mut expectation.avoid,
                "id" => {
                    expectation.id = op.operands.first().cloned();
                    continue;
                }
                _ => continue,
            };
            scored = true;
            if op.operands.is_empty() {
                return Err(format!("{} needs at least one move", op.opcode));
            }
            for text in &op.operands {
                moves.push(
                    read_move(pos, text, notations)
                        .map_err(|e| format!("{} {text}: {e}", op.opcode))?,
                );
            }
        }
        Ok(scored.then_some(expectation))
    }

    /// Whether playing `found` (`None`: no move, the game being over) solves the position.
    pub fn solved_by(&self, found: Option<Move>) -> bool {
        found.is_some_and(|mv| {
            (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
        })
    }

    /// `bm X Y, am Z` in `notation`.
    fn describe(&self, pos: &Position, notation: Notation) -> String {
        let mut parts = Vec::new();
        for (opcode, moves) in [("bm", &self.best), ("am", &self.avoid)] {
            if !moves.is_empty() {
                let texts: Vec<String> = moves.iter().map(|&m| notation.format(pos, m)).collect();
                parts.push(format!("{opcode} {}", texts.join(" ")));
            }
        }
        parts.join(", ")
    }
}

/// Reads `text` as a legal move of `pos` in the first notation of `notations` that can.
fn read_move(pos: &Position, text: &str, notations: &[Notation]) -> Result<Move, String> {
    let mut first_error = None;
    for notation in notations {
        match notation.parse(pos, text) {
            Ok(mv) => return Ok(mv),
            Err(e) => {
                first_error.get_or_insert(format!("{e} (as {})", notation.label()));
            }
        }
    }
    Err(first_error.unwrap_or_else(|| "no notation to read it in".into()))
}

/// A position the engine did not solve.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    /// Where it came from (`FILE:LINE`).
    pub source: String,
    /// Its `id`, if any.
    pub id: Option<String>,
    /// What it expects (`bm ...`, `am ...`), in the output notation.
    pub expected: String,
    /// The engine's move, in the output notation (`none` when the game is over).
    pub found: String,
}

/// The score of a suite.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteScore {
    /// Positions solved.
    pub solved: usize,
    /// Positions with `bm` or `am`.
    pub total: usize,
    /// Each position not solved, in file order.
    pub failures: Vec<Failure>,
}

/// Scores the reviews of the positions that expect something; `None` when none does.
pub fn score(
    reviews: &[PositionReview],
    expectations: &[Option<Expectation>],
    notation: Notation,
) -> Option<SuiteScore> {
    let mut suite = SuiteScore {
        solved: 0,
        total: 0,
        failures: Vec::new(),
    };
    for (review, expectation) in reviews.iter().zip(expectations) {
        let Some(expectation) = expectation else {
            continue;
        };
        suite.total += 1;
        let found = review.analysis.lines.first().map(|line| line.mv);
        if expectation.solved_by(found) {
            suite.solved += 1;
        } else {
            suite.failures.push(Failure {
                source: review.source.clone(),
                id: expectation.id.clone(),
                expected: expectation.describe(&review.position, notation),
                found: found.map_or_else(
                    || "none".to_string(),
                    |mv| notation.format(&review.position, mv),
                ),
            });
        }
    }
    (suite.total > 0).then_some(suite)
}

impl SuiteScore {
    /// `solved N of M`, then a line per failure.
    pub fn write(&self, out: &mut String) {
        let _ = writeln!(out, "Test suite: solved {} of {}", self.solved, self.total);
        for f in &self.failures {
            let id =
                f.id.as_deref()
                    .map(|id| format!("id \"{id}\" "))
                    .unwrap_or_default();
            let _ = writeln!(
                out,
                "  failed: {id}({}): expected {}, found {}",
                f.source, f.expected, f.found
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::RankBase;

    fn op(opcode: &str, operands: &[&str]) -> Operation {
        Operation {
            opcode: opcode.into(),
            operands: operands.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn moves_in_any_notation_and_the_verdict() {
        let pos = Position::startpos();
        let e = Expectation::from_operations(
            &pos,
            &[
                op("bm", &["h2e2", "炮八平五"]),
                op("am", &["C2=3"]),
                op("id", &["x"]),
            ],
            &Notation::ALL,
        )
        .expect("readable")
        .expect("scored");
        let central = pos.parse_move("h2e2", RankBase::Zero).expect("legal");
        let other = pos.parse_move("b2e2", RankBase::Zero).expect("legal");
        let avoided = pos.parse_move("h2g2", RankBase::Zero).expect("legal");
        assert_eq!(e.best, [central, other]);
        assert_eq!(e.avoid, [avoided]);
        assert_eq!(e.id.as_deref(), Some("x"));
        assert!(e.solved_by(Some(central)));
        assert!(!e.solved_by(None));
        let avoid_only = Expectation::from_operations(&pos, &[op("am", &["h2g2"])], &Notation::ALL)
            .expect("readable")
            .expect("scored");
        assert!(avoid_only.solved_by(Some(central)));
        assert!(!avoid_only.solved_by(Some(avoided)));
        assert_eq!(
            Expectation::from_operations(&pos, &[op("id", &["x"])], &Notation::ALL),
            Ok(None)
        );
        let err =
            Expectation::from_operations(&pos, &[op("bm", &["h2h8"])], &Notation::ALL).unwrap_err();
        assert!(err.starts_with("bm h2h8: "), "{err}");
        assert!(Expectation::from_operations(&pos, &[op("bm", &[])], &Notation::ALL).is_err());
    }
}
