//! The WXF rule manual's example diagrams (`tests/data/wxf-manual.tsv`: the manual's positions
//! as transcribed by the authors of arXiv 2412.17334, each cycle played to its third
//! occurrence), judged by `rules::adjudicate` under both rule sets.
//!
//! Every case must get the manual's verdict under both (the Law's Điều 24 figures are the same
//! diagrams, with the same rulings), except those in [`KNOWN_DIFFERENCES`] under the rule set
//! named there, which must still get another one: the list can only shrink as the referee
//! learns the manual's rulings.

use super::repetition_cases::{judge, read_cases, Case};
use engine_core::RuleSet;

/// The cases, committed with the crate's test data (`tests/data/README.md` gives the source).
const DATA_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wxf-manual.tsv");

/// How many cases the file holds: every repetition case of the source with moves.
const CASE_COUNT: usize = 171;

/// Cases a rule set rules otherwise than the manual today: (id, rule set, why).
const KNOWN_DIFFERENCES: &[(&str, RuleSet, &str)] = &[(
    "W97-98a",
    RuleSet::Vietnamese,
    "the advisors the cannon and the chariot attack are pinned and cannot move, and the Law \
     forbids chasing such a piece (Điều 23 point 7), so Red chases perpetually; the Law's own \
     Hình 97 (Điều 24.34) allows the threat to check and capture: a draw",
)];

fn cases() -> Vec<Case> {
    read_cases(DATA_PATH)
}

/// Whether `case` is one the referee is known to rule otherwise than the manual under
/// `rule_set`.
fn known_difference(case: &Case, rule_set: RuleSet) -> bool {
    KNOWN_DIFFERENCES
        .iter()
        .any(|(id, set, _)| *id == case.id && *set == rule_set)
}

/// Every case gets the manual's verdict under `rule_set`, and every known difference still
/// differs from it.
fn check_rule_set(rule_set: RuleSet) {
    let cases = cases();
    assert_eq!(cases.len(), CASE_COUNT, "the file holds {CASE_COUNT} cases");
    let mut failures = Vec::new();
    for case in &cases {
        let (_, got) = judge(case, rule_set);
        let known = known_difference(case, rule_set);
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
fn wxf_manual_cases_under_the_asian_rules() {
    check_rule_set(RuleSet::Asian);
}

#[test]
fn wxf_manual_cases_under_the_vietnamese_law() {
    check_rule_set(RuleSet::Vietnamese);
}

#[test]
fn wxf_manual_ids_are_unique_and_known_differences_exist() {
    let cases = cases();
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), before, "duplicate ids");
    for (id, _, _) in KNOWN_DIFFERENCES {
        assert!(ids.binary_search(id).is_ok(), "{id}: no such case");
    }
}
