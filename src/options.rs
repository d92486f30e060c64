//! Engine options: their declarations per dialect, parsing and validation.
//!
//! Names are matched case-insensitively ignoring spaces, `_` and `-`, so `Move Overhead`,
//! `moveoverhead` and `UCI_ShowWDL`/`ucishowwdl` all work in either dialect.

use crate::protocol::command::Dialect;
use engine_core::rules::{CheckCounting, CheckVersusChase, RuleOptions};

/// Largest `Hash` in MB.
pub const MAX_HASH_MB: usize = 65_536;
/// Largest `Threads`.
pub const MAX_THREADS: usize = 256;
/// Largest `MultiPV`.
pub const MAX_MULTIPV: usize = 128;
/// Largest `Move Overhead` in ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;
/// `NoCaptureMoves` range (full moves; the draw comes after twice as many plies; 0 = off). The
/// Law's values are 60 (Điều 7 e, the default) and 50 (Điều 12).
pub const NO_CAPTURE_MOVES_RANGE: (u32, u32) = (0, 200);
/// `CheckCap` range: checking plies that count toward the no-capture limit (per side or in all).
pub const CHECK_CAP_RANGE: (u16, u16) = (0, 200);
/// `RepetitionThreshold` range: the occurrence of a position at which the root verdict is given.
pub const REPETITION_THRESHOLD_RANGE: (u32, u32) = (2, 5);
/// Default `CheckCap` (Điều 12 c: checks count at most 5 times).
pub const DEFAULT_CHECK_CAP: u16 = 5;
/// Default hash in MB (also what UCCI `hashsize 0` = "auto" selects).
pub const DEFAULT_HASH_MB: usize = 16;
/// Default move overhead in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size (MB).
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// The GUI may send `go ponder` (affects nothing in the search itself).
    pub ponder: bool,
    /// Time kept back per move for communication lag (ms).
    pub move_overhead_ms: u64,
    /// Append `wdl` to UCI scores.
    pub show_wdl: bool,
    /// Move text with ranks 1-10 (cutechess, Fairy-Stockfish).
    pub ranks_from_one: bool,
    /// The rules the referee applies in the search and at the root (one set for the engine).
    pub rules: RuleOptions,
    /// `CheckCap`, kept even while `CheckCounting` is `All` so that switching back restores it.
    pub check_cap: u16,
    /// UCCI: times are in milliseconds.
    pub use_millisec: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            show_wdl: false,
            ranks_from_one: false,
            rules: RuleOptions {
                no_capture_checks: CheckCounting::CapPerSide(DEFAULT_CHECK_CAP),
                ..RuleOptions::default()
            },
            check_cap: DEFAULT_CHECK_CAP,
            use_millisec: false,
        }
    }
}

/// What the controller must do after an option changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond storing the value.
    None,
    /// Reallocate the hash table.
    ResizeHash,
    /// Clear the hash table.
    ClearHash,
    /// New game: clear hash and history.
    NewGame,
    /// Thread count changed.
    Threads,
}

/// Why `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// Not an option of this engine.
    Unknown(String),
    /// A value the option does not accept.
    BadValue(String),
}

fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

fn spin<T>(name: &str, value: Option<&str>, min: T, max: T) -> Result<T, OptionError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let v = value.ok_or_else(|| OptionError::BadValue(format!("option '{name}' needs a value")))?;
    let n: T = v
        .trim()
        .parse()
        .map_err(|_| OptionError::BadValue(format!("'{v}' is not a number for option '{name}'")))?;
    if n < min || n > max {
        return Err(OptionError::BadValue(format!(
            "{n} is out of range for option '{name}' ({min}..{max})"
        )));
    }
    Ok(n)
}

/// `CheckCounting` combo values, in announcement order.
const CHECK_COUNTING_VALUES: [&str; 3] = ["PerSide", "Total", "All"];
/// `CheckVsChase` combo values, in announcement order.
const CHECK_VS_CHASE_VALUES: [&str; 2] = ["CheckerLoses", "Draw"];

