//! The two rule books the referee can follow: the Vietnamese Xiangqi Law (Quyết định 1409/2004,
//! the default) and the Asian (AXF/WXF) rules used in international and online play.
//!
//! Both books share the same examples (the Law's Điều 24 figures are a translation of the Asian
//! rule book's diagrams), so most verdicts agree. They part where a move can be read two ways:
//! - a move that checks and also attacks a piece: the Law counts it only as a check (Điều 23
//!   point 2 "một chiếu một bắt", Điều 24.8: "neither perpetual check nor perpetual chase"); the
//!   Asian rules, which select "the reading that makes the move forbidden", also count its attack
//!   toward a chase;
//! - a move that threatens mate and also attacks a piece: the Law classes it as a mate threat,
//!   which is allowed (Điều 22 term 3, Điều 23 point 2, 24.5-24.7); the Asian rules count the
//!   attack (a mate threat there is an idle move, and the forbidden reading wins);
//! - a really protected piece that is pinned and cannot move: the Law forbids chasing it (Điều 23
//!   point 7); the Asian rules have no such rule (a pinned chariot is covered by their value and
//!   take-back rules, Diagrams 39-41 and 63-65), and the WXF manual's Diagram 97 rules a draw
//!   where the chaser keeps attacking advisors that are pinned and cannot move;
//! - the no-capture rule: the Law counts at most 5 checking plies per side toward the limit
//!   (Điều 12 c); the Asian rules let a side's first 10 checks count.
//!
//! `docs/rules.md` has the full table, difference by difference.

use std::fmt;
use std::str::FromStr;

use super::no_capture::CheckCounting;

/// Checking plies per side that count toward the no-capture limit under the Asian rules.
const ASIAN_COUNTED_CHECKS: u16 = 10;
/// Checking plies per side that count toward the no-capture limit under the Law (Điều 12 c).
const LAW_COUNTED_CHECKS: u16 = 5;

/// Which rule book decides repetitions and the no-capture limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// The Vietnamese Xiangqi Law of 2004 (Luật Cờ Tướng).
    #[default]
    Vietnamese,
    /// The Asian Xiangqi Federation / World Xiangqi Federation rules.
    Asian,
}

impl RuleSet {
    /// Both rule sets, the default first.
    pub const ALL: [RuleSet; 2] = [RuleSet::Vietnamese, RuleSet::Asian];

    /// Lower-case name, as command-line flags and engine options spell it.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Vietnamese => "vietnamese",
            RuleSet::Asian => "asian",
        }
    }

    /// Capitalised name, as UCI option values spell it.
    pub fn title(self) -> &'static str {
        match self {
            RuleSet::Vietnamese => "Vietnamese",
            RuleSet::Asian => "Asian",
        }
    }

    /// Whether a move that gives check may also count as a chase of the pieces it attacks.
    pub fn checks_can_chase(self) -> bool {
        self == RuleSet::Asian
    }

    /// Whether a move that threatens mate is a mate threat (allowed) even when it also attacks
    /// a piece, rather than a chase.
    pub fn mate_threats_excuse_attacks(self) -> bool {
        self == RuleSet::Vietnamese
    }

    /// Whether a really protected target that is pinned and cannot move may still not be chased
    /// (Điều 23 point 7), by default.
    pub fn immobile_targets_count(self) -> bool {
        self == RuleSet::Vietnamese
    }

    /// How checking plies count toward the no-capture limit by default.
    pub fn no_capture_checks(self) -> CheckCounting {
        match self {
            RuleSet::Vietnamese => CheckCounting::CapPerSide(LAW_COUNTED_CHECKS),
            RuleSet::Asian => CheckCounting::CapPerSide(ASIAN_COUNTED_CHECKS),
        }
    }

    /// Where this rule set's articles come from, for explanations.
    pub fn book(self) -> &'static str {
        match self {
            RuleSet::Vietnamese => "the Vietnamese Xiangqi Law",
            RuleSet::Asian => "the Asian (AXF/WXF) rules",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// A rule-set name that is neither `vietnamese` nor `asian`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleSet(pub String);

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule set '{}' (expected vietnamese or asian)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRuleSet {}

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    /// `vietnamese` or `asian`, in any case, surrounding blanks ignored.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        RuleSet::ALL
            .into_iter()
            .find(|rs| text.trim().eq_ignore_ascii_case(rs.name()))
            .ok_or_else(|| UnknownRuleSet(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for rs in RuleSet::ALL {
            assert_eq!(rs.name().parse::<RuleSet>(), Ok(rs));
            assert_eq!(rs.title().parse::<RuleSet>(), Ok(rs));
            assert_eq!(rs.to_string(), rs.title());
        }
        assert_eq!(" ASIAN ".parse::<RuleSet>(), Ok(RuleSet::Asian));
        let err = "chinese".parse::<RuleSet>().unwrap_err();
        assert!(err.to_string().contains("vietnamese or asian"), "{err}");
        assert_eq!(RuleSet::default(), RuleSet::Vietnamese);
    }
}
