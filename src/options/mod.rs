//! Engine options, declared once in [`OPTIONS`]: each entry has its name per protocol (UCI,
//! UCCI, or only one of them), its type with range and default, whether it is hidden from the
//! listings, and how a validated value is stored. The `uci`/`ucci` listings (`protocol`), the
//! validation of `setoption` ([`Options::set`]) and the defaults ([`Options::default`]) are all
//! derived from the table, so they cannot drift apart; adding an option is one entry here (and a
//! field in [`Options`] if it stores something).
//!
//! Names are matched case-insensitively ignoring spaces, `_` and `-`, against the names of both
//! protocols, so `Move Overhead`, `moveoverhead` and `UCI_ShowWDL`/`ucishowwdl` all work in
//! either dialect.

mod spec;

pub use spec::{ComboValue, OptionError, OptionKind, OptionValue, Spec};

pub(crate) use spec::{check, combo, combo_values, normalize, spin};

use crate::search::{Tunable, TUNABLES};
use crate::strength::{self, Strength};
use engine_core::{CheckCounting, CheckVersusChase, RuleOptions, RuleSet};

/// Largest `Hash` in MB.
pub const MAX_HASH_MB: i64 = 65_536;
/// Largest `Threads`.
pub const MAX_THREADS: i64 = 256;

/// Threads for a request of `n`: 0 means every core, as the `Threads` option and every
/// `--threads` of the command line read it.
pub fn threads_or_all_cores(n: usize) -> usize {
    if n == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        n
    }
}
/// Largest `MultiPV`.
pub const MAX_MULTIPV: i64 = 128;
/// Largest `Move Overhead` in ms.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5_000;
/// `NoCaptureMoves` range (full moves; the draw comes after twice as many plies; 0 = off). The
/// Law's values are 60 (Điều 7 e, the default) and 50 (Điều 12).
pub const NO_CAPTURE_MOVES_RANGE: (i64, i64) = (0, 200);
/// `CheckCap` range: checking plies that count toward the no-capture limit (per side or in all).
pub const CHECK_CAP_RANGE: (i64, i64) = (0, 200);
/// `RepetitionThreshold` range: the occurrence of a position at which the root verdict is given.
pub const REPETITION_THRESHOLD_RANGE: (i64, i64) = (2, 5);
/// Default `CheckCap` (Điều 12 c: checks count at most 5 times).
pub const DEFAULT_CHECK_CAP: i64 = 5;
/// Default hash in MB (also what `Hash`/`hashsize` 0, "auto", selects).
pub const DEFAULT_HASH_MB: i64 = 16;
/// Default move overhead in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 30;
/// `CheckCounting`: how checking plies count toward the no-capture limit (with `CheckCap`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckCountingMode {
    /// At most `CheckCap` checks of each side count.
    PerSide,
    /// At most `CheckCap` checks in all count.
    Total,
    /// Every check counts.
    All,
}

combo_values!(CheckCountingMode {
    PerSide => "PerSide",
    Total => "Total",
    All => "All",
});

/// A UCCI grade of `knowledge` and `randomness`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Grade {
    /// `none`.
    None,
    /// `small`.
    Small,
    /// `medium`.
    Medium,
    /// `large`.
    Large,
}

combo_values!(Grade {
    None => "none",
    Small => "small",
    Medium => "medium",
    Large => "large",
});

impl Grade {
    /// This grade's entry of a table of levels, one per grade from `none` to `large`
    /// (`strength::KNOWLEDGE_LEVELS`, `RANDOMNESS_LEVELS`).
    fn level(self, levels: &[f64; 4]) -> f64 {
        match self {
            Grade::None => levels[0],
            Grade::Small => levels[1],
            Grade::Medium => levels[2],
            Grade::Large => levels[3],
        }
    }
}

// The Vietnamese Law first, the default.
combo_values!(RuleSet {
    Vietnamese => "Vietnamese",
    Asian => "Asian",
});