/// Matches a combo value case-insensitively, ignoring spaces, `_` and `-`; returns its index.
fn combo(name: &str, value: Option<&str>, values: &[&str]) -> Result<usize, OptionError> {
    let v = value.ok_or_else(|| OptionError::BadValue(format!("option '{name}' needs a value")))?;
    let wanted = normalize(v);
    values
        .iter()
        .position(|c| normalize(c) == wanted)
        .ok_or_else(|| {
            OptionError::BadValue(format!(
                "'{}' is not one of {} for option '{name}'",
                v.trim(),
                values.join("/")
            ))
        })
}

fn check(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") | Some("on") => Ok(true),
        Some("false") | Some("off") => Ok(false),
        Some(v) => Err(OptionError::BadValue(format!(
            "'{v}' is not true/false for option '{name}'"
        ))),
        None => Err(OptionError::BadValue(format!(
            "option '{name}' needs true or false"
        ))),
    }
}

impl Options {
    /// The rank convention for move text.
    pub fn rank_base(&self) -> engine_core::RankBase {
        if self.ranks_from_one {
            engine_core::RankBase::One
        } else {
            engine_core::RankBase::Zero
        }
    }

    /// The check-counting rule for a mode index of [`CHECK_COUNTING_VALUES`] and a cap.
    fn check_counting(mode: usize, cap: u16) -> CheckCounting {
        match mode {
            0 => CheckCounting::CapPerSide(cap),
            1 => CheckCounting::CapTotal(cap),
            _ => CheckCounting::All,
        }
    }

    /// Index in [`CHECK_COUNTING_VALUES`] of the current check-counting mode.
    fn check_counting_mode(&self) -> usize {
        match self.rules.no_capture_checks {
            CheckCounting::CapPerSide(_) => 0,
            CheckCounting::CapTotal(_) => 1,
            CheckCounting::All => 2,
        }
    }

