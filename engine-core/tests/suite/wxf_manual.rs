//! The WXF rule manual's example diagrams (`tests/data/wxf-manual.tsv`: the manual's positions
//! as transcribed by the authors of arXiv 2412.17334, each cycle played to its third
//! occurrence), judged by `rules::adjudicate` under [`RuleSet::Asian`].
//!
//! Every case must get the manual's verdict except those in [`KNOWN_DIFFERENCES`], which must
//! still get another one: the list can only shrink as the referee learns the manual's rulings.

use super::repetition_cases::{judge, read_cases, Case};
use engine_core::RuleSet;

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

fn cases() -> Vec<Case> {
    read_cases(DATA_PATH)
}

#[test]
fn wxf_manual_cases_under_the_asian_rules() {
    let cases = cases();
    assert_eq!(cases.len(), CASE_COUNT, "the file holds {CASE_COUNT} cases");
    let mut failures = Vec::new();
    for case in &cases {
        let (_, got) = judge(case, RuleSet::Asian);
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