combo_values!(CheckVersusChase {
    CheckerLoses => "CheckerLoses",
    Draw => "Draw",
});
/// Largest `StrengthSeed`.
pub const MAX_STRENGTH_SEED: i64 = u32::MAX as i64;
/// Highest `Skill Level` (full strength).
pub const MAX_SKILL_LEVEL: i64 = 20;

/// An option of the engine's table.
pub type OptionSpec = Spec<Options, Effect>;

/// What the engine must do after an option changed.
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
    /// `EvalFile` changed: load that net (keep the old one and refuse the value on failure),
    /// then install the evaluation `Use NNUE` selects.
    LoadNet,
    /// `Use NNUE` changed: install the network or the handcrafted evaluation.
    Evaluation,
    /// The random choice of weakened play starts from a new seed.
    ReseedStrength,
}

/// Every option of the engine, in listing order.
pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        kind: OptionKind::Spin {
            default: DEFAULT_HASH_MB,
            min: 0,
            max: MAX_HASH_MB,
        },
        hidden: false,
        apply: |o, v| {
            let mb: usize = spin(v);
            o.hash_mb = if mb == 0 {
                DEFAULT_HASH_MB as usize
            } else {
                mb
            };
            Effect::ResizeHash
        },
    },
    OptionSpec {
        uci: Some("Threads"),
        ucci: Some("threads"),
        kind: OptionKind::Spin {
            default: 1,
            min: 0,
            max: MAX_THREADS,
        },
        hidden: false,
        apply: |o, v| {
            o.threads = threads_or_all_cores(spin(v));
            Effect::Threads
        },
    },
    OptionSpec {
        uci: Some("MultiPV"),
        ucci: Some("multipv"),
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
        },
        hidden: false,
        apply: |o, v| {
            o.multipv = spin(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        kind: OptionKind::Check { default: false },
        hidden: false,
        apply: |o, v| {
            o.ponder = check(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("Move Overhead"),
        ucci: Some("moveoverhead"),
        kind: OptionKind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
        hidden: false,
        apply: |o, v| {
            o.move_overhead_ms = spin(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("Clear Hash"),
        ucci: None,
        kind: OptionKind::Button,
        hidden: false,
        apply: |_, _| Effect::ClearHash,
    },
    OptionSpec {
        uci: None,
        ucci: Some("newgame"),
        kind: OptionKind::Button,
        hidden: false,
        apply: |_, _| Effect::NewGame,
    },
    OptionSpec {
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        kind: OptionKind::String {
            default: crate::eval::nnue::EMBEDDED_NET_OPTION,
        },
        hidden: false,
        apply: |o, v| {
            if let OptionValue::String(path) = v {
                o.eval_file = path.clone();
            }
            Effect::LoadNet
        },
    },
    OptionSpec {
        uci: Some("Use NNUE"),
        ucci: Some("usennue"),
        kind: OptionKind::Check { default: true },
        hidden: false,
        apply: |o, v| {
            o.use_nnue = check(v);
            Effect::Evaluation
        },
    },
    OptionSpec {
        uci: Some("RuleSet"),
        ucci: Some("ruleset"),
        kind: OptionKind::Combo {
            default: 0,
            values: RuleSet::NAMES,
        },
        hidden: false,
        // The rule book, and its defaults for the check cap of the no-capture rule and the
        // immobile-target rule (a `CheckCap` or `ImmobileTargetRule` sent afterwards overrides
        // them). Stored scores were found under the old rules: cleared.
        apply: |o, v| {
            let rule_set: RuleSet = combo(v);
            o.rules.rule_set = rule_set;
            if let CheckCounting::CapPerSide(cap) = rule_set.no_capture_checks() {
                o.check_cap = cap;
            }
            o.rules.no_capture_checks = o.check_counting();
            o.rules.chase.immobile_target_counts = rule_set.immobile_targets_count();
            Effect::ClearHash
        },
    },
    OptionSpec {
        uci: Some("Skill Level"),
        ucci: None,
        kind: OptionKind::Spin {
            default: MAX_SKILL_LEVEL,
            min: 0,
            max: MAX_SKILL_LEVEL,
        },
        hidden: false,
        apply: |o, v| {
            o.skill_level = spin(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("UCI_LimitStrength"),
        ucci: None,
        kind: OptionKind::Check { default: false },
        hidden: false,
        apply: |o, v| {
            o.limit_strength = check(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("UCI_Elo"),
        ucci: None,
        kind: OptionKind::Spin {
            default: strength::MIN_ELO,
            min: strength::MIN_ELO,
            max: strength::MAX_ELO,
        },
        hidden: false,
        apply: |o, v| {
            o.uci_elo = spin(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: None,
        ucci: Some("knowledge"),
        kind: OptionKind::Combo {
            default: Grade::Large as usize,
            values: Grade::NAMES,
        },
        hidden: false,
        apply: |o, v| {
            o.knowledge = combo(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: None,
        ucci: Some("randomness"),
        kind: OptionKind::Combo {
            default: Grade::None as usize,
            values: Grade::NAMES,
        },
        hidden: false,
        apply: |o, v| {
            o.randomness = combo(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("StrengthSeed"),
        ucci: Some("strengthseed"),
        kind: OptionKind::Spin {
            default: 0,
            min: 0,
            max: MAX_STRENGTH_SEED,
        },
        hidden: true,
        apply: |o, v| {
            o.strength_seed = spin(v);
            Effect::ReseedStrength
        },
    },
    OptionSpec {
        uci: Some("NoCaptureMoves"),
        ucci: Some("nocapturemoves"),
        kind: OptionKind::Spin {
            default: 60,
            min: NO_CAPTURE_MOVES_RANGE.0,
            max: NO_CAPTURE_MOVES_RANGE.1,
        },
        hidden: false,
        apply: |o, v| {
            o.rules.no_capture_moves = spin(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("CheckCounting"),
        ucci: Some("checkcounting"),
        kind: OptionKind::Combo {
            default: CheckCountingMode::PerSide as usize,
            values: CheckCountingMode::NAMES,
        },
        hidden: false,
        apply: |o, v| {
            o.check_counting_mode = combo(v);
            o.rules.no_capture_checks = o.check_counting();
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("CheckCap"),
        ucci: Some("checkcap"),
        kind: OptionKind::Spin {
            default: DEFAULT_CHECK_CAP,
            min: CHECK_CAP_RANGE.0,
            max: CHECK_CAP_RANGE.1,
        },
        hidden: false,
        apply: |o, v| {
            o.check_cap = spin(v);
            o.rules.no_capture_checks = o.check_counting();
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("CheckVsChase"),
        ucci: Some("checkvschase"),
        kind: OptionKind::Combo {
            default: 0,
            values: CheckVersusChase::NAMES,
        },
        hidden: false,
        apply: |o, v| {
            o.rules.check_vs_chase = combo(v);
            Effect::ClearHash
        },
    },
    OptionSpec {
        uci: Some("ImmobileTargetRule"),
        ucci: Some("immobiletargetrule"),
        kind: OptionKind::Check { default: true },
        hidden: false,
        apply: |o, v| {
            o.rules.chase.immobile_target_counts = check(v);
            Effect::ClearHash
        },
    },
    OptionSpec {
        uci: Some("RepetitionThreshold"),
        ucci: Some("repetitionthreshold"),
        kind: OptionKind::Spin {
            default: 3,
            min: REPETITION_THRESHOLD_RANGE.0,
            max: REPETITION_THRESHOLD_RANGE.1,
        },
        hidden: false,
        apply: |o, v| {
            o.rules.repetition_threshold = spin(v);
            Effect::None
        },
    },
    OptionSpec {
        uci: Some("BareMaterialDraw"),
        ucci: Some("barematerialdraw"),
        kind: OptionKind::Check { default: true },
        hidden: false,
        apply: |o, v| {
            o.rules.insufficient_material_draw = check(v);
            Effect::None
        },
    },
];

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
    /// The rules the referee applies in the search and at the root (one set for the engine).
    pub rules: RuleOptions,
    /// `CheckCounting`; with `check_cap` it makes `rules.no_capture_checks`.
    pub check_counting_mode: CheckCountingMode,
    /// `CheckCap`, kept even while `CheckCounting` is `All` so that switching back restores it.
    pub check_cap: u16,
    /// The net file (`EvalFile`); empty or `<embedded>`: the net built into the binary.
    pub eval_file: String,
    /// Evaluate with the net (`Use NNUE`); false: the handcrafted evaluation.
    pub use_nnue: bool,
    /// `Skill Level`, 0-20 (20: full strength).
    pub skill_level: u8,
    /// `UCI_LimitStrength`: play at `uci_elo`.
    pub limit_strength: bool,
    /// `UCI_Elo`, on the scale of `strength::SKILL_ELO`.
    pub uci_elo: i64,
    /// UCCI `knowledge`.
    pub knowledge: Grade,
    /// UCCI `randomness`.
    pub randomness: Grade,
    /// Seed of the random choice of weakened play (0: a different one each run).
    pub strength_seed: u64,
}

impl Default for Options {
    /// Every option at its declared default.
    fn default() -> Self {
        // Placeholders, each overwritten by an option's default below.
        let mut o = Options {
            hash_mb: 0,
            threads: 0,
            multipv: 0,
            ponder: false,
            move_overhead_ms: 0,
            rules: RuleOptions::default(),
            check_counting_mode: CheckCountingMode::PerSide,
            check_cap: 0,
            eval_file: String::new(),
            use_nnue: false,
            skill_level: 0,
            limit_strength: false,
            uci_elo: 0,
            knowledge: Grade::Large,
            randomness: Grade::None,
            strength_seed: 0,
        };
        for spec in OPTIONS {
            (spec.apply)(&mut o, &spec.default_value());
        }
        o
    }
}

impl Options {
    /// How strongly to play: the weakest of `Skill Level`, `UCI_Elo` (with `UCI_LimitStrength`),
    /// and for each part the UCCI grade (`knowledge` for how far the engine looks, `randomness`
    /// for how freely it chooses). Full strength unless one of them is set below it.
    pub fn strength(&self) -> Strength {
        let mut s = Strength::level(f64::from(self.skill_level));
        if self.limit_strength {
            s = s.min(Strength::level(strength::level_of_elo(self.uci_elo)));
        }
        s.min(Strength {
            effort: self.knowledge.level(&strength::KNOWLEDGE_LEVELS),
            choice: self.randomness.level(&strength::RANDOMNESS_LEVELS),
        })
    }

    /// The check-counting rule of the current `CheckCounting` mode and `CheckCap`.
    fn check_counting(&self) -> CheckCounting {
        match self.check_counting_mode {
            CheckCountingMode::PerSide => CheckCounting::CapPerSide(self.check_cap),
            CheckCountingMode::Total => CheckCounting::CapTotal(self.check_cap),
            CheckCountingMode::All => CheckCounting::All,
        }
    }

    /// Applies `setoption`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        #[cfg(feature = "tune")]
        if find(name).is_none() {
            return set_tunable(name, value);
        }
        let spec = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let v = spec.parse(name, value)?;
        Ok((spec.apply)(self, &v))
    }
}

/// `tune` builds: sets the tunable constant called `name`, a hidden spin option of the range in
/// its table entry ([`TUNABLES`]); the value lives with the search, not in [`Options`].
#[cfg(feature = "tune")]
fn set_tunable(name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
    let (index, tunable) =
        find_tunable(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    let spec = OptionSpec {
        uci: Some(tunable.name),
        ucci: Some(tunable.name),
        kind: OptionKind::Spin {
            default: i64::from(tunable.default),
            min: i64::from(tunable.min),
            max: i64::from(tunable.max),
        },
        hidden: true,
        apply: |_, _| Effect::None,
    };
    if let OptionValue::Spin(v) = spec.parse(name, value)? {
        // In range, so it fits an i32.
        crate::search::set_tunable(index, v as i32);
    }
    Ok(Effect::None)
}

/// The option called `name` (in either protocol's spelling).
pub fn find(name: &str) -> Option<&'static OptionSpec> {
    OPTIONS.iter().find(|s| s.is_named(name))
}

/// The tunable constant called `name` (matched like an option name: `tune` builds offer each as
/// a hidden option), with its index in the search's table.
pub fn find_tunable(name: &str) -> Option<(usize, &'static Tunable)> {
    let wanted = normalize(name);
    TUNABLES
        .iter()
        .enumerate()
        .find(|(_, t)| normalize(t.name) == wanted)
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
        assert_eq!(o.hash_mb, DEFAULT_HASH_MB as usize);
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
        assert_eq!(o.set("CheckVsChase", Some("draw")), Ok(Effect::ClearHash));
        assert_eq!(o.rules.check_vs_chase, CheckVersusChase::Draw);
        assert_eq!(
            o.set("ImmobileTargetRule", Some("false")),
            Ok(Effect::ClearHash)
        );
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

    #[test]
    fn rule_set_chooses_the_book_and_its_check_cap() {
        assert_eq!(<RuleSet as ComboValue>::VALUES, RuleSet::ALL);
        for (i, rs) in RuleSet::ALL.into_iter().enumerate() {
            assert_eq!(RuleSet::NAMES[i], rs.title());
        }
        let mut o = Options::default();
        assert_eq!(o.rules.rule_set, RuleSet::Vietnamese);
        assert_eq!(o.set("RuleSet", Some("Asian")), Ok(Effect::ClearHash));
        assert_eq!(o.rules, RuleOptions::for_rule_set(RuleSet::Asian));
        assert_eq!(o.rules.no_capture_checks, CheckCounting::CapPerSide(10));
        // A CheckCap sent afterwards overrides the rule set's.
        assert_eq!(o.set("checkcap", Some("3")), Ok(Effect::None));
        assert_eq!(o.rules.no_capture_checks, CheckCounting::CapPerSide(3));
        assert_eq!(o.rules.rule_set, RuleSet::Asian);
        assert!(!o.rules.chase.immobile_target_counts);
        // ImmobileTargetRule sent afterwards overrides the rule set's.
        assert_eq!(
            o.set("ImmobileTargetRule", Some("true")),
            Ok(Effect::ClearHash)
        );
        assert!(o.rules.chase.immobile_target_counts);
        // UCCI spelling, any case; back to the Law and its defaults.
        assert_eq!(o.set("ruleset", Some("vietnamese")), Ok(Effect::ClearHash));
        assert_eq!(o.rules, RuleOptions::default());
        assert!(matches!(
            o.set("RuleSet", Some("Chinese")),
            Err(OptionError::BadValue(_))
        ));
        assert_eq!(o.rules, RuleOptions::default());
    }

    /// The option tables give a combo's default as its variant's discriminant: it must be the
    /// variant's index among the values.
    #[test]
    fn combo_enums_list_their_variants_in_declaration_order() {
        for (i, g) in Grade::VALUES.iter().enumerate() {
            assert_eq!(*g as usize, i, "{g:?}");
        }
        for (i, m) in CheckCountingMode::VALUES.iter().enumerate() {
            assert_eq!(*m as usize, i, "{m:?}");
        }
        assert_eq!(Grade::VALUES.len(), Grade::NAMES.len());
        let o = Options::default();
        assert_eq!(o.knowledge, Grade::Large);
        assert_eq!(o.randomness, Grade::None);
        assert_eq!(o.check_counting_mode, CheckCountingMode::PerSide);
    }

    /// Every name an option answers to.
    fn names(spec: &OptionSpec) -> Vec<&'static str> {
        [spec.uci, spec.ucci].into_iter().flatten().collect()
    }

    /// A fingerprint of every option value, to see that a refused `set` changed nothing.
    fn snapshot(o: &Options) -> String {
        format!("{o:?}")
    }

    #[test]
    fn every_declared_range_is_enforced_under_every_name() {
        for spec in OPTIONS {
            assert!(!names(spec).is_empty(), "an option without a name");
            for name in names(spec) {
                let mut o = Options::default();
                let before = snapshot(&o);
                let refused = |o: &mut Options, v: &str| {
                    assert!(
                        matches!(o.set(name, Some(v)), Err(OptionError::BadValue(_))),
                        "{name} accepted '{v}'"
                    );
                    assert_eq!(snapshot(o), before, "{name} '{v}' changed the options");
                };
                match spec.kind {
                    OptionKind::Spin { min, max, default } => {
                        assert!((min..=max).contains(&default), "{name} default");
                        refused(&mut o, &(min - 1).to_string());
                        refused(&mut o, &(max + 1).to_string());
                        refused(&mut o, "twelve");
                        refused(&mut o, "1.5");
                        for v in [min, max, default] {
                            assert!(o.set(name, Some(&v.to_string())).is_ok(), "{name} {v}");
                        }
                    }
                    OptionKind::Check { .. } => {
                        refused(&mut o, "maybe");
                        refused(&mut o, "1");
                        for v in ["true", "false", "on", "off", " TRUE "] {
                            assert!(o.set(name, Some(v)).is_ok(), "{name} {v}");
                        }
                    }
                    OptionKind::Combo { values, default } => {
                        assert!(default < values.len(), "{name} default");
                        refused(&mut o, "no-such-value");
                        for v in values {
                            assert!(o.set(name, Some(v)).is_ok(), "{name} {v}");
                            let lower = v.to_lowercase();
                            assert!(o.set(name, Some(&lower)).is_ok(), "{name} {lower}");
                        }
                    }
                    OptionKind::Button | OptionKind::String { .. } => {
                        assert!(o.set(name, None).is_ok());
                    }
                }
            }
        }
    }

    #[test]
    fn defaults_are_the_declared_ones() {
        let o = Options::default();
        assert_eq!(o.hash_mb, DEFAULT_HASH_MB as usize);
        assert_eq!(o.threads, 1);
        assert_eq!(o.multipv, 1);
        assert_eq!(o.move_overhead_ms, DEFAULT_MOVE_OVERHEAD_MS as u64);
        assert_eq!(o.rules, RuleOptions::default());
        // Setting every option to its default changes nothing.
        let mut again = Options::default();
        for spec in OPTIONS {
            (spec.apply)(&mut again, &spec.default_value());
        }
        assert_eq!(snapshot(&again), snapshot(&o));
    }

    #[test]
    fn strength_options_combine_to_the_weakest() {
        let mut o = Options::default();
        assert!(o.strength().is_full(), "full strength by default");
        assert_eq!(o.set("UCI_Elo", Some("1500")), Ok(Effect::None));
        assert!(o.strength().is_full(), "UCI_Elo alone changes nothing");
        assert_eq!(o.set("UCI_LimitStrength", Some("true")), Ok(Effect::None));
        let elo = strength::level_of_elo(1500);
        assert_eq!(o.strength(), Strength::level(elo));
        assert_eq!(o.set("Skill Level", Some("3")), Ok(Effect::None));
        assert_eq!(
            o.strength(),
            Strength::level(3.0),
            "the weaker setting wins"
        );
        assert_eq!(o.set("UCI_LimitStrength", Some("false")), Ok(Effect::None));
        assert_eq!(o.set("Skill Level", Some("20")), Ok(Effect::None));
        assert_eq!(o.set("knowledge", Some("small")), Ok(Effect::None));
        assert_eq!(
            o.strength(),
            Strength {
                effort: strength::KNOWLEDGE_LEVELS[1],
                choice: strength::FULL_LEVEL
            }
        );
        assert_eq!(o.set("randomness", Some("Large")), Ok(Effect::None));
        assert_eq!(
            o.strength(),
            Strength {
                effort: strength::KNOWLEDGE_LEVELS[1],
                choice: 0.0
            }
        );
        assert!(matches!(
            o.set("Skill Level", Some("21")),
            Err(OptionError::BadValue(_))
        ));
        assert!(matches!(
            o.set("randomness", Some("huge")),
            Err(OptionError::BadValue(_))
        ));
        assert_eq!(o.set("StrengthSeed", Some("9")), Ok(Effect::ReseedStrength));
    }

    #[test]
    fn string_values_and_hidden_options() {
        let path = OptionSpec {
            uci: Some("EvalFile"),
            ucci: Some("evalfile"),
            kind: OptionKind::String { default: "net.bin" },
            hidden: true,
            apply: |_, _| Effect::None,
        };
        assert!(path.is_named("evalfile") && path.is_named("Eval File"));
        assert_eq!(
            path.parse("EvalFile", Some(" /nets/a b.bin ")),
            Ok(OptionValue::String("/nets/a b.bin".into()))
        );
        assert_eq!(
            path.parse("EvalFile", Some("<empty>")),
            Ok(OptionValue::String(String::new()))
        );
        assert_eq!(
            path.parse("EvalFile", None),
            Ok(OptionValue::String(String::new()))
        );
        assert_eq!(path.default_value(), OptionValue::String("net.bin".into()));
    }

    #[test]
    fn the_tunable_table_is_sound() {
        assert!(!TUNABLES.is_empty());
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min < t.max, "{}: empty range", t.name);
            assert!(
                (t.min..=t.max).contains(&t.default),
                "{}: default {} outside {}..={}",
                t.name,
                t.default,
                t.min,
                t.max
            );
            assert!(
                t.step > 0.0 && t.step <= f64::from(t.max - t.min) / 2.0,
                "{}: step {} does not fit the range",
                t.name,
                t.step
            );
            assert_eq!(
                find_tunable(t.name).map(|(j, _)| j),
                Some(i),
                "{} found by name",
                t.name
            );
            assert_eq!(
                find_tunable(&t.name.to_lowercase().replace('_', " ")).map(|(j, _)| j),
                Some(i)
            );
        }
        assert!(find_tunable("NO_SUCH_CONSTANT").is_none());
    }

    /// Ordinary builds keep the tunables constants: none of them is an option.
    #[cfg(not(feature = "tune"))]
    #[test]
    fn ordinary_builds_offer_no_tunable_option() {
        let mut o = Options::default();
        for t in TUNABLES {
            assert!(
                matches!(
                    o.set(t.name, Some(&t.default.to_string())),
                    Err(OptionError::Unknown(_))
                ),
                "{} is an option in an ordinary build",
                t.name
            );
        }
    }

    /// `tune` builds: every tunable is a hidden spin of its declared range.
    #[cfg(feature = "tune")]
    #[test]
    fn tune_builds_offer_each_tunable_as_a_hidden_spin() {
        let mut o = Options::default();
        for t in TUNABLES {
            assert_eq!(
                o.set(t.name, Some(&t.default.to_string())),
                Ok(Effect::None)
            );
            assert!(matches!(
                o.set(t.name, Some(&(t.max + 1).to_string())),
                Err(OptionError::BadValue(_))
            ));
        }
    }
}