    /// Applies `setoption`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let auto_threads = || {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        };
        match normalize(name).as_str() {
            "hash" | "hashsize" => {
                let mb = spin(name, value, 0, MAX_HASH_MB)?;
                self.hash_mb = if mb == 0 { DEFAULT_HASH_MB } else { mb };
                Ok(Effect::ResizeHash)
            }
            "threads" => {
                let t = spin(name, value, 0, MAX_THREADS)?;
                self.threads = if t == 0 { auto_threads() } else { t };
                Ok(Effect::Threads)
            }
            "multipv" => {
                self.multipv = spin(name, value, 1, MAX_MULTIPV)?;
                Ok(Effect::None)
            }
            "ponder" => {
                self.ponder = check(name, value)?;
                Ok(Effect::None)
            }
            "moveoverhead" => {
                self.move_overhead_ms = spin(name, value, 0, MAX_MOVE_OVERHEAD_MS)?;
                Ok(Effect::None)
            }
            "clearhash" => Ok(Effect::ClearHash),
            "newgame" => Ok(Effect::NewGame),
            "ucishowwdl" => {
                self.show_wdl = check(name, value)?;
                Ok(Effect::None)
            }
            "ucivariant" => match value.map(str::trim) {
                Some(v) if v.eq_ignore_ascii_case("xiangqi") => Ok(Effect::None),
                Some(v) => Err(OptionError::BadValue(format!(
                    "variant '{v}' is not supported (only xiangqi)"
                ))),
                None => Err(OptionError::BadValue("UCI_Variant needs a value".into())),
            },
            "ranksonetoten" => {
                self.ranks_from_one = check(name, value)?;
                Ok(Effect::None)
            }
            "nocapturemoves" => {
                let (lo, hi) = NO_CAPTURE_MOVES_RANGE;
                self.rules.no_capture_moves = spin(name, value, lo, hi)?;
                Ok(Effect::None)
            }
            "checkcounting" => {
                let mode = combo(name, value, &CHECK_COUNTING_VALUES)?;
                self.rules.no_capture_checks = Self::check_counting(mode, self.check_cap);
                Ok(Effect::None)
            }
            "checkcap" => {
                let (lo, hi) = CHECK_CAP_RANGE;
                self.check_cap = spin(name, value, lo, hi)?;
                self.rules.no_capture_checks =
                    Self::check_counting(self.check_counting_mode(), self.check_cap);
                Ok(Effect::None)
            }
            "checkvschase" => {
                self.rules.check_vs_chase = match combo(name, value, &CHECK_VS_CHASE_VALUES)? {
                    0 => CheckVersusChase::CheckerLoses,
                    _ => CheckVersusChase::Draw,
                };
                Ok(Effect::None)
            }
            "immobiletargetrule" => {
                self.rules.chase.immobile_target_counts = check(name, value)?;
                Ok(Effect::None)
            }
            "repetitionthreshold" => {
                let (lo, hi) = REPETITION_THRESHOLD_RANGE;
                self.rules.repetition_threshold = spin(name, value, lo, hi)?;
                Ok(Effect::None)
            }
            "barematerialdraw" => {
                self.rules.insufficient_material_draw = check(name, value)?;
                Ok(Effect::None)
            }
            "usemillisec" => {
                self.use_millisec = check(name, value)?;
                Ok(Effect::None)
            }
            _ => Err(OptionError::Unknown(name.to_string())),
        }
    }

    /// The `option ...` lines announced after `uci` / `ucci`.
    pub fn declarations(dialect: Dialect) -> Vec<String> {
        let d = Options::default();
        let (nc_lo, nc_hi) = NO_CAPTURE_MOVES_RANGE;
        let (cap_lo, cap_hi) = CHECK_CAP_RANGE;
        let (rep_lo, rep_hi) = REPETITION_THRESHOLD_RANGE;
        let r = &d.rules;
        let counting_default = CHECK_COUNTING_VALUES[d.check_counting_mode()];
        let vs_default = match r.check_vs_chase {
            CheckVersusChase::CheckerLoses => CHECK_VS_CHASE_VALUES[0],
            CheckVersusChase::Draw => CHECK_VS_CHASE_VALUES[1],
        };
        let vars = |values: &[&str]| {
            values
                .iter()
                .map(|v| format!(" var {v}"))
                .collect::<String>()
        };
        match dialect {
            Dialect::Uci => vec![
                format!("option name Hash type spin default {} min 1 max {MAX_HASH_MB}", d.hash_mb),
                format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
                format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
                "option name Ponder type check default false".into(),
                format!(
                    "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
                    d.move_overhead_ms
                ),
                "option name Clear Hash type button".into(),
                "option name UCI_ShowWDL type check default false".into(),
                "option name UCI_Variant type combo default xiangqi var xiangqi".into(),
                "option name RanksOneToTen type check default false".into(),
                format!(
                    "option name NoCaptureMoves type spin default {} min {nc_lo} max {nc_hi}",
                    r.no_capture_moves
                ),
                format!(
                    "option name CheckCounting type combo default {counting_default}{}",
                    vars(&CHECK_COUNTING_VALUES)
                ),
                format!(
                    "option name CheckCap type spin default {} min {cap_lo} max {cap_hi}",
                    d.check_cap
                ),
                format!(
                    "option name CheckVsChase type combo default {vs_default}{}",
                    vars(&CHECK_VS_CHASE_VALUES)
                ),
                format!(
                    "option name ImmobileTargetRule type check default {}",
                    r.chase.immobile_target_counts
                ),
                format!(
                    "option name RepetitionThreshold type spin default {} min {rep_lo} max {rep_hi}",
                    r.repetition_threshold
                ),
                format!(
                    "option name BareMaterialDraw type check default {}",
                    r.insufficient_material_draw
                ),
            ],
            Dialect::Ucci => vec![
                "option usemillisec type check default false".into(),
                format!(
                    "option hashsize type spin min 0 max {MAX_HASH_MB} default {}",
                    d.hash_mb
                ),
                format!("option threads type spin min 0 max {MAX_THREADS} default 1"),
                "option ponder type check default false".into(),
                format!("option multipv type spin min 1 max {MAX_MULTIPV} default 1"),
                format!(
                    "option moveoverhead type spin min 0 max {MAX_MOVE_OVERHEAD_MS} default {}",
                    d.move_overhead_ms
                ),
                format!(
                    "option nocapturemoves type spin min {nc_lo} max {nc_hi} default {}",
                    r.no_capture_moves
                ),
                format!(
                    "option checkcounting type combo{} default {}",
                    vars(&CHECK_COUNTING_VALUES).to_lowercase(),
                    counting_default.to_lowercase()
                ),
                format!(
                    "option checkcap type spin min {cap_lo} max {cap_hi} default {}",
                    d.check_cap
                ),
                format!(
                    "option checkvschase type combo{} default {}",
                    vars(&CHECK_VS_CHASE_VALUES).to_lowercase(),
                    vs_default.to_lowercase()
                ),
                format!(
                    "option immobiletargetrule type check default {}",
                    r.chase.immobile_target_counts
                ),
                format!(
                    "option repetitionthreshold type spin min {rep_lo} max {rep_hi} default {}",
                    r.repetition_threshold
                ),
                format!(
                    "option barematerialdraw type check default {}",
                    r.insufficient_material_draw
                ),
                "option newgame type button".into(),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_matched_loosely_and_values_checked() {
        let mut o = Options::default();
        assert_eq!(o.set("Move Overhead", Some("50")), Ok(Effect::None));
        assert_eq!(o.move_overhead_ms, 50);
        assert_eq!(o.set("hashsize", Some("0")), Ok(Effect::ResizeHash));
        assert_eq!(o.hash_mb, DEFAULT_HASH_MB);
        assert!(matches!(
            o.set("Hash", Some("-1")),
            Err(OptionError::BadValue(_))
        ));
        assert!(matches!(
            o.set("MultiPV", Some("0")),
            Err(OptionError::BadValue(_))
        ));
        assert!(matches!(
            o.set("Ponder", Some("maybe")),
            Err(OptionError::BadValue(_))
        ));
        assert!(matches!(
            o.set("Frobnicate", Some("1")),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            o.set("UCI_Variant", Some("chess")),
            Err(OptionError::BadValue(_))
        ));
        assert_eq!(o.move_overhead_ms, 50, "failed sets change nothing");
        assert_eq!(o.set("NoCaptureMoves", Some("50")), Ok(Effect::None));
        assert_eq!(o.rules.no_capture_moves, 50);
    }

    #[test]
    fn rule_options_fill_one_rule_set() {
        let mut o = Options::default();
        assert_eq!(o.rules, RuleOptions::default());
        assert_eq!(o.set("CheckCap", Some("7")), Ok(Effect::None));
        assert_eq!(o.rules.no_capture_checks, CheckCounting::CapPerSide(7));
        assert_eq!(o.set("checkcounting", Some("total")), Ok(Effect::None));
        assert_eq!(o.rules.no_capture_checks, CheckCounting::CapTotal(7));
        assert_eq!(o.set("CheckCounting", Some("All")), Ok(Effect::None));
        assert_eq!(o.rules.no_capture_checks, CheckCounting::All);
        assert_eq!(o.set("CheckCounting", Some("PerSide")), Ok(Effect::None));
        assert_eq!(o.rules.no_capture_checks, CheckCounting::CapPerSide(7));
        assert!(matches!(
            o.set("CheckCounting", Some("Sometimes")),
            Err(OptionError::BadValue(_))
        ));
        assert_eq!(o.set("CheckVsChase", Some("draw")), Ok(Effect::None));
        assert_eq!(o.rules.check_vs_chase, CheckVersusChase::Draw);
        assert_eq!(o.set("ImmobileTargetRule", Some("false")), Ok(Effect::None));
        assert!(!o.rules.chase.immobile_target_counts);
        assert_eq!(o.set("RepetitionThreshold", Some("2")), Ok(Effect::None));
        assert_eq!(o.rules.repetition_threshold, 2);
        assert!(matches!(
            o.set("RepetitionThreshold", Some("1")),
            Err(OptionError::BadValue(_))
        ));
        assert_eq!(
            o.rules.repetition_threshold, 2,
            "a refused value keeps the old one"
        );
        assert_eq!(o.set("BareMaterialDraw", Some("false")), Ok(Effect::None));
        assert!(!o.rules.insufficient_material_draw);
        assert_eq!(o.set("NoCaptureMoves", Some("0")), Ok(Effect::None));
        assert!(matches!(
            o.set("NoCaptureMoves", Some("201")),
            Err(OptionError::BadValue(_))
        ));
        assert_eq!(o.rules.no_capture_moves, 0);
    }
}
